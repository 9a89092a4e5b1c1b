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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.LockAcquisitionException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;
import dev.distlock.store.LockStore;
import dev.distlock.store.FairQueueExtension;
import dev.distlock.store.InspectionExtension;
import dev.distlock.store.support.Stages;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Fair locks: arrival order across clients, dead and impatient waiters, exclusion with
 * non-fair callers. Needs a {@link FairQueueExtension}.
 *
 * @author distlock
 */
abstract class FairContract extends ContractGroup {

	FairContract(LockStoreContractTests suite) {
		super(suite);
	}

	@BeforeEach
	void requireCapability() {
		assumeSupports(FairQueueExtension.class);
	}

	@Test
	void fairLockServesWaitersOfThreeClientsInArrivalOrder() throws Exception {
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
		String key = uniqueKey("fair-dead");
		Duration grantTimeout = Duration.ofSeconds(2);
		LockClientSettings settings = LockClientSettings.defaults().withFairGrantTimeout(grantTimeout);
		LockHold holder = newClient(settings).fair().acquire(key, Duration.ZERO, null);
		LockStore deadClientStore = newStore();
		try {
			// A waiter that joins the queue and then never comes back
			assertThat(Stages
				.join(extensionOf(deadClientStore, FairQueueExtension.class).tryAcquireFair(key, "dead-client:1",
						Duration.ofSeconds(30), grantTimeout))
				.acquired()).isFalse();
			DefaultLockClient waitingClient = newClient(settings).fair();
			// Waits 10 s, a third of the 30 s watchdog lease the dead waiter would claim
			Future<LockHold> waiter = inNewThread(() -> waitingClient.acquire(key, Duration.ofSeconds(10), null));
			awaitWaiting(waitingClient, key);
			holder.release();
			assertThat(Stages.join(extensionOf(deadClientStore, InspectionExtension.class).inspect(key)).ownerToken())
				.as("granted to the dead waiter")
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
	void aWaitingFairRefusalTellsTheStoreClock() {
		assumeFairWakeUpsCarryGrants();
		String key = uniqueKey("fair-clock");
		LockStore store = newStore();
		try {
			FairQueueExtension fairQueue = extensionOf(store, FairQueueExtension.class);
			assertThat(Stages.join(fairQueue.tryAcquireFair(key, "holder:1", Duration.ofSeconds(30), null)).acquired())
				.isTrue();
			LockStore.Attempt refusal = Stages
				.join(fairQueue.tryAcquireFair(key, "waiter:1", Duration.ofSeconds(30), Duration.ofSeconds(2)));
			assertThat(refusal.acquired()).isFalse();
			assertThat(refusal.knowsStoreClock()).isTrue();
			Stages.join(fairQueue.leaveFairQueue(key, "waiter:1"));
			assertThat(Stages.join(store.release(key, "holder:1"))).isTrue();
		}
		finally {
			store.close();
		}
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void aFairWaiterHoldsTheLockItsWakeUpGrantsWithoutAskingTheStoreAgain() throws Exception {
		assumeFairWakeUpsCarryGrants();
		// The store's grant ends 300 ms after the release unless the waiter extends it
		LockClientSettings settings = LockClientSettings.defaults().withFairGrantTimeout(Duration.ofMillis(300));
		int askedAfterRelease = -1;
		// A re-check in flight at the release claims the grant with an attempt: another
		// round
		for (int round = 0; round < 3 && askedAfterRelease != 0; round++) {
			String key = uniqueKey("fair-wake-up-grant");
			LockHold holder = newClient(settings).fair().acquire(key, Duration.ZERO, null);
			CountingLockStore store = new CountingLockStore(newStore(), new AtomicInteger());
			DefaultLockClient waitingClient = newClient(store, settings).fair();
			CompletableFuture<LockHold> waiter = waitingClient.acquireAsync(key, Duration.ofSeconds(30), null)
				.toCompletableFuture();
			awaitWaiting(waitingClient, key);
			int beforeRecheck = store.fairAttemptsAnswered();
			// Released just after a timed re-check was answered, long after it subscribed
			waitAtMost(Duration.ofSeconds(5)).until(() -> store.fairAttemptsAnswered() > beforeRecheck);
			int beforeRelease = store.fairAttemptsAnswered();
			holder.release();
			LockHold hold = waiter.get(30, TimeUnit.SECONDS);
			askedAfterRelease = store.fairAttemptsAnswered() - beforeRelease;
			assertThat(hold.fencingToken()).isGreaterThan(holder.fencingToken());
			// Extended in the store past the grant's 300 ms
			waitAtMost(Duration.ofSeconds(3)).during(Duration.ofMillis(600))
				.until(() -> hold.isValid() && isLocked(key));
			hold.release();
			assertThat(isLocked(key)).isFalse();
		}
		assertThat(askedAfterRelease).as("fair attempts answered after the release").isZero();
	}

	@Test
	void aFairWaiterThatGaveUpLeavesTheQueue() throws Exception {
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

}
