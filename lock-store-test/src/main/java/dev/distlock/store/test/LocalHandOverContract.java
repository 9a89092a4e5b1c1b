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
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import dev.distlock.LockLostException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;
import dev.distlock.store.HandOverExtension;
import dev.distlock.store.LocalHandOverExtension;
import dev.distlock.store.LockStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Hand-over without a request ({@link LocalHandOverExtension}): a holder passes its lock
 * to the next caller of its own client without asking the store, the next caller's
 * fencing token is the holder's plus one, and fencing tokens still rise strictly per key
 * across clients, expiry and new clients; the new holder's loss is reported, other
 * clients still get in, and cancels at any instant leave nothing held.
 *
 * @author distlock
 */
abstract class LocalHandOverContract extends ContractGroup {

	private static final Duration WAIT = Duration.ofSeconds(30);

	LocalHandOverContract(LockStoreContractTests suite) {
		super(suite);
	}

	private void assumeLocalHandOvers() {
		assumeSupports(LocalHandOverExtension.class);
		assumeSupports(HandOverExtension.class);
	}

	@Test
	void aHandOverInsideTheClientSendsNoRequestAndRaisesTheFencingTokenByOne() throws Exception {
		assumeLocalHandOvers();
		String key = uniqueKey("local-hand-over");
		RequestCountingLockStore store = new RequestCountingLockStore(newStore());
		long room = store.fenceRoom();
		DefaultLockClient client = newClient(store, LockClientSettings.defaults());
		List<Long> fences = passAmongLocalCallers(client, key, 6, store::reset);
		assertRisingStrictly(fences);
		// The first hand-over after a grant of the store goes through it, which tells
		// whether another client waits; the five that follow send nothing
		assertThat(store.handOvers()).as("hand-overs through the store").isEqualTo(1);
		assertThat(store.attempts()).as("attempts").isZero();
		assertThat(store.releases()).as("releases: the last holder's").isEqualTo(1);
		assertThat(fences.get(1) % room).as("fencing token of the hand-over through the store").isZero();
		for (int i = 2; i < fences.size(); i++) {
			assertThat(fences.get(i)).as("fencing token of hand-over %s, without a request", i)
				.isEqualTo(fences.get(i - 1) + 1);
		}
		waitAtMost(Duration.ofSeconds(5)).until(() -> !isLocked(key));
		assertThat(client.heldCount()).isZero();
	}

	@Test
	void fencingTokensRiseAcrossHandOversWithoutARequestOtherClientsExpiryAndNewClients() throws Exception {
		assumeLocalHandOvers();
		String key = uniqueKey("local-fences");
		long room = room();
		DefaultLockClient first = newClient();
		List<Long> fences = new ArrayList<>(passAmongLocalCallers(first, key, 4, () -> {
		}));
		LockHold remote = newClient().acquire(key, WAIT, null);
		fences.add(remote.fencingToken());
		assertThat(remote.fencingToken() % room).as("a grant of the store after hand-overs without a request").isZero();
		remote.release();
		fences.addAll(passAmongLocalCallers(first, key, 4, () -> {
		}));
		// The key's state dropped, as expiry or eviction would, and the client restarted
		expire(key);
		first.close();
		fences.addAll(passAmongLocalCallers(newClient(), key, 4, () -> {
		}));
		assertRisingStrictly(fences);
		assertThat(fences).as("fencing tokens of hand-overs without a request").anyMatch((fence) -> fence % room != 0);
	}

	@Test
	void aHolderHandedTheLockWithoutARequestHearsThatItWasTaken() throws Exception {
		assumeLocalHandOvers();
		String key = uniqueKey("local-loss");
		long room = room();
		// A lease short enough for the watchdog to find the loss soon, long enough that
		// half of it is left at the hand-over on a loaded machine
		DefaultLockClient client = newClient(LockClientSettings.defaults().withWatchdogLease(Duration.ofSeconds(6)));
		LockHold first = client.acquire(key, WAIT, null);
		CompletableFuture<LockHold> second = client.acquireAsync(key, WAIT, null).toCompletableFuture();
		awaitQueued(client, key, 1);
		CompletableFuture<LockHold> third = client.acquireAsync(key, WAIT, null).toCompletableFuture();
		awaitQueued(client, key, 2);
		first.release();
		second.get(30, TimeUnit.SECONDS).release();
		LockHold inherited = third.get(30, TimeUnit.SECONDS);
		assertThat(inherited.fencingToken() % room).as("handed over without a request").isNotZero();
		CompletableFuture<?> lost = inherited.whenLost().toCompletableFuture();
		takeOver(key);
		lost.get(60, TimeUnit.SECONDS);
		assertThat(inherited.isValid()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(inherited::release);
		assertThat(isLocked(key)).as("the foreign owner keeps it").isTrue();
		expire(key);
	}

	@Test
	void aWaiterOfAnotherClientGetsInWhileHandOversWithoutARequestGoOn() throws Exception {
		assumeLocalHandOvers();
		String key = uniqueKey("local-bound");
		long room = room();
		DefaultLockClient busyClient = newClient();
		AtomicBoolean stop = new AtomicBoolean();
		AtomicInteger local = new AtomicInteger();
		List<Future<Object>> workers = new ArrayList<>();
		for (int t = 0; t < 3; t++) {
			workers.add(inNewThread(() -> {
				while (!stop.get()) {
					LockHandle lock = busyClient.obtain(key);
					assertThat(lock.tryLock(Duration.ofSeconds(60))).isTrue();
					if (lock.fencingToken() % room != 0) {
						local.incrementAndGet();
					}
					// the work done under the lock, not a wait
					Thread.sleep(1);
					lock.unlock();
				}
				return null;
			}));
		}
		try {
			waitAtMost(Duration.ofSeconds(60)).alias("hand-overs without a request").until(() -> local.get() > 0);
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
		waitAtMost(Duration.ofSeconds(5)).until(() -> !isLocked(key));
	}

	@Test
	void twoHundredCancelsAtRandomInstantsOfHandOversWithoutARequestLeaveNothingHeld() throws Exception {
		assumeLocalHandOvers();
		DefaultLockClient client = newClient();
		List<String> keys = new ArrayList<>();
		for (int i = 0; i < 200; i++) {
			String key = uniqueKey("local-cancel");
			keys.add(key);
			LockHold first = client.acquire(key, WAIT, null);
			CompletableFuture<LockHold> second = client.acquireAsync(key, WAIT, null).toCompletableFuture();
			awaitQueued(client, key, 1);
			// Through the store: the first hand-over after a grant of the store
			first.release();
			LockHold holder = second.get(30, TimeUnit.SECONDS);
			CompletableFuture<LockHold> third = client.acquireAsync(key, WAIT, null).toCompletableFuture();
			awaitQueued(client, key, 1);
			// The hand-over and the cancel race, either sent first
			boolean cancelFirst = i % 2 == 0;
			CompletableFuture<Void> released = cancelFirst ? new CompletableFuture<>()
					: holder.releaseAsync().toCompletableFuture();
			LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(TimeUnit.MICROSECONDS.toNanos(200) + 1));
			if (!third.cancel(false)) {
				third.join().release();
			}
			if (cancelFirst) {
				holder.release();
			}
			else {
				released.get(30, TimeUnit.SECONDS);
			}
		}
		waitAtMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(keys).noneMatch(this::isLocked);
			assertThat(client.heldCount()).isZero();
		});
		// And still none a second later: no grant arrives late for a caller that gave up
		waitAtMost(Duration.ofSeconds(3)).during(Duration.ofSeconds(1))
			.until(() -> keys.stream().noneMatch(this::isLocked) && client.heldCount() == 0);
	}

	private long room() {
		LockStore store = newStore();
		try {
			return extensionOf(store, LocalHandOverExtension.class).fenceRoom();
		}
		finally {
			store.close();
		}
	}

	/**
	 * Hold {@code key}, queue {@code waiters} more callers of {@code client} for it, run
	 * {@code beforeRelease}, release: the lock passes from caller to caller.
	 * @return the fencing token of every holder, in the order they held the lock
	 */
	private static List<Long> passAmongLocalCallers(DefaultLockClient client, String key, int waiters,
			Runnable beforeRelease) throws Exception {
		List<Long> fences = Collections.synchronizedList(new ArrayList<>());
		LockHold holder = client.acquire(key, WAIT, null);
		fences.add(holder.fencingToken());
		List<CompletableFuture<Void>> served = new ArrayList<>();
		for (int i = 0; i < waiters; i++) {
			served.add(client.acquireAsync(key, WAIT, null).thenCompose((hold) -> {
				fences.add(hold.fencingToken());
				return hold.releaseAsync();
			}).toCompletableFuture());
			awaitQueued(client, key, i + 1);
		}
		beforeRelease.run();
		holder.release();
		CompletableFuture.allOf(served.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
		return List.copyOf(fences);
	}

	private static void awaitQueued(DefaultLockClient client, String key, int callers) {
		waitAtMost(WAIT).alias(callers + " caller(s) wait for " + key).until(() -> client.waitingCount(key) == callers);
	}

	private static void assertRisingStrictly(List<Long> fences) {
		for (int i = 1; i < fences.size(); i++) {
			assertThat(fences.get(i)).as("fencing token %s after %s", i, i - 1).isGreaterThan(fences.get(i - 1));
		}
	}

}
