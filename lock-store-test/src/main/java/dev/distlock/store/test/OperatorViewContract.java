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

import dev.distlock.LockLostException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.ForcedRelease;
import dev.distlock.core.HeldLock;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;
import dev.distlock.core.LockState;
import dev.distlock.store.InspectionExtension;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The operator view: what a client holds, a key's state in the store (needs an
 * {@link InspectionExtension}) and a forced release (needs it too).
 *
 * @author distlock
 */
abstract class OperatorViewContract extends ContractGroup {

	OperatorViewContract(LockStoreContractTests suite) {
		super(suite);
	}

	@Test
	void heldLocksListWhatTheClientHoldsUntilItIsReleased() throws Exception {
		DefaultLockClient client = newClient();
		String key = uniqueKey("held-view");
		LockHandle lock = client.obtain(key);
		assertThat(lock.tryLock(Duration.ZERO)).isTrue();
		LockHold hold = client.acquire(key + ":hold", Duration.ZERO, null);
		assertThat(client.heldCount()).isEqualTo(2);
		assertThat(client.heldLocks()).extracting(HeldLock::key).containsExactlyInAnyOrder(key, key + ":hold");
		assertThat(client.heldLocks()).extracting(HeldLock::fencingToken)
			.containsExactlyInAnyOrder(lock.fencingToken(), hold.fencingToken());
		lock.unlock();
		hold.release();
		waitAtMost(Duration.ofSeconds(5)).until(() -> client.heldCount() == 0);
		assertThat(client.heldLocks()).isEmpty();
	}

	@Test
	void inspectShowsTheHolderItsLeaseAndTheLastFencingToken() throws Exception {
		assumeFixedLeases();
		assumeSupports(InspectionExtension.class);
		String key = uniqueKey("inspect");
		DefaultLockClient holder = newClient();
		DefaultLockClient operator = newClient();
		assertThat(operator.inspect(key).held()).isFalse();
		try (LockHold hold = holder.acquire(key, Duration.ZERO, Duration.ofSeconds(20))) {
			LockState state = operator.inspect(key);
			assertThat(state.held()).isTrue();
			assertThat(state.holderClientId()).isEqualTo(holder.clientId());
			assertThat(state.heldByThisClient()).isFalse();
			assertThat(state.ttl()).isNotNull().isBetween(Duration.ofSeconds(1), Duration.ofSeconds(20));
			assertThat(state.lastFencingToken()).isEqualTo(hold.fencingToken());
			assertThat(holder.inspect(key).heldByThisClient()).isTrue();
		}
		assertThat(operator.inspect(key).held()).isFalse();
	}

	@Test
	void aForcedReleaseFreesAKeyWhoeverHoldsIt() throws Exception {
		assumeSupports(InspectionExtension.class);
		String key = uniqueKey("force-release");
		DefaultLockClient holder = newClient();
		LockHold hold = holder.acquire(key, Duration.ZERO, null);
		ForcedRelease released = newClient().forceRelease(key);
		assertThat(released.released()).isTrue();
		assertThat(released.holderClientId()).isEqualTo(holder.clientId());
		assertThat(released.heldByThisClient()).isFalse();
		assertThat(isLocked(key)).isFalse();
		try (LockHold next = newClient().acquire(key, Duration.ZERO, null)) {
			assertThat(next.fencingToken()).isGreaterThan(hold.fencingToken());
		}
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release);
		assertThat(newClient().forceRelease(key).released()).as("nothing left to release").isFalse();
	}

	@Test
	void aForcedReleaseByTheHoldingClientMarksItsHoldLost() throws Exception {
		assumeSupports(InspectionExtension.class);
		String key = uniqueKey("force-release-own");
		DefaultLockClient client = newClient();
		LockHold hold = client.acquire(key, Duration.ZERO, null);
		ForcedRelease released = client.forceRelease(key);
		assertThat(released.released()).isTrue();
		assertThat(released.heldByThisClient()).isTrue();
		assertThat(isLocked(key)).isFalse();
		assertThat(hold.isValid()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release);
	}

}
