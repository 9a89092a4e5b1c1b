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

package dev.distlock.core;

import dev.distlock.LossReason;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.distlock.LockLostException;
import dev.distlock.memory.ControllableInMemoryLockStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@link LockHold#whenLost()} and {@link LockHandle#whenLost()}: completed with the kind
 * of each loss as soon as the client knows, by a timer for a lease that runs out, on the
 * client's callback threads; never by a normal release, after which the client keeps no
 * reference to it.
 *
 * @author distlock
 */
class LossSignalTests {

	private static final Duration LEASE = Duration.ofMillis(300);

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final ControllableInMemoryLockStore store = new ControllableInMemoryLockStore();

	private final DefaultLockClient client = new DefaultLockClient(this.store,
			LockClientSettings.defaults().withWatchdogLease(LEASE));

	@AfterEach
	void close() {
		this.client.close();
	}

	@Test
	void completesWithTakenWhenTheWatchdogFindsAnotherOwner() throws Exception {
		LockHold hold = this.client.acquire("taken", Duration.ZERO, null);
		CompletionStage<LossReason> lost = hold.whenLost();
		this.store.takeOver("taken", "another-client:1");
		assertThat(lost.toCompletableFuture()).succeedsWithin(WAIT).isEqualTo(LossReason.TAKEN);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release);
	}

	@Test
	void completesWithForcedWhenAnOperatorForceReleasesIt() throws Exception {
		LockHold hold = this.client.acquire("forced", Duration.ZERO, null);
		this.client.forceRelease("forced");
		assertThat(hold.whenLost().toCompletableFuture()).succeedsWithin(WAIT).isEqualTo(LossReason.FORCED);
	}

	@Test
	void completesWithMaxHoldWhenHeldTooLong() throws Exception {
		try (DefaultLockClient capped = new DefaultLockClient(this.store,
				LockClientSettings.defaults().withWatchdogLease(LEASE).withMaxHold(Duration.ofMillis(200)))) {
			LockHold hold = capped.acquire("max-hold", Duration.ZERO, null);
			assertThat(hold.whenLost().toCompletableFuture()).succeedsWithin(WAIT).isEqualTo(LossReason.MAX_HOLD);
		}
	}

	@Test
	void completesWithClosedWhenTheClientCloses() throws Exception {
		LockHold hold = this.client.acquire("closed", Duration.ZERO, null);
		LockHold read = this.client.readLocks().acquire("closed-read", Duration.ZERO, null);
		CompletionStage<LossReason> lost = hold.whenLost();
		CompletionStage<LossReason> readLost = read.whenLost();
		this.client.close();
		assertThat(lost.toCompletableFuture()).succeedsWithin(WAIT).isEqualTo(LossReason.CLOSED);
		assertThat(readLost.toCompletableFuture()).succeedsWithin(WAIT).isEqualTo(LossReason.CLOSED);
	}

	@Test
	void completesWithExpiredWhenAFixedLeaseRunsOutWithoutAnyoneLooking() throws Exception {
		LockHold hold = this.client.acquire("fixed", Duration.ZERO, Duration.ofMillis(200));
		// Nobody calls the hold meanwhile: the fixed lease's timer completes it
		assertThat(hold.whenLost().toCompletableFuture()).succeedsWithin(WAIT).isEqualTo(LossReason.EXPIRED);
	}

	@Test
	void completesWithBackendByATimerWhenTheLeaseRunsOutWhileRenewalsFail() throws Exception {
		LockHold hold = this.client.acquire("outage", Duration.ZERO, null);
		CompletableFuture<LossReason> lost = hold.whenLost().toCompletableFuture();
		this.store.setUnreachable(true);
		// Nobody calls the hold meanwhile: the timer at the end of its local lease does
		assertThat(lost).succeedsWithin(WAIT).isEqualTo(LossReason.BACKEND);
		assertThat(this.client.renewedLeaseCount()).as("no longer renewed").isZero();
		this.store.setUnreachable(false);
		// Renewals work again, but a lease that ran out never comes back valid
		await().pollDelay(LEASE).atMost(WAIT).until(() -> !hold.isValid());
		assertThat(hold.isValid()).isFalse();
	}

	@Test
	void completesForEachKindOfHold() throws Exception {
		List<LockHold> several = this.client.acquireAll(List.of("several-a", "several-b"), Duration.ZERO, null);
		SegmentHold segment = this.client.acquireAny("segments", List.of("segment#0", "segment#1"), Duration.ZERO,
				null);
		LockHandle handle = this.client.obtain("handle");
		assertThat(handle.tryLock(Duration.ZERO)).isTrue();
		CompletionStage<LossReason> handleLost = handle.whenLost();
		this.store.takeOver("several-b", "another-client:1");
		this.client.forceRelease(segment.key());
		this.store.takeOver("handle", "another-client:2");
		assertThat(several.get(1).whenLost().toCompletableFuture()).succeedsWithin(WAIT).isEqualTo(LossReason.TAKEN);
		assertThat(segment.whenLost().toCompletableFuture()).succeedsWithin(WAIT).isEqualTo(LossReason.FORCED);
		assertThat(handleLost.toCompletableFuture()).succeedsWithin(WAIT).isEqualTo(LossReason.TAKEN);
		assertThat(several.get(0).whenLost().toCompletableFuture()).as("the other key of the call is held").isNotDone();
		several.get(0).release();
	}

	@Test
	void aHandleRefusesAThreadThatDoesNotHoldIt() {
		assertThatExceptionOfType(IllegalMonitorStateException.class)
			.isThrownBy(() -> this.client.obtain("not-held").whenLost());
	}

	@Test
	void dependentsRunOnTheClientsCallbackThreadsNeverOnItsTimer() throws Exception {
		LockHold hold = this.client.acquire("threads", Duration.ZERO, Duration.ofMillis(100));
		CompletableFuture<String> thread = hold.whenLost()
			.thenApply((reason) -> Thread.currentThread().getName())
			.toCompletableFuture();
		assertThat(thread).succeedsWithin(WAIT).asString().contains("-callback-").doesNotContain("-timer-");
	}

	@Test
	void aNormalReleaseNeverCompletesItAndTheClientKeepsNoReferenceToIt() throws Exception {
		LockHold hold = this.client.acquire("released", Duration.ZERO, null);
		CompletionStage<LossReason> lost = hold.whenLost();
		LockHandle handle = this.client.obtain("released-handle");
		assertThat(handle.tryLock(Duration.ZERO)).isTrue();
		CompletionStage<LossReason> handleLost = handle.whenLost();
		hold.release();
		handle.unlock();
		this.store.takeOver("released", "another-client:1");
		this.store.takeOver("released-handle", "another-client:2");
		// Several leases pass, a forced release and a close: nothing may complete them
		Thread.sleep(LEASE.toMillis() * 3);
		this.client.forceRelease("released");
		assertThat(lost.toCompletableFuture()).isNotDone();
		assertThat(handleLost.toCompletableFuture()).isNotDone();
		WeakReference<CompletionStage<LossReason>> signal = new WeakReference<>(lost);
		lost = null;
		hold = null;
		await("the released hold's signal collected while the client is open").atMost(WAIT).until(() -> {
			System.gc();
			return signal.get() == null;
		});
		this.client.close();
		assertThat(handleLost.toCompletableFuture()).isNotDone();
	}

}
