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

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.memory.InMemoryLockStore;
import dev.distlock.store.ForwardingLockStore;
import dev.distlock.store.LocalHandOverExtension;
import dev.distlock.store.LockStoreExtension;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The policy of hand-overs without a request ({@link LocalHandOver}) on the in-memory
 * store, counted: every eighth hand-over goes through the store, a caller with a fixed
 * lease sets its lease on the grant it inherits, a holder with a fixed lease and a store
 * without {@link LocalHandOverExtension} hand over through the store, and a close while
 * the lock passes leaves nothing held.
 *
 * @author distlock
 */
class LocalHandOverTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final long ROOM = LocalHandOverExtension.DEFAULT_FENCE_ROOM;

	private final CountingStore store = new CountingStore(true);

	private final List<DefaultLockClient> clients = new ArrayList<>();

	@AfterEach
	void close() {
		this.clients.forEach(DefaultLockClient::close);
	}

	@Test
	void sevenHandOversWithoutARequestFollowEachOneThroughTheStore() throws Exception {
		DefaultLockClient client = client(this.store);
		List<Long> fences = passAmongCallers(client, "run", 20, null);
		// 21 holders: the hand-overs to the 2nd, 10th and 18th go through the store
		assertThat(this.store.handOvers).as("hand-overs through the store").hasValue(3);
		assertThat(this.store.attempts).as("attempts after the first").hasValue(1);
		assertThat(this.store.releases).as("releases").hasValue(1);
		assertThat(this.store.expiries).as("leases set").hasValue(0);
		for (int i = 1; i < fences.size(); i++) {
			if (i % (LocalHandOver.RUN + 1) == 1) {
				assertThat(fences.get(i) % ROOM).as("fencing token %s, through the store", i).isZero();
			}
			else {
				assertThat(fences.get(i)).as("fencing token %s, without a request", i).isEqualTo(fences.get(i - 1) + 1);
			}
		}
		assertThat(this.store.isHeld("run")).isFalse();
		assertThat(client.heldCount()).isZero();
	}

	@Test
	void aCallerWithAFixedLeaseSetsItsLeaseOnTheGrantItInherits() throws Exception {
		DefaultLockClient client = client(this.store);
		LockHold first = client.acquire("fixed-next", WAIT, null);
		CompletableFuture<LockHold> second = client.acquireAsync("fixed-next", WAIT, null).toCompletableFuture();
		await().atMost(WAIT).until(() -> client.waitingCount("fixed-next") == 1);
		CompletableFuture<LockHold> third = client.acquireAsync("fixed-next", WAIT, Duration.ofSeconds(20))
			.toCompletableFuture();
		await().atMost(WAIT).until(() -> client.waitingCount("fixed-next") == 2);
		first.release();
		LockHold secondHold = second.get(30, TimeUnit.SECONDS);
		secondHold.release();
		LockHold thirdHold = third.get(30, TimeUnit.SECONDS);
		assertThat(thirdHold.fencingToken()).as("handed over without a request")
			.isEqualTo(secondHold.fencingToken() + 1);
		assertThat(this.store.expiries).as("the fixed lease set on the inherited grant").hasValue(1);
		assertThat(thirdHold.isValid()).isTrue();
		assertThat(client.heldLocks().get(0).leaseRemaining()).isGreaterThan(Duration.ofSeconds(10));
		thirdHold.release();
		assertThat(this.store.isHeld("fixed-next")).isFalse();
	}

	@Test
	void aHolderWithAFixedLeaseHandsOverThroughTheStore() throws Exception {
		DefaultLockClient client = client(this.store);
		List<Long> fences = passAmongCallers(client, "fixed-holder", 3, Duration.ofSeconds(20));
		assertThat(this.store.handOvers).as("hand-overs through the store").hasValue(3);
		assertThat(fences).allMatch((fence) -> fence % ROOM == 0);
	}

	@Test
	void aStoreWithoutRoomHandsEveryLockOverItself() throws Exception {
		CountingStore unspaced = new CountingStore(false);
		DefaultLockClient client = client(unspaced);
		List<Long> fences = passAmongCallers(client, "no-room", 5, null);
		// The in-memory store tells that another client may wait: after three hand-overs
		// the holder releases, and the next caller takes the key from the store
		assertThat(unspaced.handOvers.get() + unspaced.attempts.get() - 1)
			.as("requests that passed the lock on: hand-overs, and attempts after the first")
			.isEqualTo(5);
		assertThat(fences).allMatch((fence) -> fence % ROOM == 0);
	}

	@Test
	void closingTheClientWhileTheLockPassesWithoutARequestLeavesNothingHeld() throws Exception {
		for (int i = 0; i < 50; i++) {
			CountingStore counted = new CountingStore(true);
			DefaultLockClient client = client(counted);
			LockHold first = client.acquire("closing", WAIT, null);
			CompletableFuture<LockHold> second = client.acquireAsync("closing", WAIT, null).toCompletableFuture();
			await().atMost(WAIT).until(() -> client.waitingCount("closing") == 1);
			CompletableFuture<LockHold> third = client.acquireAsync("closing", WAIT, null).toCompletableFuture();
			await().atMost(WAIT).until(() -> client.waitingCount("closing") == 2);
			first.release();
			// Handed over without a request while the client closes, in either order
			CompletableFuture<Void> released = second.get(30, TimeUnit.SECONDS).releaseAsync().toCompletableFuture();
			client.close();
			released.handle((ignored, failure) -> null).get(30, TimeUnit.SECONDS);
			third.handle((ignored, failure) -> null).get(30, TimeUnit.SECONDS);
			await().atMost(Duration.ofSeconds(10)).until(() -> !counted.isHeld("closing"));
			assertThat(client.heldCount()).isZero();
		}
	}

	private DefaultLockClient client(CountingStore counted) {
		DefaultLockClient client = new DefaultLockClient(counted);
		this.clients.add(client);
		return client;
	}

	/**
	 * Hold {@code key}, queue {@code waiters} more callers (each with {@code leaseTime}),
	 * release: the lock passes from caller to caller.
	 * @return the fencing token of every holder, in the order they held the lock
	 */
	private static List<Long> passAmongCallers(DefaultLockClient client, String key, int waiters,
			@Nullable Duration leaseTime) throws Exception {
		List<Long> fences = Collections.synchronizedList(new ArrayList<>());
		LockHold holder = client.acquire(key, WAIT, leaseTime);
		fences.add(holder.fencingToken());
		List<CompletableFuture<Void>> served = new ArrayList<>();
		for (int i = 0; i < waiters; i++) {
			served.add(client.acquireAsync(key, WAIT, leaseTime).thenCompose((hold) -> {
				fences.add(hold.fencingToken());
				return hold.releaseAsync();
			}).toCompletableFuture());
			int queued = i + 1;
			await().atMost(WAIT).until(() -> client.waitingCount(key) == queued);
		}
		holder.release();
		CompletableFuture.allOf(served.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
		return List.copyOf(fences);
	}

	/**
	 * The in-memory store, counting the engine's requests; with or without
	 * {@link LocalHandOverExtension}.
	 */
	static final class CountingStore extends ForwardingLockStore {

		final AtomicInteger attempts = new AtomicInteger();

		final AtomicInteger handOvers = new AtomicInteger();

		final AtomicInteger releases = new AtomicInteger();

		final AtomicInteger expiries = new AtomicInteger();

		private final InMemoryLockStore backend;

		private final boolean spaced;

		CountingStore(boolean spaced) {
			this(new InMemoryLockStore(), spaced);
		}

		private CountingStore(InMemoryLockStore backend, boolean spaced) {
			super(backend);
			this.backend = backend;
			this.spaced = spaced;
		}

		boolean isHeld(String key) {
			return this.backend.inspect(key).toCompletableFuture().join().held();
		}

		@Override
		public <E extends LockStoreExtension> @Nullable E extension(Class<E> type) {
			return (type == LocalHandOverExtension.class && !this.spaced) ? null : super.extension(type);
		}

		@Override
		public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
			this.attempts.incrementAndGet();
			return super.tryAcquire(key, token, lease);
		}

		@Override
		public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease, String waiter,
				Duration ttl) {
			this.attempts.incrementAndGet();
			return super.tryAcquire(key, token, lease, waiter, ttl);
		}

		@Override
		public CompletionStage<Boolean> release(String key, String token) {
			this.releases.incrementAndGet();
			return super.release(key, token);
		}

		@Override
		public CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
			this.expiries.incrementAndGet();
			return super.expireAfter(key, token, remaining);
		}

		@Override
		@SuppressWarnings("NullAway")
		public CompletionStage<@Nullable HandOff> handOver(String key, String token, String nextToken, Duration lease,
				String client) {
			this.handOvers.incrementAndGet();
			return super.handOver(key, token, nextToken, lease, client);
		}

	}

}
