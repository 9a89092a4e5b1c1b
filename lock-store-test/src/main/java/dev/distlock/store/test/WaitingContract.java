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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.distlock.LockAcquisitionException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Waiting and timeouts: zero waits, wait times, wake-up by a release, interrupts,
 * asynchronous acquisition and its cancellation.
 *
 * @author distlock
 */
abstract class WaitingContract extends ContractGroup {

	WaitingContract(LockStoreContractTests suite) {
		super(suite);
	}

	@Test
	void tryLockWithZeroWaitReturnsAtOnceWhenHeld() throws Exception {
		String key = uniqueKey("busy");
		LockHandle holder = heldByAnotherClient(key);
		try {
			LockHandle other = newClient().obtain(key);
			assertThat(other.tryLock(Duration.ZERO)).isFalse();
			assertThat(other.tryLock()).isFalse();
		}
		finally {
			holder.unlock();
		}
	}

	@Test
	void tryLockGivesUpAfterTheWaitTime() throws Exception {
		String key = uniqueKey("timeout");
		LockHandle holder = heldByAnotherClient(key);
		try {
			long started = System.nanoTime();
			assertThat(newClient().obtain(key).tryLock(Duration.ofMillis(300))).isFalse();
			long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
			assertThat(elapsedMillis).isGreaterThanOrEqualTo(250L);
		}
		finally {
			holder.unlock();
		}
	}

	@Test
	void releaseWakesAWaiterInAnotherClientWithoutWaitingForTheLease() throws Exception {
		String key = uniqueKey("wake");
		LockHandle holder = newClient().obtain(key);
		DefaultLockClient waitingClient = newClient();
		LockHandle waiter = waitingClient.obtain(key);
		List<Long> wakeUpMillis = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			assertThat(holder.tryLock(Duration.ZERO)).isTrue();
			CompletableFuture<Long> acquiredAt = CompletableFuture.supplyAsync(() -> {
				try {
					assertThat(waiter.tryLock(Duration.ofSeconds(20))).isTrue();
					long at = System.nanoTime();
					waiter.unlock();
					return at;
				}
				catch (InterruptedException ex) {
					throw new IllegalStateException(ex);
				}
			});
			awaitWaiting(waitingClient, key);
			long releasedAt = System.nanoTime();
			holder.unlock();
			wakeUpMillis.add(TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(20, TimeUnit.SECONDS) - releasedAt));
		}
		wakeUpMillis.sort(null);
		// The watchdog lease is 30 s and a waiter re-checks once a second without a
		// notification: a median well below that shows the release notification woke it.
		assertThat(wakeUpMillis.get(wakeUpMillis.size() / 2)).as("wake-ups %s ms", wakeUpMillis).isLessThan(300);
	}

	@Test
	void interruptEndsTheWaitWithInterruptedException() throws Exception {
		String key = uniqueKey("interrupt");
		LockHandle holder = heldByAnotherClient(key);
		DefaultLockClient client = newClient();
		LockHandle waiter = client.obtain(key);
		CompletableFuture<Throwable> outcome = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				waiter.tryLock(Duration.ofSeconds(30));
				outcome.complete(null);
			}
			catch (Throwable ex) {
				outcome.complete(ex);
			}
		});
		thread.start();
		awaitWaiting(client, key);
		thread.interrupt();
		assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
		assertThat(holder.isHeldByCurrentThread()).isTrue();
		holder.unlock();
	}

	@Test
	void interruptDuringExecuteFailsAcquisitionAndRestoresTheFlag() throws Exception {
		String key = uniqueKey("interrupt-execute");
		LockHandle holder = heldByAnotherClient(key);
		DefaultLockClient client = newClient();
		AtomicBoolean ran = new AtomicBoolean();
		CompletableFuture<Throwable> outcome = new CompletableFuture<>();
		CompletableFuture<Boolean> flagAfterwards = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				client.execute(key, Duration.ofSeconds(30), (lock) -> ran.getAndSet(true));
				outcome.complete(null);
			}
			catch (Throwable ex) {
				outcome.complete(ex);
			}
			flagAfterwards.complete(Thread.currentThread().isInterrupted());
		});
		thread.start();
		awaitWaiting(client, key);
		thread.interrupt();
		assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(LockAcquisitionException.class)
			.hasCauseInstanceOf(InterruptedException.class);
		assertThat(flagAfterwards.get(5, TimeUnit.SECONDS)).isTrue();
		assertThat(ran).isFalse();
		holder.unlock();
	}

	@Test
	void lockIgnoresInterruptsUntilAcquiredAndRestoresTheFlag() throws Exception {
		String key = uniqueKey("uninterruptible");
		LockHandle holder = heldByAnotherClient(key);
		DefaultLockClient client = newClient();
		LockHandle waiter = client.obtain(key);
		CompletableFuture<Boolean> interruptedWhenAcquired = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			waiter.lock();
			interruptedWhenAcquired.complete(Thread.currentThread().isInterrupted());
			waiter.unlock();
		});
		thread.start();
		awaitWaiting(client, key);
		thread.interrupt();
		// Nothing may happen for 200 ms: the interrupt does not end the wait
		await().during(Duration.ofMillis(200))
			.atMost(Duration.ofSeconds(5))
			.until(() -> !interruptedWhenAcquired.isDone());
		holder.unlock();
		assertThat(interruptedWhenAcquired.get(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void aBusyAcquireSaysHowLongTheHoldersLeaseHasLeft() throws Exception {
		assumeFixedLeases();
		String key = uniqueKey("busy-hold");
		try (LockHold holder = newClient().acquire(key, Duration.ZERO, Duration.ofSeconds(20))) {
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> newClient().acquire(key, Duration.ofMillis(100), null))
				.withMessageContaining(key)
				.satisfies((ex) -> assertThat(ex.getHolderLeaseRemaining()).hasValueSatisfying(
						(remaining) -> assertThat(remaining).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(20))));
			assertThat(holder.isValid()).isTrue();
		}
	}

	@Test
	void asyncAcquireCompletesOnAClientThreadAndWaitsForTheRelease() throws Exception {
		String key = uniqueKey("async");
		DefaultLockClient waiting = newClient();
		LockHold holder = newClient().acquire(key, Duration.ZERO, null);
		Thread caller = Thread.currentThread();
		AtomicReference<Thread> completedOn = new AtomicReference<>();
		CompletableFuture<LockHold> pending = waiting.acquireAsync(key, Duration.ofSeconds(20), null)
			.whenComplete((hold, ex) -> completedOn.set(Thread.currentThread()))
			.toCompletableFuture();
		awaitWaiting(waiting, key);
		assertThat(pending).isNotDone();
		holder.release();
		LockHold hold = pending.get(10, TimeUnit.SECONDS);
		assertThat(completedOn.get()).isNotSameAs(caller);
		assertThat(hold.fencingToken()).isGreaterThan(0);
		assertThat(isLocked(key)).isTrue();
		hold.release();
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void asyncAcquireFailsWithoutBlockingWhenTheLockStaysBusy() throws Exception {
		String key = uniqueKey("async-busy");
		LockHandle holder = heldByAnotherClient(key);
		try {
			DefaultLockClient client = newClient();
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(
					() -> client.acquireAsync(key, Duration.ZERO, null).toCompletableFuture().get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockAcquisitionException.class);
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> client.acquireAsync(key, Duration.ofMillis(200), null)
					.toCompletableFuture()
					.get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockAcquisitionException.class);
			assertThat(client.waitingCount(key)).isZero();
		}
		finally {
			holder.unlock();
		}
	}

	@Test
	void asyncAcquireQueuedBehindALocalHoldTimesOut() throws Exception {
		String key = uniqueKey("async-queued");
		DefaultLockClient client = newClient();
		try (LockHold first = client.acquire(key, Duration.ZERO, null)) {
			CompletableFuture<LockHold> second = client.acquireAsync(key, Duration.ofMillis(200), null)
				.toCompletableFuture();
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> second.get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockAcquisitionException.class);
			assertThat(first.isValid()).isTrue();
		}
		assertThat(client.waitingCount(key)).isZero();
	}

	@Test
	void cancellingAnAsyncAcquireGivesUpTheWaitAndLeavesNoLock() throws Exception {
		String key = uniqueKey("async-cancel");
		DefaultLockClient client = newClient();
		LockHandle holder = heldByAnotherClient(key);
		CompletableFuture<LockHold> inStore = client.acquireAsync(key, Duration.ofSeconds(30), null)
			.toCompletableFuture();
		awaitWaiting(client, key);
		CompletableFuture<LockHold> queuedLocally = client.acquireAsync(key, Duration.ofSeconds(30), null)
			.toCompletableFuture();
		assertThat(queuedLocally.cancel(false)).isTrue();
		assertThat(inStore.cancel(false)).isTrue();
		assertThatExceptionOfType(CancellationException.class).isThrownBy(() -> inStore.get(1, TimeUnit.SECONDS));
		waitAtMost(Duration.ofSeconds(5)).until(() -> client.waitingCount(key) == 0);
		assertThat(client.waitingCount(key)).isZero();
		holder.unlock();
		// Nothing may happen for 300 ms
		await().alias("nobody takes the lock the cancelled callers waited for")
			.during(Duration.ofMillis(300))
			.atMost(Duration.ofSeconds(5))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> !isLocked(key));
		// the cancelled waiter may still be leaving the store's waiters with the local
		// turn
		try (LockHold again = client.acquire(key, Duration.ofSeconds(5), null)) {
			assertThat(again.isValid()).isTrue();
		}
	}

	@Test
	void executeFailsWithoutRunningTheCallbackWhenTheLockIsBusy() throws Exception {
		String key = uniqueKey("execute-busy");
		LockHandle holder = heldByAnotherClient(key);
		try {
			List<String> ran = new ArrayList<>();
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> newClient().execute(key, Duration.ofMillis(100), (lock) -> ran.add("ran")))
				.withMessageContaining(key)
				.satisfies((ex) -> assertThat(ex.getWaitTime()).isEqualTo(Duration.ofMillis(100)));
			assertThat(ran).isEmpty();
		}
		finally {
			holder.unlock();
		}
	}

}
