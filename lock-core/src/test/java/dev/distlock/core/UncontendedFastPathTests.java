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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.LockAcquisitionException;
import dev.distlock.memory.InMemoryLockStore;
import dev.distlock.store.ForwardingLockStore;
import dev.distlock.store.HandOverExtension.HandOff;
import dev.distlock.store.LockStore.Attempt;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the uncontended fast path ({@link UncontendedAttempt},
 * {@link LockClientSettings#uncontendedFastPath()}): the work it saves, counted (store
 * requests, and the future stages that hang on the store's replies), and that a key
 * contended inside the client, or refused, still goes through the acquisition machinery:
 * the local queue, the hand-over, the waiting; read locks take the fast path too. The
 * lock contract runs with the fast path on and off in {@code lock-store-test} and
 * {@code lock-redis}.
 *
 * @author distlock
 */
class UncontendedFastPathTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final CountingStore store = new CountingStore();

	private final DefaultLockClient client = new DefaultLockClient(this.store);

	private final DefaultLockClient other = new DefaultLockClient(this.store);

	@AfterEach
	void close() {
		this.store.open();
		this.client.close();
		this.other.close();
	}

	@Test
	void anUncontendedAcquireAndReleaseSendOneRequestEachAndHangFewerStagesOnTheRepliesWithTheFastPath()
			throws InterruptedException {
		int withFastPath = stagesOfAnUncontendedAcquireAndRelease(true);
		int withoutFastPath = stagesOfAnUncontendedAcquireAndRelease(false);
		assertThat(withFastPath)
			.as("stages per uncontended acquire+release: %d with the fast path, %d without", withFastPath,
					withoutFastPath)
			.isLessThan(withoutFastPath);
	}

	private int stagesOfAnUncontendedAcquireAndRelease(boolean fastPath) throws InterruptedException {
		try (DefaultLockClient counted = new DefaultLockClient(this.store,
				LockClientSettings.defaults().withUncontendedFastPath(fastPath))) {
			counted.acquire("warm-up", WAIT, null).release();
			this.store.reset();
			counted.acquire("uncontended", WAIT, null).release();
			assertThat(this.store.attempts).as("acquire requests").hasValue(1);
			assertThat(this.store.releases).as("release requests").hasValue(1);
			return this.store.stages.get();
		}
	}

	@Test
	void anUncontendedReadLockIsAskedForWithOneRequestAndHangsFewerStagesOnTheReplyWithTheFastPath()
			throws InterruptedException {
		int withFastPath = stagesOfAnUncontendedReadLock(true);
		int withoutFastPath = stagesOfAnUncontendedReadLock(false);
		assertThat(withFastPath)
			.as("stages on the reply of an uncontended read lock: %d with the fast path, %d without", withFastPath,
					withoutFastPath)
			.isLessThan(withoutFastPath);
	}

	private int stagesOfAnUncontendedReadLock(boolean fastPath) throws InterruptedException {
		try (DefaultLockClient counted = new DefaultLockClient(this.store,
				LockClientSettings.defaults().withUncontendedFastPath(fastPath))) {
			counted.readLocks().acquire("read-warm-up", WAIT, null).release();
			this.store.reset();
			LockHold read = counted.readLocks().acquire("read", WAIT, null);
			assertThat(read.fencingToken()).as("read grants carry no fencing token").isZero();
			int stages = this.store.stages.get();
			read.release();
			assertThat(this.store.readAttempts).as("read lock requests").hasValue(1);
			assertThat(this.store.subscriptions).as("subscriptions to releases").hasValue(0);
			assertThat(counted.acquiringCount()).isZero();
			assertThat(counted.heldCount()).isZero();
			return stages;
		}
	}

	@Test
	void aReadLockRefusedOnTheFastPathSubscribesAsksAgainAndIsGrantedWhenTheWriterReleases()
			throws InterruptedException {
		LockHold writer = this.other.acquire("written", WAIT, null);
		this.store.reset();
		CompletableFuture<LockHold> reader = this.client.readLocks()
			.acquireAsync("written", WAIT, null)
			.toCompletableFuture();
		await().until(() -> this.store.subscriptions.get() == 1 && this.store.readAttempts.get() >= 2);
		assertThat(reader).as("refused while the writer holds the key").isNotDone();
		writer.release();
		reader.join().release();
		assertThat(this.client.acquiringCount()).isZero();
		assertThat(this.client.heldCount()).isZero();
	}

	@Test
	void aCallerOfTheSameKeyArrivingWhileTheFastPathRequestIsInFlightQueuesLocallyAndIsHandedTheLockOver() {
		this.store.pause();
		CompletableFuture<LockHold> first = this.client.acquireAsync("key", WAIT, null).toCompletableFuture();
		await().until(() -> this.store.attempts.get() == 1);
		CompletableFuture<LockHold> second = this.client.acquireAsync("key", WAIT, null).toCompletableFuture();
		await().until(() -> this.client.waitingCount("key") == 1);
		assertThat(this.store.attempts).as("the second caller waits for the local turn, asking nothing").hasValue(1);
		this.store.open();
		LockHold firstHold = first.join();
		assertThat(second).isNotDone();
		firstHold.release();
		LockHold secondHold = second.join();
		assertThat(this.store.handOvers).as("the lock passed by a hand-over").hasValue(1);
		assertThat(this.store.attempts).as("no request of the second caller's own").hasValue(1);
		assertThat(secondHold.fencingToken()).isGreaterThan(firstHold.fencingToken());
		secondHold.release();
		assertThat(this.client.acquiringCount()).isZero();
	}

	@Test
	void aCancelRacingTheFastPathGrantReleasesItAndPassesTheTurnOn() throws InterruptedException {
		RecordingLockClientListener listener = new RecordingLockClientListener();
		try (DefaultLockClient listened = new DefaultLockClient(this.store, LockClientSettings.defaults(), listener)) {
			this.store.pause();
			CompletableFuture<LockHold> cancelled = listened.acquireAsync("key", WAIT, null).toCompletableFuture();
			await().until(() -> this.store.attempts.get() == 1);
			assertThat(listened.acquiringCount()).as("the request in flight counts as under way").isOne();
			cancelled.cancel(false);
			this.store.open();
			await().until(() -> this.store.releases.get() == 1);
			await().until(() -> listener.events().contains("unnamed key interrupted"));
			assertThat(listener.events()).containsExactly("unnamed key started", "unnamed key interrupted");
			assertThat(listened.heldCount()).isZero();
			assertThat(listened.acquiringCount()).isZero();
			this.other.acquire("key", Duration.ZERO, null).release();
			// The turn was passed on
			listened.acquire("key", Duration.ZERO, null).release();
		}
	}

	@Test
	void aRefusedFastPathRequestIsTheFirstAttemptOfTheMachineAndNotAskedTwice() {
		// Asked twice either way: the first attempt, then once more after subscribing
		int withFastPath = attemptsUntilWaitingForARelease(true);
		int withoutFastPath = attemptsUntilWaitingForARelease(false);
		assertThat(withFastPath).isEqualTo(withoutFastPath);
		assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> {
			LockHold held = this.other.acquire("busy", WAIT, null);
			try {
				this.store.reset();
				this.client.acquire("busy", Duration.ZERO, null);
			}
			finally {
				assertThat(this.store.attempts).as("requests of a caller that does not wait").hasValue(1);
				held.release();
			}
		});
	}

	@Test
	void aFastPathRequestWhoseReplyIsLostFailsTheCallerReleasesItsTokenAndPassesTheTurnOn()
			throws InterruptedException {
		RecordingLockClientListener listener = new RecordingLockClientListener();
		try (DefaultLockClient listened = new DefaultLockClient(this.store, LockClientSettings.defaults(), listener)) {
			this.store.loseNextReply();
			assertThatExceptionOfType(IllegalStateException.class)
				.isThrownBy(() -> listened.acquire("key", Duration.ZERO, null))
				.withMessageContaining("reply lost");
			assertThat(listener.events()).containsExactly("unnamed key started", "unnamed key error");
			await().until(() -> this.store.releases.get() == 1);
			this.other.acquire("key", Duration.ZERO, null).release();
			// The turn was passed on
			listened.acquire("key", Duration.ZERO, null).release();
			assertThat(listened.acquiringCount()).isZero();
		}
	}

	private int attemptsUntilWaitingForARelease(boolean fastPath) {
		try (DefaultLockClient waiter = new DefaultLockClient(this.store,
				LockClientSettings.defaults().withUncontendedFastPath(fastPath))) {
			LockHold held = this.other.acquire("held", WAIT, null);
			this.store.reset();
			CompletableFuture<LockHold> waiting = waiter.acquireAsync("held", WAIT, null).toCompletableFuture();
			await().until(() -> waiter.storeWaiterCount() == 1);
			int attempts = this.store.attempts.get();
			held.release();
			waiting.join().release();
			return attempts;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * An in-memory store that counts requests and the future stages created on its
	 * replies, and can hold its acquire replies back.
	 */
	static final class CountingStore extends ForwardingLockStore {

		final AtomicInteger attempts = new AtomicInteger();

		final AtomicInteger releases = new AtomicInteger();

		final AtomicInteger handOvers = new AtomicInteger();

		final AtomicInteger stages = new AtomicInteger();

		final AtomicInteger readAttempts = new AtomicInteger();

		final AtomicInteger subscriptions = new AtomicInteger();

		private volatile CompletableFuture<@Nullable Void> gate = CompletableFuture.completedFuture(null);

		private volatile boolean loseReply;

		CountingStore() {
			super(new InMemoryLockStore());
		}

		void reset() {
			this.attempts.set(0);
			this.releases.set(0);
			this.handOvers.set(0);
			this.stages.set(0);
			this.readAttempts.set(0);
			this.subscriptions.set(0);
		}

		/**
		 * Run the next acquire request, then fail it as if its reply were lost.
		 */
		void loseNextReply() {
			this.loseReply = true;
		}

		void pause() {
			this.gate = new CompletableFuture<>();
		}

		void open() {
			this.gate.complete(null);
		}

		@Override
		public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
			this.attempts.incrementAndGet();
			CompletionStage<Attempt> reply = this.gate.thenCompose((ignored) -> super.tryAcquire(key, token, lease));
			if (this.loseReply) {
				this.loseReply = false;
				reply = reply
					.thenCompose((ignored) -> CompletableFuture.failedFuture(new IllegalStateException("reply lost")));
			}
			return counted(reply);
		}

		@Override
		public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease, String waiter,
				Duration ttl) {
			this.attempts.incrementAndGet();
			return counted(this.gate.thenCompose((ignored) -> super.tryAcquire(key, token, lease, waiter, ttl)));
		}

		@Override
		public CompletionStage<Attempt> tryAcquireRead(String key, String token, Duration lease) {
			this.readAttempts.incrementAndGet();
			return counted(super.tryAcquireRead(key, token, lease));
		}

		@Override
		public Subscription onRelease(String key, Runnable listener) {
			this.subscriptions.incrementAndGet();
			return super.onRelease(key, listener);
		}

		@Override
		public CompletionStage<Boolean> release(String key, String token) {
			this.releases.incrementAndGet();
			return counted(super.release(key, token));
		}

		@Override
		public CompletionStage<@Nullable HandOff> handOver(String key, String token, String nextToken, Duration lease,
				String client) {
			this.handOvers.incrementAndGet();
			return super.handOver(key, token, nextToken, lease, client);
		}

		private <T> CompletionStage<T> counted(CompletionStage<T> reply) {
			StageCounting<T> counted = new StageCounting<>(this.stages);
			reply.whenComplete((value, failure) -> {
				if (failure != null) {
					counted.completeExceptionally(failure);
				}
				else {
					counted.complete(value);
				}
			});
			return counted;
		}

	}

	/**
	 * A future that counts every stage created on it, and on those stages in turn.
	 */
	static final class StageCounting<T> extends CompletableFuture<T> {

		private final AtomicInteger stages;

		StageCounting(AtomicInteger stages) {
			this.stages = stages;
		}

		@Override
		public <U> CompletableFuture<U> newIncompleteFuture() {
			this.stages.incrementAndGet();
			return new StageCounting<>(this.stages);
		}

	}

}
