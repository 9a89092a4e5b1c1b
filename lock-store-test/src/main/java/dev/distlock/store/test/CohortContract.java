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
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;
import dev.distlock.store.FairQueueExtension;
import dev.distlock.store.HandOverExtension;
import dev.distlock.store.WakeOneExtension;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Cohort hand-over and waking one waiter: a release wakes one waiting client, a client
 * hands a lock to its own next caller with a new fencing token, without starving other
 * clients.
 *
 * @author distlock
 */
abstract class CohortContract extends ContractGroup {

	CohortContract(LockStoreContractTests suite) {
		super(suite);
	}

	@Test
	void aReleaseWakesOneOfSeveralWaitingClients() throws Exception {
		assumeSupports(WakeOneExtension.class);
		assertWakesOneWaitingClient(false);
	}

	@Test
	void aFairReleaseWakesOnlyTheWaiterItGrantsTheLockTo() throws Exception {
		assumeSupports(FairQueueExtension.class);
		assertWakesOneWaitingClient(true);
	}

	void assertWakesOneWaitingClient(boolean fair) throws Exception {
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
		// once. Settled: no wake-up between two polls 250 ms apart.
		int[] seen = { -1 };
		await().atMost(Duration.ofSeconds(20))
			.pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(250))
			.until(() -> {
				int now = wakeUps.get();
				boolean settled = now == seen[0];
				seen[0] = now;
				return settled;
			});
		int before = wakeUps.get();
		holder.release();
		waitAtMost(Duration.ofSeconds(20)).until(() -> acquired.get() > 0);
		// A fixed wait that asserts nothing happens: no further wake-up, as a broadcast
		// would cause (pub/sub takes ~1 ms)
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
		assumeSupports(HandOverExtension.class);
		String key = uniqueKey("cohort");
		CountingLockStore store = new CountingLockStore(newStore(), new AtomicInteger());
		DefaultLockClient client = newClient(store, LockClientSettings.defaults());
		List<Long> fences = Collections.synchronizedList(new ArrayList<>());
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		// Held while the workers start, so that its release finds one of them waiting
		LockHandle first = client.obtain(key);
		assertThat(first.tryLock(Duration.ZERO)).isTrue();
		fences.add(first.fencingToken());
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
		awaitWaiting(client, key);
		first.unlock();
		for (Future<Object> worker : workers) {
			worker.get(3, TimeUnit.MINUTES);
		}
		assertThat(overlaps).hasValue(0);
		assertThat(fences).hasSize(121);
		for (int i = 1; i < fences.size(); i++) {
			assertThat(fences.get(i)).as("fence %s after %s", i, i - 1).isGreaterThan(fences.get(i - 1));
		}
		assertThat(store.handOvers()).as("cohort hand-overs").isPositive();
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void aHandOverWhoseReplyIsLostLeavesTheKeyToTheNextCaller() throws Exception {
		nextCallerGetsTheLockAfterAFailedHandOver(true);
	}

	@Test
	void aHandOverTheStoreDidNotRunLeavesTheKeyToTheNextCaller() throws Exception {
		nextCallerGetsTheLockAfterAFailedHandOver(false);
	}

	/**
	 * A hand-over that failed, whether the store ran it or not: the holder is told, and
	 * the key is released under whichever token owns it, so that the next local caller
	 * gets it well within the holder's 30-second lease.
	 */
	private void nextCallerGetsTheLockAfterAFailedHandOver(boolean runInStore) throws Exception {
		assumeSupports(HandOverExtension.class);
		String key = uniqueKey("failed-hand-over");
		CountingLockStore store = new CountingLockStore(newStore(), new AtomicInteger());
		DefaultLockClient client = newClient(store, LockClientSettings.defaults());
		LockHold holder = client.acquire(key, Duration.ZERO, null);
		CompletableFuture<LockHold> next = client.acquireAsync(key, Duration.ofSeconds(20), null).toCompletableFuture();
		awaitWaiting(client, key);
		store.failNextHandOver(runInStore);
		assertThatIllegalStateException().isThrownBy(holder::release).withMessageContaining("hand-over");
		LockHold taken = next.get(5, TimeUnit.SECONDS);
		assertThat(taken.isValid()).isTrue();
		taken.release();
		waitAtMost(Duration.ofSeconds(1)).until(() -> !isLocked(key));
		assertThat(client.heldCount()).isZero();
	}

	@Test
	void cohortHandOffsDoNotStarveAWaiterInAnotherClient() throws Exception {
		assumeSupports(HandOverExtension.class);
		String key = uniqueKey("cohort-bound");
		DefaultLockClient busyClient = newClient();
		AtomicBoolean stop = new AtomicBoolean();
		List<Future<Object>> workers = new ArrayList<>();
		for (int t = 0; t < 3; t++) {
			workers.add(inNewThread(() -> {
				while (!stop.get()) {
					LockHandle lock = busyClient.obtain(key);
					assertThat(lock.tryLock(Duration.ofSeconds(60))).isTrue();
					// the work done under the lock, not a wait
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

}
