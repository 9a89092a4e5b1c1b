/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.distlock.store.test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.distlock.LockLostException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;
import dev.distlock.LossReason;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Loss: a lock that expired or was taken over is reported to its holder (its
 * {@code whenLost()} stage too, never completed by a normal release) and never released
 * from under its new owner.
 *
 * @author distlock
 */
abstract class LossContract extends ContractGroup {

	LossContract(LockStoreContractTests suite) {
		super(suite);
	}

	@Test
	void unlockAfterTheLeaseExpiredLeavesTheNewOwnersLock() throws Exception {
		assumeFixedLeases();
		String key = uniqueKey("expired");
		LockHandle first = newClient().obtain(key);
		LockHandle second = newClient().obtain(key);
		assertThat(first.tryLock(Duration.ZERO, Duration.ofMillis(200))).isTrue();
		assertThat(second.tryLock(Duration.ofSeconds(5), Duration.ofSeconds(30))).isTrue();
		try {
			assertThat(first.isHeldByCurrentThread()).isFalse();
			assertThatExceptionOfType(LockLostException.class).isThrownBy(first::unlock).withMessageContaining(key);
			assertThat(first.getHoldCount()).isZero();
			second.confirmOwnership();
		}
		finally {
			second.unlock();
		}
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void confirmOwnershipDetectsAForeignOwner() throws Exception {
		LockHandle lock = newClient().obtain(uniqueKey("confirm"));
		assertThat(lock.tryLock(Duration.ZERO)).isTrue();
		lock.confirmOwnership();
		takeOver(lock.key());
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::confirmOwnership);
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		assertThat(isLocked(lock.key())).as("the foreign owner keeps it").isTrue();
		expire(lock.key());
	}

	@Test
	void reenteringALostLockFails() throws Exception {
		assumeFixedLeases();
		LockHandle lock = newClient().obtain(uniqueKey("lost-reentry"));
		assertThat(lock.tryLock(Duration.ZERO, Duration.ofMillis(100))).isTrue();
		waitAtMost(Duration.ofSeconds(10)).until(() -> !isLocked(lock.key()));
		assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> lock.tryLock(Duration.ZERO));
		assertThat(lock.getHoldCount()).isEqualTo(1);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
	}

	@Test
	void watchdogReportsALockTakenOverByAnotherOwner() throws Exception {
		// A lease long enough that the watchdog's next round, a third of it away, finds
		// the new owner before the lease could run out on this client's clock on a loaded
		// machine: the loss this test is about is the one the store reports
		DefaultLockClient client = newClient(LockClientSettings.defaults().withWatchdogLease(Duration.ofSeconds(3)));
		LockHandle lock = client.obtain(uniqueKey("taken-over"));
		assertThat(lock.tryLock(Duration.ZERO)).isTrue();
		LockHold hold = client.acquire(uniqueKey("taken-over-hold"), Duration.ZERO, null);
		takeOver(lock.key());
		takeOver(hold.key());
		await().pollInSameThread()
			.atMost(Duration.ofSeconds(10))
			.until(() -> !lock.isHeldByCurrentThread() && !hold.isValid());
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		assertThat(hold.isValid()).isFalse();
		assertThat(client.renewedLeaseCount()).isZero();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock)
			.withMessageContaining("another client");
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release);
		assertThat(isLocked(lock.key())).isTrue();
		expire(lock.key());
		expire(hold.key());
	}

	@Test
	void whenLostCompletesWithTheLossAndNeverAfterANormalRelease() throws Exception {
		DefaultLockClient client = newClient(LockClientSettings.defaults().withWatchdogLease(SHORT_LEASE));
		LockHold taken = client.acquire(uniqueKey("when-lost"), Duration.ZERO, null);
		LockHold released = client.acquire(uniqueKey("when-lost-released"), Duration.ZERO, null);
		CompletableFuture<LossReason> releasedLost = released.whenLost().toCompletableFuture();
		released.release();
		takeOver(taken.key());
		assertThat(taken.whenLost().toCompletableFuture()).succeedsWithin(Duration.ofSeconds(10))
			.isEqualTo(LossReason.TAKEN);
		assertThat(releasedLost).as("a normal release is no loss").isNotDone();
		expire(taken.key());
	}

	@Test
	void whenLostCompletesWhenAFixedLeaseRunsOut() throws Exception {
		assumeFixedLeases();
		LockHold hold = newClient().acquire(uniqueKey("when-lost-fixed"), Duration.ZERO, Duration.ofMillis(200));
		assertThat(hold.whenLost().toCompletableFuture()).succeedsWithin(Duration.ofSeconds(10))
			.isEqualTo(LossReason.EXPIRED);
	}

	@Test
	void executeReportsALockLostWhileTheCallbackRan() {
		assumeFixedLeases();
		DefaultLockClient client = newClient();
		String key = uniqueKey("execute-lost");
		assertThatExceptionOfType(LockLostException.class)
			.isThrownBy(() -> client.execute(key, Duration.ZERO, Duration.ofMillis(100), (lock) -> {
				waitAtMost(Duration.ofSeconds(10)).until(() -> !isLocked(key));
				return "late";
			}));
	}

}
