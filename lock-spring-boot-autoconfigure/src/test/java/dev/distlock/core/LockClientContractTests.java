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

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.Collections;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import dev.distlock.LockAcquisitionException;
import dev.distlock.LockBackendException;
import dev.distlock.LockLostException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The lock semantics every {@link LockStore} must give a {@link DefaultLockClient}: one
 * abstract suite, run against the in-memory store and Redis standalone, Sentinel and
 * Cluster by its subclasses, like ShedLock's provider integration test. A subclass says
 * how to make a store for the shared backend and how to tamper with a key as a failure
 * would (expiry, another owner, an outage).
 *
 * @author distlock
 */
@ExtendWith(OutputCaptureExtension.class)
abstract class LockClientContractTests {

	static final Duration SHORT_LEASE = Duration.ofMillis(900);

	private final List<LockClient> clients = new ArrayList<>();

	/**
	 * Return a new store on the backend the subclass tests; every store of one test
	 * shares that backend, as application instances would.
	 * @return the store
	 */
	protected abstract LockStore newStore();

	/**
	 * Return whether the backend records someone holding {@code key}.
	 */
	protected abstract boolean isLocked(String key);

	/**
	 * Give {@code key} to a foreign owner, as another client would have taken it.
	 */
	protected abstract void takeOver(String key);

	/**
	 * Drop the lock on {@code key} from the backend, as expiry or eviction would.
	 */
	protected abstract void expire(String key);

	/**
	 * Make the backend unreachable or reachable again; only where
	 * {@link #canBeMadeUnreachable()}.
	 */
	protected void setUnreachable(boolean unreachable) {
		throw new UnsupportedOperationException();
	}

	protected boolean canBeMadeUnreachable() {
		return false;
	}

	/**
	 * Return whether the store has read locks ({@link LockStore#tryAcquireRead}).
	 */
	protected boolean hasReadLocks() {
		return true;
	}

	/**
	 * Return whether the store hands a released lock over (fair locks, one waiting client
	 * woken per release); a store waiting for replica acknowledgement does not.
	 */
	protected boolean handsOver() {
		return true;
	}

	@AfterEach
	void closeClients() {
		this.clients.forEach(LockClient::close);
	}

	DefaultLockClient newClient() {
		return newClient(LockClientSettings.defaults());
	}

	DefaultLockClient newClient(LockClientSettings settings) {
		return newClient(newStore(), settings);
	}

	DefaultLockClient newClient(LockStore store, LockClientSettings settings) {
		DefaultLockClient client = new DefaultLockClient(store, settings);
		this.clients.add(client);
		return client;
	}

	static <T> Future<T> inNewThread(Callable<T> task) {
		FutureTask<T> future = new FutureTask<>(task);
		Thread thread = new Thread(future, "contract-test-caller");
		thread.setDaemon(true);
		thread.start();
		return future;
	}

	LockHandle heldByAnotherClient(String key) throws InterruptedException {
		LockHandle holder = newClient().obtain(key);
		assertThat(holder.tryLock(Duration.ZERO)).as("%s acquired", key).isTrue();
		return holder;
	}

	static String uniqueKey(String name) {
		return name + ":" + UUID.randomUUID();
	}

	static void awaitWaiting(DefaultLockClient client, String key) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (client.waitingCount(key) == 0) {
			if (System.nanoTime() - deadline > 0) {
				throw new AssertionError("Nobody waited for " + key);
			}
			Thread.sleep(5);
		}
	}

	// Exclusion, ownership, reentrancy

	@Test
	void anotherClientCannotAcquireAHeldLock() throws Exception {
		String key = uniqueKey("held");
		LockHandle mine = newClient().obtain(key);
		LockHandle theirs = newClient().obtain(key);
		assertThat(mine.tryLock(Duration.ZERO)).isTrue();
		assertThat(isLocked(key)).isTrue();
		assertThat(theirs.tryLock(Duration.ZERO)).isFalse();
		mine.unlock();
		assertThat(isLocked(key)).isFalse();
		assertThat(theirs.tryLock(Duration.ZERO)).isTrue();
		theirs.unlock();
	}

	@Test
	void reentersAndReleasesOnTheLastUnlock() throws Exception {
		DefaultLockClient client = newClient();
		String key = uniqueKey("reentrant");
		LockHandle lock = client.obtain(key);
		assertThat(lock.tryLock(Duration.ZERO)).isTrue();
		long fence = lock.fencingToken();
		assertThat(client.obtain(key).tryLock(Duration.ZERO)).isTrue();
		assertThat(lock.tryLock(Duration.ofSeconds(1), Duration.ofSeconds(5))).isTrue();
		assertThat(lock.getHoldCount()).isEqualTo(3);
		assertThat(lock.fencingToken()).isEqualTo(fence);
		lock.unlock();
		lock.unlock();
		assertThat(isLocked(key)).isTrue();
		assertThat(lock.isHeldByCurrentThread()).isTrue();
		lock.unlock();
		assertThat(isLocked(key)).isFalse();
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		assertThat(lock.getHoldCount()).isZero();
	}

	@Test
	void rejectsUnlockByAnotherThreadAndKeepsTheKey() throws Exception {
		LockHandle lock = newClient().obtain(uniqueKey("owned"));
		lock.lock();
		try {
			CompletableFuture<Void> foreignUnlock = CompletableFuture.runAsync(lock::unlock);
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> foreignUnlock.get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(IllegalMonitorStateException.class);
			assertThat(isLocked(lock.key())).isTrue();
			assertThat(lock.isHeldByCurrentThread()).isTrue();
		}
		finally {
			lock.unlock();
		}
	}

	@Test
	void rejectsUnlockOfALockNeverAcquired() {
		LockHandle lock = newClient().obtain(uniqueKey("free"));
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::unlock)
			.withMessageContaining(lock.key());
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::fencingToken);
	}

	@Test
	void unlockAfterTheLeaseExpiredLeavesTheNewOwnersLock() throws Exception {
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
	void fencingTokensStrictlyIncreaseAcrossClients() throws Exception {
		String key = uniqueKey("fence");
		List<LockClient> pair = List.of(newClient(), newClient());
		List<Long> fences = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			LockClient client = pair.get(i % 2);
			if (i % 3 == 0) {
				try (LockHold hold = client.acquire(key, Duration.ofSeconds(5), null)) {
					fences.add(hold.fencingToken());
				}
			}
			else {
				LockHandle lock = client.obtain(key);
				assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
				fences.add(lock.fencingToken());
				lock.unlock();
			}
		}
		assertThat(fences).isSorted().doesNotHaveDuplicates();
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
		LockHandle lock = newClient().obtain(uniqueKey("lost-reentry"));
		assertThat(lock.tryLock(Duration.ZERO, Duration.ofMillis(100))).isTrue();
		Thread.sleep(200);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> lock.tryLock(Duration.ZERO));
		assertThat(lock.getHoldCount()).isEqualTo(1);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
	}

	@Test
	void clientsNeverOverlapOnOneKeyAndFencingNeverRegresses() throws Exception {
		String key = uniqueKey("counter");
		List<DefaultLockClient> pair = List.of(newClient(), newClient());
		int threadsPerClient = 3;
		int rounds = 60;
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger regressions = new AtomicInteger();
		long[] lastFence = new long[1];
		int[] counter = new int[1];
		ExecutorService pool = Executors.newFixedThreadPool(pair.size() * threadsPerClient);
		List<Future<?>> workers = new ArrayList<>();
		for (DefaultLockClient client : pair) {
			for (int t = 0; t < threadsPerClient; t++) {
				boolean callOwned = t % 2 == 0;
				workers.add(pool.submit(() -> {
					for (int i = 0; i < rounds; i++) {
						if (callOwned) {
							LockHold hold = client.acquireAsync(key, Duration.ofSeconds(60), null)
								.toCompletableFuture()
								.get(60, TimeUnit.SECONDS);
							try {
								criticalSection(hold.fencingToken(), inside, overlaps, regressions, lastFence, counter);
							}
							finally {
								hold.release();
							}
						}
						else {
							LockHandle lock = client.obtain(key);
							assertThat(lock.tryLock(Duration.ofSeconds(60))).isTrue();
							try {
								criticalSection(lock.fencingToken(), inside, overlaps, regressions, lastFence, counter);
							}
							finally {
								lock.unlock();
							}
						}
					}
					return null;
				}));
			}
		}
		for (Future<?> worker : workers) {
			worker.get(3, TimeUnit.MINUTES);
		}
		pool.shutdown();
		assertThat(overlaps).hasValue(0);
		assertThat(regressions).hasValue(0);
		assertThat(counter[0]).isEqualTo(pair.size() * threadsPerClient * rounds);
		assertThat(isLocked(key)).isFalse();
	}

	private static void criticalSection(long fence, AtomicInteger inside, AtomicInteger overlaps,
			AtomicInteger regressions, long[] lastFence, int[] counter) {
		if (inside.incrementAndGet() > 1) {
			overlaps.incrementAndGet();
		}
		int read = counter[0];
		Thread.onSpinWait();
		counter[0] = read + 1;
		if (fence <= lastFence[0]) {
			regressions.incrementAndGet();
		}
		lastFence[0] = fence;
		inside.decrementAndGet();
	}

	// Hand-off: one waiting client woken per release; fair locks

	@Test
	void aReleaseWakesOneOfSeveralWaitingClients() throws Exception {
		assertWakesOneWaitingClient(false);
	}

	@Test
	void aFairReleaseWakesOnlyTheWaiterItGrantsTheLockTo() throws Exception {
		assertWakesOneWaitingClient(true);
	}

	private void assertWakesOneWaitingClient(boolean fair) throws Exception {
		assumeTrue(handsOver());
		String key = uniqueKey(fair ? "wake-one-fair" : "wake-one");
		LockClient holderClient = fair ? newClient().fair() : newClient();
		LockHold holder = holderClient.acquire(key, Duration.ZERO, null);
		AtomicInteger wakeUps = new AtomicInteger();
		AtomicInteger acquired = new AtomicInteger();
		CountDownLatch done = new CountDownLatch(1);
		List<Future<Boolean>> waiters = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			DefaultLockClient root = newClient(new CountingLockStore(newStore(), wakeUps),
					LockClientSettings.defaults());
			DefaultLockClient client = fair ? root.fair() : root;
			waiters.add(inNewThread(() -> {
				LockHandle lock = client.obtain(key);
				if (!lock.tryLock(Duration.ofSeconds(60))) {
					return false;
				}
				acquired.incrementAndGet();
				done.await(60, TimeUnit.SECONDS);
				lock.unlock();
				return true;
			}));
			awaitWaiting(client, key);
		}
		// Let the subscriptions settle: a confirmed subscription wakes its listeners
		// once.
		Thread.sleep(500);
		int before = wakeUps.get();
		holder.release();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
		while (acquired.get() == 0 && System.nanoTime() - deadline < 0) {
			Thread.sleep(5);
		}
		// Room for further wake-ups a broadcast would have caused (pub/sub takes ~1 ms)
		Thread.sleep(300);
		int woken = wakeUps.get() - before;
		done.countDown();
		for (Future<Boolean> waiter : waiters) {
			assertThat(waiter.get(60, TimeUnit.SECONDS)).isTrue();
		}
		assertThat(woken).as("listeners run by one release").isEqualTo(1);
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void cohortHandOffsGiveEveryHolderItsOwnStrictlyIncreasingFencingToken() throws Exception {
		assumeTrue(handsOver());
		String key = uniqueKey("cohort");
		CountingLockStore store = new CountingLockStore(newStore(), new AtomicInteger());
		DefaultLockClient client = newClient(store, LockClientSettings.defaults());
		List<Long> fences = Collections.synchronizedList(new ArrayList<>());
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		List<Future<Object>> workers = new ArrayList<>();
		for (int t = 0; t < 3; t++) {
			workers.add(inNewThread(() -> {
				for (int i = 0; i < 40; i++) {
					LockHandle lock = client.obtain(key);
					assertThat(lock.tryLock(Duration.ofSeconds(60))).isTrue();
					if (inside.incrementAndGet() > 1) {
						overlaps.incrementAndGet();
					}
					fences.add(lock.fencingToken());
					Thread.yield();
					inside.decrementAndGet();
					lock.unlock();
				}
				return null;
			}));
		}
		for (Future<Object> worker : workers) {
			worker.get(3, TimeUnit.MINUTES);
		}
		assertThat(overlaps).hasValue(0);
		assertThat(fences).hasSize(120);
		for (int i = 1; i < fences.size(); i++) {
			assertThat(fences.get(i)).as("fence %s after %s", i, i - 1).isGreaterThan(fences.get(i - 1));
		}
		assertThat(store.handOvers()).as("cohort hand-offs").isPositive();
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void cohortHandOffsDoNotStarveAWaiterInAnotherClient() throws Exception {
		String key = uniqueKey("cohort-bound");
		DefaultLockClient busyClient = newClient();
		AtomicBoolean stop = new AtomicBoolean();
		List<Future<Object>> workers = new ArrayList<>();
		for (int t = 0; t < 3; t++) {
			workers.add(inNewThread(() -> {
				while (!stop.get()) {
					LockHandle lock = busyClient.obtain(key);
					assertThat(lock.tryLock(Duration.ofSeconds(60))).isTrue();
					Thread.sleep(1);
					lock.unlock();
				}
				return null;
			}));
		}
		try {
			awaitWaiting(busyClient, key);
			DefaultLockClient otherClient = newClient();
			for (int i = 0; i < 3; i++) {
				// The busy client keeps two callers waiting locally all along
				LockHold hold = otherClient.acquire(key, Duration.ofSeconds(20), null);
				hold.release();
			}
		}
		finally {
			stop.set(true);
		}
		for (Future<Object> worker : workers) {
			worker.get(60, TimeUnit.SECONDS);
		}
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void fairLockServesWaitersOfThreeClientsInArrivalOrder() throws Exception {
		assumeTrue(handsOver());
		String key = uniqueKey("fair-order");
		LockHold holder = newClient().fair().acquire(key, Duration.ZERO, null);
		List<String> order = Collections.synchronizedList(new ArrayList<>());
		List<Future<Long>> waiters = new ArrayList<>();
		for (String name : List.of("first", "second", "third")) {
			DefaultLockClient client = newClient().fair();
			waiters.add(inNewThread(() -> {
				LockHold hold = client.acquire(key, Duration.ofSeconds(60), null);
				order.add(name);
				long fence = hold.fencingToken();
				hold.release();
				return fence;
			}));
			awaitWaiting(client, key);
		}
		long last = holder.fencingToken();
		holder.release();
		for (Future<Long> waiter : waiters) {
			long fence = waiter.get(60, TimeUnit.SECONDS);
			assertThat(fence).isGreaterThan(last);
			last = fence;
		}
		assertThat(order).containsExactly("first", "second", "third");
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void aFairLockGrantedToAWaiterThatDiedPassesOnWithinTheGrantTimeoutNotTheLease() throws Exception {
		assumeTrue(handsOver());
		String key = uniqueKey("fair-dead");
		Duration grantTimeout = Duration.ofSeconds(2);
		LockClientSettings settings = LockClientSettings.defaults().withFairGrantTimeout(grantTimeout);
		LockHold holder = newClient(settings).fair().acquire(key, Duration.ZERO, null);
		LockStore deadClientStore = newStore();
		try {
			// A waiter that joins the queue and then never comes back
			assertThat(Stages
				.join(deadClientStore.tryAcquireFair(key, "dead-client:1", Duration.ofSeconds(30), grantTimeout))
				.acquired()).isFalse();
			DefaultLockClient waitingClient = newClient(settings).fair();
			// Waits 10 s, a third of the 30 s watchdog lease the dead waiter would claim
			Future<LockHold> waiter = inNewThread(() -> waitingClient.acquire(key, Duration.ofSeconds(10), null));
			awaitWaiting(waitingClient, key);
			holder.release();
			assertThat(Stages.join(deadClientStore.inspect(key)).ownerToken()).as("granted to the dead waiter")
				.isEqualTo("dead-client:1");
			LockHold hold = waiter.get(30, TimeUnit.SECONDS);
			assertThat(hold.fencingToken()).isGreaterThan(holder.fencingToken());
			hold.release();
		}
		finally {
			deadClientStore.close();
		}
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void aFairWaiterThatGaveUpLeavesTheQueue() throws Exception {
		assumeTrue(handsOver());
		String key = uniqueKey("fair-gave-up");
		// A grant to a waiter still queued would block the lock for 30 s, longer than the
		// next waiter waits.
		LockClientSettings settings = LockClientSettings.defaults().withFairGrantTimeout(Duration.ofSeconds(30));
		LockHold holder = newClient(settings).fair().acquire(key, Duration.ZERO, null);
		DefaultLockClient impatientClient = newClient(settings).fair();
		Future<LockHold> impatient = inNewThread(() -> impatientClient.acquire(key, Duration.ofSeconds(2), null));
		awaitWaiting(impatientClient, key);
		DefaultLockClient patientClient = newClient(settings).fair();
		Future<LockHold> patient = inNewThread(() -> patientClient.acquire(key, Duration.ofSeconds(10), null));
		awaitWaiting(patientClient, key);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> impatient.get(30, TimeUnit.SECONDS))
			.withCauseInstanceOf(LockAcquisitionException.class);
		holder.release();
		LockHold hold = patient.get(30, TimeUnit.SECONDS);
		assertThat(hold.fencingToken()).isGreaterThan(holder.fencingToken());
		hold.release();
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void anAsyncFairAcquireWaitsForTheReleaseAndGetsTheLock() throws Exception {
		assumeTrue(handsOver());
		String key = uniqueKey("fair-async");
		LockHold holder = newClient().fair().acquire(key, Duration.ZERO, null);
		DefaultLockClient waitingClient = newClient().fair();
		CompletableFuture<LockHold> waiter = waitingClient.acquireAsync(key, Duration.ofSeconds(30), null)
			.toCompletableFuture();
		awaitWaiting(waitingClient, key);
		assertThat(waiter).isNotDone();
		holder.release();
		LockHold hold = waiter.get(30, TimeUnit.SECONDS);
		assertThat(hold.fencingToken()).isGreaterThan(holder.fencingToken());
		hold.release();
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void fairAndNonFairCallersOfOneKeyExcludeEachOther() throws Exception {
		assumeTrue(handsOver());
		String key = uniqueKey("fair-mixed");
		DefaultLockClient client = newClient();
		LockHold fairHold = client.fair().acquire(key, Duration.ZERO, null);
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> newClient().acquire(key, Duration.ZERO, null));
		fairHold.release();
		LockHold hold = newClient().acquire(key, Duration.ZERO, null);
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> client.fair().acquire(key, Duration.ZERO, null));
		hold.release();
	}

	@Test
	void fairClientsNeverOverlapOnOneKeyAndFencingStrictlyIncreases() throws Exception {
		assumeTrue(handsOver());
		String key = uniqueKey("fair-counter");
		List<DefaultLockClient> clients = List.of(newClient().fair(), newClient().fair(), newClient().fair());
		int threadsPerClient = 2;
		int rounds = 30;
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger regressions = new AtomicInteger();
		long[] lastFence = new long[1];
		int[] counter = new int[1];
		List<Future<?>> workers = new ArrayList<>();
		for (DefaultLockClient client : clients) {
			for (int t = 0; t < threadsPerClient; t++) {
				boolean callOwned = t % 2 == 0;
				workers.add(inNewThread(() -> {
					for (int i = 0; i < rounds; i++) {
						if (callOwned) {
							LockHold hold = client.acquireAsync(key, Duration.ofSeconds(60), null)
								.toCompletableFuture()
								.get(60, TimeUnit.SECONDS);
							try {
								criticalSection(hold.fencingToken(), inside, overlaps, regressions, lastFence, counter);
							}
							finally {
								hold.release();
							}
						}
						else {
							LockHandle lock = client.obtain(key);
							assertThat(lock.tryLock(Duration.ofSeconds(60))).isTrue();
							try {
								criticalSection(lock.fencingToken(), inside, overlaps, regressions, lastFence, counter);
							}
							finally {
								lock.unlock();
							}
						}
					}
					return null;
				}));
			}
		}
		for (Future<?> worker : workers) {
			worker.get(3, TimeUnit.MINUTES);
		}
		assertThat(overlaps).hasValue(0);
		assertThat(regressions).hasValue(0);
		assertThat(counter[0]).isEqualTo(clients.size() * threadsPerClient * rounds);
		assertThat(isLocked(key)).isFalse();
	}

	// Call-owned holds

	@Test
	void aHoldIsReleasedFromAnotherThreadAndOnlyOnce() throws Exception {
		String key = uniqueKey("hold");
		LockClient client = newClient();
		LockHold hold = client.acquire(key, Duration.ZERO, null);
		assertThat(hold.isValid()).isTrue();
		assertThat(isLocked(key)).isTrue();
		CompletableFuture.runAsync(hold::release).get(10, TimeUnit.SECONDS);
		assertThat(isLocked(key)).isFalse();
		assertThat(hold.isValid()).isFalse();
		assertThatIllegalStateException().isThrownBy(hold::release).withMessageContaining("already released");
		hold.close();
	}

	@Test
	void aHoldIsReleasedAsynchronouslyWithItsOutcomeInTheStage() throws Exception {
		String key = uniqueKey("hold-async-release");
		LockClient client = newClient();
		LockHold hold = client.acquire(key, Duration.ZERO, null);
		hold.releaseAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);
		assertThat(isLocked(key)).isFalse();
		assertThat(hold.isValid()).isFalse();
		CompletableFuture<Void> again = hold.releaseAsync().toCompletableFuture();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> again.get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(IllegalStateException.class);
	}

	@Test
	void aHoldExcludesThreadHandlesOfTheSameClient() throws Exception {
		String key = uniqueKey("mixed");
		DefaultLockClient client = newClient();
		try (LockHold hold = client.acquire(key, Duration.ZERO, null)) {
			assertThat(hold.key()).isEqualTo(key);
			assertThat(client.obtain(key).tryLock(Duration.ofMillis(50))).isFalse();
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> client.acquire(key, Duration.ZERO, null));
		}
		LockHandle lock = client.obtain(key);
		assertThat(lock.tryLock(Duration.ZERO)).isTrue();
		lock.unlock();
	}

	@Test
	void aBusyAcquireSaysHowLongTheHoldersLeaseHasLeft() throws Exception {
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
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		while (client.waitingCount(key) > 0 && System.nanoTime() - deadline < 0) {
			Thread.sleep(5);
		}
		assertThat(client.waitingCount(key)).isZero();
		holder.unlock();
		long quietUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
		while (System.nanoTime() - quietUntil < 0) {
			assertThat(isLocked(key)).as("nobody takes the lock the cancelled callers waited for").isFalse();
			Thread.sleep(10);
		}
		// the cancelled waiter may still be leaving the store's waiters with the local
		// turn
		try (LockHold again = client.acquire(key, Duration.ofSeconds(5), null)) {
			assertThat(again.isValid()).isTrue();
		}
	}

	// Several keys, minimum hold times

	@Test
	void severalKeysAreLockedAllOrNothingAndDuplicatesCountOnce() throws Exception {
		String a = uniqueKey("all-a");
		String b = uniqueKey("all-b");
		String c = uniqueKey("all-c");
		DefaultLockClient client = newClient();
		List<LockHold> holds = client.acquireAll(List.of(b, a, b), Duration.ZERO, null);
		assertThat(holds).extracting(LockHold::key).containsExactlyInAnyOrder(a, b).isSorted();
		assertThat(isLocked(a) && isLocked(b)).isTrue();
		try (LockHold other = newClient().acquire(c, Duration.ZERO, null)) {
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> newClient().acquireAll(List.of(b, c), Duration.ofMillis(100), null))
				.withMessageContaining(b);
			assertThat(other.isValid()).isTrue();
		}
		holds.forEach(LockHold::release);
		DefaultLockClient another = newClient();
		try (LockHold held = another.acquire(c, Duration.ZERO, null)) {
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> client.acquireAll(List.of(a, c), Duration.ofMillis(100), null));
			assertThat(isLocked(a)).as("nothing is held after a refusal").isFalse();
			assertThat(held.fencingToken()).isPositive();
		}
		assertThatIllegalArgumentException().isThrownBy(() -> client.acquireAll(List.of(), Duration.ZERO, null))
			.withMessageContaining("must not be empty");
		assertThatIllegalArgumentException().isThrownBy(() -> client.acquireAll(List.of(a, " "), Duration.ZERO, null))
			.withMessageContaining("blank");
	}

	@Test
	void callersWithOverlappingKeySetsNeverDeadlockNorOverlap() throws Exception {
		String a = uniqueKey("set-a");
		String b = uniqueKey("set-b");
		String c = uniqueKey("set-c");
		List<List<String>> sets = List.of(List.of(a, b), List.of(b, a), List.of(b, c), List.of(c, a));
		List<DefaultLockClient> pair = List.of(newClient(), newClient());
		java.util.Map<String, AtomicInteger> inside = new java.util.concurrent.ConcurrentHashMap<>();
		AtomicInteger overlaps = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(sets.size() * pair.size());
		List<Future<?>> workers = new ArrayList<>();
		for (DefaultLockClient client : pair) {
			for (List<String> set : sets) {
				workers.add(pool.submit(() -> {
					for (int i = 0; i < 25; i++) {
						List<LockHold> holds = (i % 2 == 0) ? client.acquireAll(set, Duration.ofSeconds(60), null)
								: client.acquireAllAsync(set, Duration.ofSeconds(60), null)
									.toCompletableFuture()
									.get(60, TimeUnit.SECONDS);
						for (String key : set) {
							if (inside.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet() > 1) {
								overlaps.incrementAndGet();
							}
						}
						Thread.onSpinWait();
						set.forEach((key) -> inside.get(key).decrementAndGet());
						holds.forEach(LockHold::release);
					}
					return null;
				}));
			}
		}
		for (Future<?> worker : workers) {
			worker.get(2, TimeUnit.MINUTES);
		}
		pool.shutdown();
		assertThat(overlaps).hasValue(0);
		assertThat(isLocked(a) || isLocked(b) || isLocked(c)).isFalse();
	}

	@Test
	void aMinimumHoldTimeKeepsTheLockAfterTheReleaseUntilItIsOver() throws Exception {
		String key = uniqueKey("hold-at-least");
		DefaultLockClient client = newClient();
		LockHandle lock = client.obtain(key);
		// the hold time counts from before the request, so measure from before it too
		long askedAt = System.nanoTime();
		assertThat(lock.tryLock(Duration.ZERO)).isTrue();
		lock.unlock(Duration.ofMillis(600));
		assertThat(isLocked(key)).isTrue();
		LockHandle other = newClient().obtain(key);
		assertThat(other.tryLock(Duration.ZERO)).isFalse();
		assertThat(other.tryLock(Duration.ofSeconds(5))).isTrue();
		// 600 ms less the store's millisecond rounding
		assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - askedAt)).isGreaterThanOrEqualTo(590);
		other.unlock(Duration.ZERO);
		assertThat(isLocked(key)).as("a minimum hold time already over releases at once").isFalse();
		LockHold hold = client.acquire(key, Duration.ZERO, null);
		hold.release(Duration.ofMillis(300));
		assertThat(isLocked(key)).isTrue();
		assertThat(client.obtain(key).tryLock(Duration.ofSeconds(5))).isTrue();
		client.obtain(key).unlock();
	}

	// Unlocking on an interrupted thread

	@Test
	void unlockWithTheInterruptFlagSetSucceedsAndKeepsTheFlag() throws Exception {
		String key = uniqueKey("interrupted-unlock");
		DefaultLockClient client = newClient();
		CompletableFuture<Boolean> flagAfterUnlock = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				LockHandle lock = client.obtain(key);
				lock.lock();
				LockHold hold = client.acquire(key + ":hold", Duration.ZERO, null);
				Thread.currentThread().interrupt();
				lock.unlock();
				hold.release();
				flagAfterUnlock.complete(Thread.currentThread().isInterrupted());
			}
			catch (Throwable ex) {
				flagAfterUnlock.completeExceptionally(ex);
			}
		});
		thread.start();
		assertThat(flagAfterUnlock.get(10, TimeUnit.SECONDS)).isTrue();
		assertThat(isLocked(key)).isFalse();
		assertThat(isLocked(key + ":hold")).isFalse();
	}

	// Waiting

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
			Thread.sleep(100);
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
		Thread.sleep(200);
		assertThat(interruptedWhenAcquired).isNotDone();
		holder.unlock();
		assertThat(interruptedWhenAcquired.get(10, TimeUnit.SECONDS)).isTrue();
	}

	// Leases, watchdog, loss reporting

	@Test
	void watchdogKeepsALockForThreeLeasesWhileAFixedLeaseExpires() throws Exception {
		DefaultLockClient client = newClient(LockClientSettings.defaults().withWatchdogLease(SHORT_LEASE));
		DefaultLockClient other = newClient();
		String renewedKey = uniqueKey("renewed");
		String fixedKey = uniqueKey("fixed");
		LockHandle renewed = client.obtain(renewedKey);
		LockHandle fixed = client.obtain(fixedKey);
		assertThat(renewed.tryLock(Duration.ZERO)).isTrue();
		assertThat(fixed.tryLock(Duration.ZERO, SHORT_LEASE)).isTrue();
		Thread.sleep(SHORT_LEASE.toMillis() * 3 + 100);
		assertThat(renewed.isHeldByCurrentThread()).isTrue();
		assertThat(fixed.isHeldByCurrentThread()).isFalse();
		assertThat(other.obtain(renewedKey).tryLock(Duration.ZERO)).isFalse();
		LockHandle taker = other.obtain(fixedKey);
		assertThat(taker.tryLock(Duration.ZERO)).isTrue();
		renewed.unlock();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(fixed::unlock);
		assertThat(isLocked(fixedKey)).isTrue();
		taker.unlock();
	}

	@Test
	void watchdogReportsALockTakenOverByAnotherOwner() throws Exception {
		DefaultLockClient client = newClient(LockClientSettings.defaults().withWatchdogLease(SHORT_LEASE));
		LockHandle lock = client.obtain(uniqueKey("taken-over"));
		assertThat(lock.tryLock(Duration.ZERO)).isTrue();
		LockHold hold = client.acquire(uniqueKey("taken-over-hold"), Duration.ZERO, null);
		takeOver(lock.key());
		takeOver(hold.key());
		Thread.sleep(SHORT_LEASE.toMillis());
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
	void aReleaseRacingARenewalNeverReportsALoss(CapturedOutput output) throws Exception {
		DefaultLockClient client = newClient(LockClientSettings.defaults().withWatchdogLease(Duration.ofMillis(600)));
		int threads = 6;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		List<Future<Integer>> churners = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			String key = uniqueKey("churn-" + t);
			churners.add(pool.submit(() -> {
				LockHandle lock = client.obtain(key);
				long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
				int rounds = 0;
				while (System.nanoTime() - deadline < 0) {
					assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
					try {
						assertThat(lock.tryLock(Duration.ZERO)).as("re-entry in round %d", rounds).isTrue();
						lock.unlock();
					}
					finally {
						lock.unlock();
					}
					rounds++;
				}
				return rounds;
			}));
		}
		for (Future<Integer> churner : churners) {
			assertThat(churner.get(30, TimeUnit.SECONDS)).isGreaterThan(10);
		}
		pool.shutdown();
		assertThat(output).doesNotContain("was lost");
	}

	@Test
	void closingReleasesHeldLocksAndRefusesNewOnes() throws Exception {
		String key = uniqueKey("closed");
		DefaultLockClient client = newClient();
		LockHandle lock = client.obtain(key);
		assertThat(lock.tryLock(Duration.ZERO)).isTrue();
		LockHold hold = client.acquire(key + ":hold", Duration.ZERO, null);
		client.close();
		assertThat(newClient().obtain(key).tryLock(Duration.ZERO)).isTrue();
		assertThat(isLocked(key + ":hold")).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock).withMessageContaining("closed");
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release).withMessageContaining("closed");
		assertThatIllegalStateException().isThrownBy(() -> client.obtain(uniqueKey("after")).tryLock(Duration.ZERO))
			.withMessageContaining("closed");
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> client.acquireAsync(uniqueKey("after"), Duration.ZERO, null)
				.toCompletableFuture()
				.get(5, TimeUnit.SECONDS))
			.withCauseInstanceOf(IllegalStateException.class);
	}

	@Test
	void closingWakesWaitersWhichThenFail() throws Exception {
		String key = uniqueKey("close-waiter");
		LockHandle holder = heldByAnotherClient(key);
		DefaultLockClient client = newClient();
		CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
			try {
				return client.obtain(key).tryLock(Duration.ofSeconds(30));
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		awaitWaiting(client, key);
		client.close();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> waiter.get(5, TimeUnit.SECONDS))
			.withRootCauseInstanceOf(IllegalStateException.class);
		holder.unlock();
	}

	// The callback form and arguments

	@Test
	void executeRunsTheCallbackUnderTheLockAndReturnsItsResult() {
		DefaultLockClient client = newClient();
		String key = uniqueKey("execute");
		String result = client.execute(key, Duration.ZERO, (lock) -> {
			assertThat(lock.isHeldByCurrentThread()).isTrue();
			assertThat(isLocked(key)).isTrue();
			return "done:" + lock.fencingToken();
		});
		assertThat(result).startsWith("done:");
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void executeReleasesWhenTheCallbackThrowsACheckedException() {
		DefaultLockClient client = newClient();
		String key = uniqueKey("execute-fails");
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> client.execute(key, Duration.ZERO, (lock) -> {
			throw new IOException("disk full");
		})).withMessage("disk full");
		assertThat(isLocked(key)).isFalse();
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

	@Test
	void executeReportsALockLostWhileTheCallbackRan() {
		DefaultLockClient client = newClient();
		String key = uniqueKey("execute-lost");
		assertThatExceptionOfType(LockLostException.class)
			.isThrownBy(() -> client.execute(key, Duration.ZERO, Duration.ofMillis(100), (lock) -> {
				Thread.sleep(250);
				return "late";
			}));
	}

	@Test
	void rejectsInvalidArgumentsWithTheirName() {
		DefaultLockClient client = newClient();
		assertThatIllegalArgumentException().isThrownBy(() -> client.obtain(" ")).withMessageContaining("blank");
		assertThatIllegalArgumentException().isThrownBy(() -> client.acquire(" ", Duration.ZERO, null))
			.withMessageContaining("blank");
		LockHandle lock = client.obtain(uniqueKey("args"));
		assertThatIllegalArgumentException().isThrownBy(() -> lock.tryLock(Duration.ofSeconds(-1)))
			.withMessageContaining("'waitTime'");
		assertThatIllegalArgumentException().isThrownBy(() -> lock.tryLock(Duration.ZERO, Duration.ZERO))
			.withMessageContaining("'leaseTime'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> client.acquireAsync(lock.key(), Duration.ZERO, Duration.ZERO))
			.withMessageContaining("'leaseTime'");
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(lock::newCondition);
	}

	// Outages

	@Test
	void acquisitionFailsClosedWhileTheStoreIsUnreachableAndRecovers() throws Exception {
		assumeTrue(canBeMadeUnreachable(), "this backend cannot be made unreachable from the suite");
		String key = uniqueKey("outage");
		DefaultLockClient client = newClient();
		setUnreachable(true);
		try {
			assertThatExceptionOfType(LockBackendException.class)
				.isThrownBy(() -> client.obtain(key).tryLock(Duration.ZERO))
				.withMessageContaining(key);
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(
					() -> client.acquireAsync(key, Duration.ZERO, null).toCompletableFuture().get(5, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockBackendException.class);
		}
		finally {
			setUnreachable(false);
		}
		try (LockHold hold = client.acquire(key, Duration.ZERO, null)) {
			assertThat(hold.isValid()).isTrue();
		}
	}

	// Read-write locks

	@Test
	void readersOverlapAcrossClientsAndThreads() throws Exception {
		assumeTrue(hasReadLocks(), "this store has no read locks");
		String key = uniqueKey("readers");
		DefaultLockClient client = newClient();
		List<LockClient> readers = List.of(client.readLocks(), client.readLocks(), newClient().readLocks());
		CountDownLatch allHold = new CountDownLatch(readers.size());
		ExecutorService pool = Executors.newFixedThreadPool(readers.size());
		try {
			List<Future<Boolean>> overlapped = new ArrayList<>();
			for (LockClient reader : readers) {
				overlapped.add(pool.submit(() -> {
					LockHandle lock = reader.obtain(key);
					assertThat(lock.tryLock(Duration.ofSeconds(10))).isTrue();
					try {
						allHold.countDown();
						return allHold.await(10, TimeUnit.SECONDS);
					}
					finally {
						lock.unlock();
					}
				}));
			}
			for (Future<Boolean> reader : overlapped) {
				assertThat(reader.get(30, TimeUnit.SECONDS)).as("every reader held the lock at once").isTrue();
			}
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void readersAndWritersExcludeEachOtherOnANonAtomicCounter() throws Exception {
		assumeTrue(hasReadLocks(), "this store has no read locks");
		String key = uniqueKey("read-write-counter");
		List<DefaultLockClient> pair = List.of(newClient(), newClient());
		int writes = 25;
		int reads = 40;
		int[] counter = new int[1];
		AtomicInteger readersInside = new AtomicInteger();
		AtomicInteger writersInside = new AtomicInteger();
		AtomicInteger violations = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(6);
		List<Future<?>> workers = new ArrayList<>();
		for (DefaultLockClient client : pair) {
			workers.add(pool.submit(() -> {
				for (int i = 0; i < writes; i++) {
					LockHandle lock = client.obtain(key);
					assertThat(lock.tryLock(Duration.ofSeconds(60))).isTrue();
					try {
						if (writersInside.incrementAndGet() > 1 || readersInside.get() > 0) {
							violations.incrementAndGet();
						}
						int read = counter[0];
						Thread.sleep(1);
						counter[0] = read + 1;
						writersInside.decrementAndGet();
					}
					finally {
						lock.unlock();
					}
				}
				return null;
			}));
			for (int r = 0; r < 2; r++) {
				boolean callOwned = r == 0;
				workers.add(pool.submit(() -> {
					for (int i = 0; i < reads; i++) {
						Runnable readTwice = () -> {
							readersInside.incrementAndGet();
							int first = counter[0];
							Thread.onSpinWait();
							if (writersInside.get() > 0 || counter[0] != first) {
								violations.incrementAndGet();
							}
							readersInside.decrementAndGet();
						};
						if (callOwned) {
							try (LockHold hold = client.readLocks()
								.acquireAsync(key, Duration.ofSeconds(60), null)
								.toCompletableFuture()
								.get(60, TimeUnit.SECONDS)) {
								readTwice.run();
							}
						}
						else {
							LockHandle lock = client.readLocks().obtain(key);
							assertThat(lock.tryLock(Duration.ofSeconds(60))).isTrue();
							try {
								readTwice.run();
							}
							finally {
								lock.unlock();
							}
						}
					}
					return null;
				}));
			}
		}
		for (Future<?> worker : workers) {
			worker.get(3, TimeUnit.MINUTES);
		}
		pool.shutdown();
		assertThat(violations).hasValue(0);
		assertThat(counter[0]).isEqualTo(pair.size() * writes);
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void aWriterIsNotStarvedByAStreamOfOverlappingReaders() throws Exception {
		assumeTrue(hasReadLocks(), "this store has no read locks");
		String key = uniqueKey("reader-stream");
		LockClient readers = newClient().readLocks();
		AtomicLong acquisitions = new AtomicLong();
		AtomicInteger readersInside = new AtomicInteger();
		AtomicBoolean stop = new AtomicBoolean();
		CountDownLatch streaming = new CountDownLatch(8);
		ExecutorService pool = Executors.newFixedThreadPool(4);
		List<Future<?>> stream = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			stream.add(pool.submit(() -> {
				long streamEnds = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
				while (!stop.get() && System.nanoTime() - streamEnds < 0) {
					LockHandle lock = readers.obtain(key);
					if (!lock.tryLock(Duration.ofSeconds(1))) {
						continue;
					}
					readersInside.incrementAndGet();
					long mine = acquisitions.incrementAndGet();
					streaming.countDown();
					// Leave only once a later reader got in, so that the key is never
					// free
					// while readers flow; or after 300 ms without one (readers refused).
					long leaveBy = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
					while (acquisitions.get() == mine && System.nanoTime() - leaveBy < 0) {
						Thread.sleep(2);
					}
					readersInside.decrementAndGet();
					lock.unlock();
				}
				return null;
			}));
		}
		try {
			assertThat(streaming.await(30, TimeUnit.SECONDS)).isTrue();
			LockHandle writer = newClient().obtain(key);
			assertThat(writer.tryLock(Duration.ofSeconds(15)))
				.as("the writer got in within 15 s of a reader stream lasting 40 s")
				.isTrue();
			try {
				assertThat(readersInside).hasValue(0);
			}
			finally {
				writer.unlock();
			}
		}
		finally {
			stop.set(true);
			for (Future<?> reader : stream) {
				reader.get(30, TimeUnit.SECONDS);
			}
			pool.shutdown();
		}
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void writeAndReadLocksAreReentrantLikeAReentrantReadWriteLock() throws Exception {
		assumeTrue(hasReadLocks(), "this store has no read locks");
		String key = uniqueKey("reentrant-read-write");
		DefaultLockClient client = newClient();
		LockClient otherReaders = newClient().readLocks();
		LockHandle write = client.obtain(key);
		LockHandle read = client.readLocks().obtain(key);
		assertThat(write.tryLock(Duration.ZERO)).isTrue();
		assertThat(write.tryLock(Duration.ZERO)).isTrue();
		assertThat(read.tryLock(Duration.ZERO)).as("the writer takes the read lock").isTrue();
		assertThat(read.fencingToken()).isEqualTo(write.fencingToken()).isPositive();
		write.unlock();
		write.unlock();
		assertThat(onOtherThread(() -> otherReaders.obtain(key).tryLock(Duration.ZERO)))
			.as("a read lock taken under the write lock keeps it exclusive")
			.isFalse();
		read.unlock();
		assertThat(isLocked(key)).isFalse();
		assertThat(read.tryLock(Duration.ZERO)).isTrue();
		assertThat(read.tryLock(Duration.ZERO)).isTrue();
		assertThat(read.getHoldCount()).isEqualTo(2);
		assertThat(read.fencingToken()).isZero();
		read.unlock();
		assertThat(read.isHeldByCurrentThread()).isTrue();
		assertThatIllegalStateException().isThrownBy(() -> write.tryLock(Duration.ofMinutes(5)))
			.withMessageContaining(key)
			.withMessageContaining("cannot be upgraded");
		assertThatIllegalStateException().isThrownBy(() -> client.acquire(key, Duration.ofMinutes(5), null))
			.withMessageContaining("cannot be upgraded");
		assertThat(onOtherThread(() -> client.obtain(key).tryLock(Duration.ZERO))).isFalse();
		read.unlock();
		assertThat(read.isHeldByCurrentThread()).isFalse();
		assertThat(isLocked(key)).isFalse();
		assertThat(onOtherThread(() -> {
			LockHandle other = client.obtain(key);
			boolean locked = other.tryLock(Duration.ZERO);
			other.unlock();
			return locked;
		})).isTrue();
	}

	@Test
	void writersGetIncreasingFencingTokensAcrossReadPhasesAndReadersGetNone() throws Exception {
		assumeTrue(hasReadLocks(), "this store has no read locks");
		String key = uniqueKey("read-fencing");
		DefaultLockClient client = newClient();
		long first;
		try (LockHold write = client.acquire(key, Duration.ZERO, null)) {
			first = write.fencingToken();
		}
		try (LockHold read = client.readLocks().acquire(key, Duration.ZERO, null)) {
			assertThat(read.fencingToken()).isZero();
			read.confirmOwnership();
		}
		try (LockHold write = newClient().acquire(key, Duration.ZERO, null)) {
			assertThat(write.fencingToken()).isGreaterThan(first);
		}
	}

	@Test
	void aDeadReadersLeaseEndsWhileOtherReadersRenewAndKeepTheLock() throws Exception {
		assumeTrue(hasReadLocks(), "this store has no read locks");
		String key = uniqueKey("dead-reader");
		LockClient renewed = newClient(LockClientSettings.defaults().withWatchdogLease(SHORT_LEASE)).readLocks();
		LockClient dead = newClient().readLocks();
		DefaultLockClient writers = newClient();
		LockHold live = renewed.acquire(key, Duration.ZERO, null);
		LockHold stale = dead.acquire(key, Duration.ZERO, SHORT_LEASE);
		Thread.sleep(SHORT_LEASE.toMillis() * 3 + 100);
		assertThat(live.isValid()).as("renewal keeps a reader past its lease").isTrue();
		live.confirmOwnership();
		assertThat(stale.isValid()).isFalse();
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> writers.acquire(key, Duration.ZERO, null));
		live.release();
		try (LockHold write = writers.acquire(key, Duration.ZERO, null)) {
			assertThat(write.fencingToken()).as("the dead reader no longer keeps the writer out").isPositive();
		}
		assertThatExceptionOfType(LockLostException.class).isThrownBy(stale::release);
	}

	@Test
	void aWaitingWriterGetsInWhenTheLastReaderLeaves() throws Exception {
		assumeTrue(hasReadLocks(), "this store has no read locks");
		writerGetsInWhenTheLastReaderLeaves(uniqueKey("writer-wakes"), newClient());
	}

	@Test
	void aWaitingFairWriterKeepsNewReadersOutAndGetsInWhenTheLastReaderLeaves() throws Exception {
		assumeTrue(hasReadLocks() && handsOver(), "this store has no read locks or no fair locks");
		writerGetsInWhenTheLastReaderLeaves(uniqueKey("fair-writer-wakes"), newClient().fair());
	}

	private void writerGetsInWhenTheLastReaderLeaves(String key, DefaultLockClient writers) throws Exception {
		LockHold first = newClient().readLocks().acquire(key, Duration.ZERO, null);
		LockHold second = newClient().readLocks().acquire(key, Duration.ZERO, null);
		CompletableFuture<LockHold> writer = writers.acquireAsync(key, Duration.ofSeconds(30), null)
			.toCompletableFuture();
		awaitWaiting(writers, key);
		LockClient newReaders = newClient().readLocks();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		boolean backedOff = false;
		while (!backedOff && System.nanoTime() - deadline < 0) {
			try {
				newReaders.acquire(key, Duration.ZERO, null).release();
				Thread.sleep(20);
			}
			catch (LockAcquisitionException ex) {
				backedOff = true;
			}
		}
		assertThat(backedOff).as("a new reader backs off while a writer waits").isTrue();
		first.release();
		assertThat(writer).isNotDone();
		second.release();
		writer.get(10, TimeUnit.SECONDS).release();
		try (LockHold reader = newClient().readLocks().acquire(key, Duration.ofSeconds(10), null)) {
			assertThat(reader.isValid()).isTrue();
		}
	}

	@Test
	void aLostReadLockIsReportedToItsHolder() throws Exception {
		assumeTrue(hasReadLocks(), "this store has no read locks");
		DefaultLockClient client = newClient(LockClientSettings.defaults().withWatchdogLease(SHORT_LEASE));
		LockHandle lock = client.readLocks().obtain(uniqueKey("lost-read"));
		assertThat(lock.tryLock(Duration.ZERO)).isTrue();
		LockHold hold = client.readLocks().acquire(uniqueKey("lost-read-hold"), Duration.ZERO, null);
		takeOver(lock.key());
		takeOver(hold.key());
		Thread.sleep(SHORT_LEASE.toMillis());
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		assertThat(hold.isValid()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::confirmOwnership);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release);
		assertThat(isLocked(lock.key())).as("the new owner keeps its key").isTrue();
		expire(lock.key());
		expire(hold.key());
	}

	@Test
	void severalReadLocksAreTakenAllOrNothing() throws Exception {
		assumeTrue(hasReadLocks(), "this store has no read locks");
		String a = uniqueKey("read-all-a");
		String b = uniqueKey("read-all-b");
		DefaultLockClient client = newClient();
		List<LockHold> holds = client.readLocks().acquireAll(List.of(b, a, b), Duration.ZERO, null);
		assertThat(holds).extracting(LockHold::key).containsExactly(a, b);
		try (LockHold otherReader = newClient().readLocks().acquire(a, Duration.ZERO, null)) {
			assertThat(otherReader.isValid()).isTrue();
		}
		holds.forEach(LockHold::release);
		LockHandle writer = heldByAnotherClient(b);
		try {
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> client.readLocks().acquireAll(List.of(a, b), Duration.ofMillis(100), null))
				.withMessageContaining(b);
			assertThat(isLocked(a)).as("the read lock of the first key was given back").isFalse();
		}
		finally {
			writer.unlock();
		}
	}

	@Test
	void readLocksNeedAStoreThatHasThem() {
		assumeTrue(!hasReadLocks(), "this store has read locks");
		DefaultLockClient client = newClient();
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> client.readLocks().acquire(uniqueKey("no-read"), Duration.ZERO, null))
			.withMessageContaining("no-read");
	}

	private static <T> T onOtherThread(Callable<T> task) throws Exception {
		ExecutorService thread = Executors.newSingleThreadExecutor();
		try {
			return thread.submit(task).get(30, TimeUnit.SECONDS);
		}
		finally {
			thread.shutdown();
		}
	}

}
