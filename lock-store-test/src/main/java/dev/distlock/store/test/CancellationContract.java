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

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No lock outlives a caller that gives up while acquiring, whatever the instant: queued
 * for the local turn, with its request in flight (the reply held back, so the store has
 * granted a lock the client does not know of yet), waiting in the store, or at a random
 * instant; and asynchronous waiters hold no thread.
 */
abstract class CancellationContract extends ContractGroup {

	private static final Duration SECOND = Duration.ofSeconds(1);

	CancellationContract(LockStoreContractTests suite) {
		super(suite);
	}

	@Test
	void aCallerThatCancelsWhileQueuedForTheLocalTurnLeavesNothing() throws Exception {
		DefaultLockClient client = newClient();
		String key = uniqueKey("cancel-queued");
		LockHold first = client.acquire(key, Duration.ZERO, null);
		CompletableFuture<LockHold> second = client.acquireAsync(key, Duration.ofSeconds(10), null)
			.toCompletableFuture();
		waitAtMost(SECOND).until(() -> client.waitingCount(key) == 1);
		assertThat(second.cancel(false)).isTrue();
		waitAtMost(SECOND).until(() -> client.acquiringCount() == 0);
		first.release();
		assertThat(isLocked(key)).isFalse();
		assertThat(client.heldCount()).isZero();
		client.acquire(key, Duration.ZERO, null).release();
	}

	@Test
	void aCallerThatCancelsWhileItsRequestIsInFlightLeavesNoLock() {
		PausedRepliesLockStore store = new PausedRepliesLockStore(newStore());
		DefaultLockClient client = newClient(store, LockClientSettings.defaults());
		String key = uniqueKey("cancel-in-flight");
		store.pause();
		CompletableFuture<LockHold> acquisition = client.acquireAsync(key, Duration.ZERO, null).toCompletableFuture();
		waitAtMost(SECOND).until(() -> store.requests() == 1);
		// The store has granted the lock; the reply is on its way
		waitAtMost(SECOND).until(() -> isLocked(key));
		assertThat(acquisition.cancel(false)).isTrue();
		store.resume();
		waitAtMost(SECOND).until(() -> !isLocked(key));
		assertThat(client.heldCount()).isZero();
		assertThat(client.renewedLeaseCount()).isZero();
	}

	@Test
	void aBlockingCallerInterruptedWhileItsRequestIsInFlightLeavesNoLock() throws Exception {
		PausedRepliesLockStore store = new PausedRepliesLockStore(newStore());
		DefaultLockClient client = newClient(store, LockClientSettings.defaults());
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
		waitAtMost(SECOND).until(() -> store.requests() == 1);
		caller.interrupt();
		caller.join(SECOND.toMillis());
		assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
		store.resume();
		// The late grant is released in the background: the store's key and the client's
		// count of held locks both end empty, in either order
		waitAtMost(SECOND).until(() -> !isLocked(key) && client.heldCount() == 0);
	}

	@Test
	void aCallerThatCancelsWhileWaitingInTheStoreLeavesAndNobodyTakesTheLockForIt() throws Exception {
		String key = uniqueKey("cancel-waiting");
		LockHandle holder = heldByAnotherClient(key);
		DefaultLockClient client = newClient();
		CompletableFuture<LockHold> waiting = client.acquireAsync(key, Duration.ofSeconds(10), null)
			.toCompletableFuture();
		awaitWaiting(client, key);
		waiting.cancel(false);
		waitAtMost(SECOND).until(() -> client.acquiringCount() == 0 && client.waitingCount(key) == 0);
		holder.unlock();
		// Nothing happens: the fixed wait is what this asserts
		waitAtMost(SECOND).during(Duration.ofMillis(300)).until(() -> !isLocked(key));
		assertThat(client.heldCount()).isZero();
	}

	@Test
	void aWaiterWhoseFutureTimesOutLeavesNoLockAndTheNextCallerGetsIt() throws Exception {
		String key = uniqueKey("or-timeout-waiting");
		LockHandle holder = heldByAnotherClient(key);
		DefaultLockClient client = newClient();
		CompletableFuture<LockHold> waiting = client.acquireAsync(key, Duration.ofSeconds(30), null)
			.toCompletableFuture()
			.orTimeout(200, TimeUnit.MILLISECONDS);
		awaitWaiting(client, key);
		waitAtMost(Duration.ofSeconds(5)).until(waiting::isCompletedExceptionally);
		waitAtMost(SECOND).until(() -> client.acquiringCount() == 0 && client.waitingCount(key) == 0);
		holder.unlock();
		DefaultLockClient next = newClient();
		LockHold taken = next.acquire(key, Duration.ofSeconds(5), null);
		assertThat(taken.isValid()).isTrue();
		assertThat(client.heldCount()).isZero();
		taken.release();
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void aCallerWhoseFutureTimesOutWhileItsRequestIsInFlightLeavesNoLock() {
		PausedRepliesLockStore store = new PausedRepliesLockStore(newStore());
		DefaultLockClient client = newClient(store, LockClientSettings.defaults());
		String key = uniqueKey("or-timeout-in-flight");
		store.pause();
		CompletableFuture<LockHold> acquisition = client.acquireAsync(key, Duration.ZERO, null)
			.toCompletableFuture()
			.orTimeout(100, TimeUnit.MILLISECONDS);
		waitAtMost(SECOND).until(() -> store.requests() == 1);
		waitAtMost(SECOND).until(() -> isLocked(key));
		waitAtMost(SECOND).until(acquisition::isCompletedExceptionally);
		store.resume();
		waitAtMost(SECOND).until(() -> !isLocked(key));
		assertThat(client.heldCount()).isZero();
		assertThat(client.renewedLeaseCount()).isZero();
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
		// Releases of the grants that raced the cancels may take a quorum write each
		waitAtMost(SECOND.multipliedBy(5)).untilAsserted(() -> {
			assertThat(keys).noneMatch(this::isLocked);
			assertThat(client.heldCount()).isZero();
			assertThat(client.renewedLeaseCount()).isZero();
		});
		// And still none a second later: no grant arrives late for a caller that gave up
		waitAtMost(SECOND.multipliedBy(3)).during(SECOND)
			.until(() -> keys.stream().noneMatch(this::isLocked) && client.heldCount() == 0);
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
		// A store may run a synchronous caller's request on the caller's thread: a few
		// asynchronous acquisitions at once start the store's own fixed threads too,
		// which are not the waiters'
		List<CompletableFuture<LockHold>> warmUp = new ArrayList<>();
		for (int i = 0; i < 16; i++) {
			warmUp.add(client.acquireAsync(uniqueKey("warm-up"), Duration.ZERO, null).toCompletableFuture());
		}
		warmUp.forEach((hold) -> hold.join().release());
		// And one wait, served by a release, starts the threads the store waits with (a
		// listening connection, a timer), which are not the waiters' either
		String warmUpKey = uniqueKey("warm-up");
		LockHold warmUpHold = holder.acquire(warmUpKey, Duration.ZERO, null);
		CompletableFuture<LockHold> warmUpWait = client.acquireAsync(warmUpKey, Duration.ofSeconds(60), null)
			.toCompletableFuture();
		waitAtMost(Duration.ofSeconds(30)).until(() -> client.waitingCount(warmUpKey) == 1);
		warmUpHold.release();
		warmUpWait.get(60, TimeUnit.SECONDS).release();
		int threadsBefore = liveThreads();
		List<CompletableFuture<LockHold>> waiting = keys.stream()
			.map((key) -> client.acquireAsync(key, Duration.ofSeconds(60), null).toCompletableFuture())
			.toList();
		// A store that blocks asks for 2,000 keys a few at a time: slow on a loaded
		// machine
		waitAtMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
			.until(() -> keys.stream().mapToInt(client::waitingCount).sum() == keys.size());
		assertThat(liveThreads() - threadsBefore).as("threads added by %s waiters", keys.size()).isLessThanOrEqualTo(4);
		held.forEach(LockHold::release);
		CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
		waiting.forEach((hold) -> hold.join().release());
		assertThat(client.heldCount()).isZero();
	}

	private static int liveThreads() {
		return ManagementFactory.getThreadMXBean().getThreadCount();
	}

}
