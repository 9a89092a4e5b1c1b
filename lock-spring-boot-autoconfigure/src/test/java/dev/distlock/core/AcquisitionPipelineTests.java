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

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import dev.distlock.LockLostException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The acquisition pipeline on Redis: no lock outlives a caller that gives up at any
 * instant, waiting costs no thread, and a fixed lease that ran out frees the key for the
 * same client as for every other.
 *
 * @author distlock
 */
class AcquisitionPipelineTests extends RedisLockTestSupport {

	private static final Duration SECOND = Duration.ofSeconds(1);

	@Test
	void aCallerThatCancelsWhileQueuedForTheLocalTurnLeavesNothing() throws Exception {
		DefaultLockClient client = newClient();
		String key = uniqueKey("cancel-queued");
		LockHold first = client.acquire(key, Duration.ZERO, null);
		CompletableFuture<LockHold> second = client.acquireAsync(key, Duration.ofSeconds(10), null)
			.toCompletableFuture();
		await().atMost(SECOND).until(() -> client.waitingCount(key) == 1);
		assertThat(second.cancel(false)).isTrue();
		await().atMost(SECOND).until(() -> client.acquiringCount() == 0);
		first.release();
		assertThat(isLocked(key)).isFalse();
		assertThat(client.heldCount()).isZero();
		client.acquire(key, Duration.ZERO, null).release();
	}

	@Test
	void aCallerThatCancelsWhileItsRequestIsInFlightLeavesNoLock() {
		PausedRepliesLockStore store = new PausedRepliesLockStore(new RedisLockStore(redis));
		DefaultLockClient client = register(new DefaultLockClient(store));
		String key = uniqueKey("cancel-in-flight");
		store.pause();
		CompletableFuture<LockHold> acquisition = client.acquireAsync(key, Duration.ZERO, null).toCompletableFuture();
		await().atMost(SECOND).until(() -> store.requests() == 1);
		// Redis has run the script: the lock is granted, the reply is on its way
		await().atMost(SECOND).until(() -> isLocked(key));
		assertThat(acquisition.cancel(false)).isTrue();
		store.resume();
		await().atMost(SECOND).until(() -> !isLocked(key));
		assertThat(client.heldCount()).isZero();
		assertThat(client.renewedLeaseCount()).isZero();
	}

	@Test
	void aBlockingCallerInterruptedWhileItsRequestIsInFlightLeavesNoLock() throws Exception {
		PausedRepliesLockStore store = new PausedRepliesLockStore(new RedisLockStore(redis));
		DefaultLockClient client = register(new DefaultLockClient(store));
		String key = uniqueKey("interrupt-in-flight");
		store.pause();
		AtomicReference<Throwable> thrown = new AtomicReference<>();
		Thread caller = new Thread(() -> {
			try {
				client.acquire(key, Duration.ofSeconds(10), null);
			}
			catch (Throwable ex) {
				thrown.set(ex);
			}
		});
		caller.start();
		await().atMost(SECOND).until(() -> store.requests() == 1);
		caller.interrupt();
		caller.join(SECOND.toMillis());
		assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
		store.resume();
		await().atMost(SECOND).until(() -> !isLocked(key));
		assertThat(client.heldCount()).isZero();
	}

	@Test
	void aCallerThatCancelsWhileWaitingInTheStoreLeavesItsWaitersAndNobodyTakesTheLockForIt() throws Exception {
		String key = uniqueKey("cancel-waiting");
		LockHandle holder = heldByAnotherClient(key);
		DefaultLockClient client = newClient();
		CompletableFuture<LockHold> waiting = client.acquireAsync(key, Duration.ofSeconds(10), null)
			.toCompletableFuture();
		await().atMost(SECOND).until(() -> client.storeWaiterCount() == 1);
		waiting.cancel(false);
		await().atMost(SECOND).until(() -> client.acquiringCount() == 0 && client.storeWaiterCount() == 0);
		holder.unlock();
		// Nothing happens: a fixed wait is what this asserts
		await().during(Duration.ofMillis(300)).atMost(SECOND).until(() -> !isLocked(key));
		assertThat(client.heldCount()).isZero();
	}

	@Test
	void twoHundredCancelsAtRandomInstantsLeaveNoKeyHeld() {
		DefaultLockClient client = newClient();
		List<String> keys = new ArrayList<>();
		for (int i = 0; i < 200; i++) {
			String key = uniqueKey("cancel-random");
			keys.add(key);
			CompletableFuture<LockHold> acquisition = client
				.acquireAsync(key, (i % 2 == 0) ? Duration.ZERO : Duration.ofSeconds(5), null)
				.toCompletableFuture();
			LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(TimeUnit.MILLISECONDS.toNanos(2) + 1));
			if (!acquisition.cancel(false)) {
				acquisition.join().release();
			}
		}
		await().atMost(SECOND).untilAsserted(() -> {
			assertThat(keys).noneMatch(this::isLocked);
			assertThat(client.heldCount()).isZero();
			assertThat(client.renewedLeaseCount()).isZero();
		});
	}

	@Test
	void twoThousandAsynchronousWaitersAddAtMostFourThreads() throws Exception {
		DefaultLockClient holder = newClient();
		DefaultLockClient client = newClient();
		List<String> keys = new ArrayList<>();
		List<LockHold> held = new ArrayList<>();
		for (int i = 0; i < 2_000; i++) {
			String key = uniqueKey("waiters");
			keys.add(key);
			held.add(holder.acquire(key, Duration.ZERO, null));
		}
		client.acquire(uniqueKey("warm-up"), Duration.ZERO, null).release();
		int threadsBefore = liveThreads();
		List<CompletableFuture<LockHold>> waiting = keys.stream()
			.map((key) -> client.acquireAsync(key, Duration.ofSeconds(60), null).toCompletableFuture())
			.toList();
		await().atMost(Duration.ofSeconds(30)).until(() -> client.storeWaiterCount() == keys.size());
		assertThat(liveThreads() - threadsBefore).as("threads added by %s waiters", keys.size()).isLessThanOrEqualTo(4);
		held.forEach(LockHold::release);
		CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
		waiting.forEach((hold) -> hold.join().release());
		assertThat(client.heldCount()).isZero();
	}

	@Test
	void anExpiredFixedLeaseFreesTheKeyForTheSameClientAtOnce() throws Exception {
		DefaultLockClient client = newClient();
		String key = uniqueKey("fixed-lease");
		LockHold first = client.acquire(key, Duration.ZERO, Duration.ofMillis(50));
		await().pollDelay(Duration.ofMillis(100)).atMost(SECOND).until(() -> !isLocked(key));
		LockHold second = client.acquire(key, Duration.ZERO, null);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(first::release);
		assertThat(second.isValid()).isTrue();
		assertThat(isLocked(key)).isTrue();
		second.release();
	}

	@Test
	void anExpiredFixedLeaseOfAHandleFreesTheKeyForAnotherThreadAndIsNotReentered() throws Exception {
		DefaultLockClient client = newClient();
		String key = uniqueKey("fixed-lease-handle");
		ExecutorService first = Executors.newSingleThreadExecutor();
		ExecutorService second = Executors.newSingleThreadExecutor();
		try {
			LockHandle firstHandle = client.obtain(key);
			assertThat(first.submit(() -> firstHandle.tryLock(Duration.ZERO, Duration.ofMillis(50))).get()).isTrue();
			await().pollDelay(Duration.ofMillis(100)).atMost(SECOND).until(() -> !isLocked(key));
			LockHandle secondHandle = client.obtain(key);
			assertThat(second.submit(() -> secondHandle.tryLock(Duration.ZERO)).get()).isTrue();
			Future<Throwable> reentry = first.submit(() -> caught(() -> firstHandle.tryLock(Duration.ZERO)));
			assertThat(reentry.get()).isInstanceOf(LockLostException.class);
			Future<Throwable> unlock = first.submit(() -> caught(firstHandle::unlock));
			assertThat(unlock.get()).isInstanceOf(LockLostException.class);
			assertThat(second.submit(secondHandle::isHeldByCurrentThread).get()).isTrue();
			second.submit((Runnable) secondHandle::unlock).get();
			assertThat(isLocked(key)).isFalse();
		}
		finally {
			first.shutdownNow();
			second.shutdownNow();
		}
	}

	@Test
	void eightThreadsOnTwoNamesWithShortFixedLeasesLoseNoUpdate() throws Exception {
		DefaultLockClient client = newClient();
		List<String> names = List.of(uniqueKey("fuzz-a"), uniqueKey("fuzz-b"));
		long[] counters = new long[2];
		long[] increments = new long[2];
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> workers = new ArrayList<>();
			for (int t = 0; t < 8; t++) {
				workers.add(threads.submit(() -> {
					for (int i = 0; i < 100; i++) {
						int n = ThreadLocalRandom.current().nextInt(2);
						try (LockHold hold = client.acquire(names.get(n), Duration.ZERO, Duration.ofSeconds(2))) {
							long seen = counters[n];
							Thread.yield();
							counters[n] = seen + 1;
							increments[n]++;
						}
						catch (dev.distlock.LockAcquisitionException busy) {
							// Another thread holds it: try again
						}
					}
					return null;
				}));
			}
			for (Future<?> worker : workers) {
				worker.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(counters).containsExactly(increments);
		assertThat(increments[0] + increments[1]).isPositive();
	}

	private boolean isLocked(String key) {
		return Boolean.TRUE.equals(redis.hasKey(lockKey(key)));
	}

	private static int liveThreads() {
		return ManagementFactory.getThreadMXBean().getThreadCount();
	}

	private static Throwable caught(ThrowingRunnable action) {
		try {
			action.run();
			return null;
		}
		catch (Throwable ex) {
			return ex;
		}
	}

	@FunctionalInterface
	private interface ThrowingRunnable {

		void run() throws Exception;

	}

}
