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

import dev.distlock.store.LockStore;
import dev.distlock.store.FairQueueExtension;
import dev.distlock.store.ReadLockExtension;
import dev.distlock.store.ReadWriteTiming;
import dev.distlock.store.SeveralKeysExtension;
import dev.distlock.store.WakeOneExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.FairGrantWakeUpExtension.ClockedAttempt;
import dev.distlock.store.FairGrantWakeUpExtension.FairGrant;
import dev.distlock.store.LockStore.Subscription;
import dev.distlock.store.HeldLockOperations;
import dev.distlock.store.FairGrantWakeUpExtension;
import org.jspecify.annotations.Nullable;

/**
 * What makes one kind of lock differ in the one acquisition pipeline
 * ({@link Acquisition}): which store request an attempt sends, which release wakes a
 * waiter, what it does when it stops waiting, and whether callers of one client queue for
 * a local turn first. The write lock (also of one of several keys, whose goal takes the
 * local turns, {@link AnyKeyTurns}), the fair lock and the read lock ({@link Unqueued})
 * are the variants; which keys an acquisition must hold is its {@link AcquireGoal}.
 *
 * @author distlock
 * @since 0.1.0
 */
interface AcquireVariant {

	/**
	 * The longest a waiting caller goes without asking the store again
	 * ({@link ReadWriteTiming#MAX_RECHECK}, which the stores' writer-waiting mark
	 * outlives).
	 */
	long MAX_RECHECK_NANOS = ReadWriteTiming.MAX_RECHECK.toNanos();

	/**
	 * How long a client's registration as waiting for a release lasts unless a re-check
	 * refreshes it: several of the longest re-check intervals.
	 */
	Duration WAITER_TTL = Duration.ofSeconds(3);

	/**
	 * Return whether callers of one client queue for a local turn per key before asking
	 * the store (so one caller per key and client talks to the store), and may be handed
	 * the lock over by the holder before them.
	 * @return whether a local turn is taken
	 */
	boolean takesTurn();

	/**
	 * Return whether an acquisition of one key may send its first attempt before the
	 * acquisition machinery starts ({@link UncontendedAttempt}): the locks that take a
	 * local turn, when it is free, and those whose callers never queue locally. Fair
	 * locks do not: their first attempt joins the store's queue and is answered with the
	 * store's clock.
	 * @return whether the uncontended fast path applies
	 */
	default boolean hasFastPath() {
		return takesTurn();
	}

	/**
	 * Return whether several keys may be asked for in one atomic store request.
	 * @return whether {@link #requestAll} may be used
	 */
	boolean atomicAll();

	/**
	 * Return the store operations on this variant's grants once held.
	 * @return the ownership
	 */
	HeldLockOperations ownership();

	/**
	 * Ask for every key in one atomic store request; only when {@link #atomicAll()}.
	 * @param keys the lock keys, in order
	 * @param token the owner token of the grants asked for
	 * @param lease the lease
	 * @return the store's answer, {@code null} if it cannot take these keys in one step
	 */
	default CompletionStage<@Nullable List<Attempt>> requestAll(List<String> keys, String token, Duration lease) {
		return CompletableFuture.completedFuture(null);
	}

	/**
	 * Send one attempt.
	 * @param key the lock key
	 * @param token the owner token of the grant asked for
	 * @param lease the lease
	 * @param waiting whether the caller waits if refused (and so registers as waiting)
	 * @return the store's answer
	 */
	CompletionStage<Attempt> request(String key, String token, Duration lease, boolean waiting);

	/**
	 * Send one attempt, and tell the store's clock when the store tells it.
	 * @param key the lock key
	 * @param token the owner token of the grant asked for
	 * @param lease the lease
	 * @param waiting whether the caller waits if refused (and so registers as waiting)
	 * @return the store's answer, with its clock if known
	 */
	default CompletionStage<ClockedAttempt> requestClocked(String key, String token, Duration lease, boolean waiting) {
		return request(key, token, lease, waiting).thenApply(ClockedAttempt::unclocked);
	}

	/**
	 * Listen for the releases that may let this caller in.
	 * @param key the lock key
	 * @param token the owner token asked for
	 * @param wake what to run on such a release, with the grant it made to this caller
	 * when the wake-up carries one ({@link FairGrantWakeUpExtension#onFairGrant})
	 * @return the subscription
	 */
	Subscription subscribe(String key, String token, Consumer<@Nullable FairGrant> wake);

	/**
	 * Stop waiting in the store after having been refused while waiting.
	 * @param key the lock key
	 * @param token the owner token asked for
	 * @return the store's acknowledgement
	 */
	CompletionStage<Void> leave(String key, String token);

	/**
	 * Return the longest a waiting caller goes without asking again.
	 * @return the re-check bound in nanoseconds
	 */
	default long maxRecheckNanos() {
		return MAX_RECHECK_NANOS;
	}

	/**
	 * The default (write) lock: callers of one client queue for a local turn, the caller
	 * holding it registers the client as waiting so that a release wakes one waiting
	 * client (with a {@link WakeOneExtension}), and several keys may be taken in one step
	 * (with a {@link SeveralKeysExtension}).
	 *
	 * @param extensions the store and its extensions
	 * @param ownership the operations on write locks
	 * @param clientId the id the client registers as waiting under
	 */
	record Write(StoreExtensions extensions, HeldLockOperations ownership, String clientId) implements AcquireVariant {

		@Override
		public boolean takesTurn() {
			return true;
		}

		@Override
		public boolean atomicAll() {
			return this.extensions.severalKeys() != null;
		}

		@Override
		public CompletionStage<@Nullable List<Attempt>> requestAll(List<String> keys, String token, Duration lease) {
			SeveralKeysExtension severalKeys = this.extensions.severalKeys();
			return (severalKeys != null) ? severalKeys.tryAcquireAll(keys, token, lease)
					: CompletableFuture.completedFuture(null);
		}

		@Override
		public CompletionStage<Attempt> request(String key, String token, Duration lease, boolean waiting) {
			WakeOneExtension wakeOne = this.extensions.wakeOne();
			return (waiting && wakeOne != null) ? wakeOne.tryAcquire(key, token, lease, this.clientId, WAITER_TTL)
					: this.extensions.store().tryAcquire(key, token, lease);
		}

		@Override
		public Subscription subscribe(String key, String token, Consumer<@Nullable FairGrant> wake) {
			Runnable released = () -> wake.accept(null);
			WakeOneExtension wakeOne = this.extensions.wakeOne();
			return (wakeOne != null) ? wakeOne.onRelease(key, this.clientId, released)
					: this.extensions.store().onRelease(key, released);
		}

		@Override
		public CompletionStage<Void> leave(String key, String token) {
			WakeOneExtension wakeOne = this.extensions.wakeOne();
			return (wakeOne != null) ? wakeOne.leave(key, this.clientId) : CompletableFuture.completedFuture(null);
		}

	}

	/**
	 * The fair lock: every caller has its own place in the store's queue (no local turn),
	 * taken by its first attempt when it may wait; a release grants the lock to the next
	 * live waiter and wakes it alone, with the grant where the store's wake-ups carry it
	 * ({@link FairQueueExtension#onFairWakeUp}). A waiter re-checks at least every third
	 * of the grant timeout, which keeps its place alive.
	 *
	 * @param extensions the store and its extensions, with a fair queue
	 * @param ownership the operations on write locks
	 * @param grantTimeout how long a waiter stays alive in the queue and a grant to it
	 * waits to be claimed
	 */
	record Fair(StoreExtensions extensions, HeldLockOperations ownership,
			Duration grantTimeout) implements AcquireVariant {

		@Override
		public boolean takesTurn() {
			return false;
		}

		@Override
		public boolean atomicAll() {
			return false;
		}

		@Override
		public CompletionStage<Attempt> request(String key, String token, Duration lease, boolean waiting) {
			return fairQueue().tryAcquireFair(key, token, lease, waiting ? this.grantTimeout : null);
		}

		@Override
		public CompletionStage<ClockedAttempt> requestClocked(String key, String token, Duration lease,
				boolean waiting) {
			FairGrantWakeUpExtension fairGrants = this.extensions.fairGrants();
			return (fairGrants != null)
					? fairGrants.tryAcquireFairClocked(key, token, lease, waiting ? this.grantTimeout : null)
					: AcquireVariant.super.requestClocked(key, token, lease, waiting);
		}

		@Override
		public Subscription subscribe(String key, String token, Consumer<@Nullable FairGrant> wake) {
			FairGrantWakeUpExtension fairGrants = this.extensions.fairGrants();
			return (fairGrants != null) ? fairGrants.onFairGrant(key, token, wake)
					: fairQueue().onFairWakeUp(key, token, () -> wake.accept(null));
		}

		@Override
		public CompletionStage<Void> leave(String key, String token) {
			return fairQueue().leaveFairQueue(key, token);
		}

		@Override
		public long maxRecheckNanos() {
			return Math.min(MAX_RECHECK_NANOS, this.grantTimeout.toNanos() / 3);
		}

		private FairQueueExtension fairQueue() {
			return this.extensions.required(this.extensions.fairQueue(), FairQueueExtension.class,
					"take a lock fairly");
		}

	}

	/**
	 * A lock whose callers do not queue locally and do not register as waiting in the
	 * store: each caller asks the store with its own attempt, and a refused caller hears
	 * every release of the key. The variant is the shared read lock ({@link #read}).
	 *
	 * @param extensions the store and its extensions
	 * @param ownership the operations on the variant's grants
	 * @param attempt the store request of one attempt
	 */
	record Unqueued(StoreExtensions extensions, HeldLockOperations ownership,
			Attempter attempt) implements AcquireVariant {

		/**
		 * The shared read lock: readers do not queue locally, so readers of one client
		 * overlap as readers of different clients do.
		 * @param extensions the store and its extensions, with read locks
		 * @param ownership the operations on read locks
		 * @return the variant
		 */
		static Unqueued read(StoreExtensions extensions, HeldLockOperations ownership) {
			return new Unqueued(extensions, ownership,
					(key, token, lease) -> extensions
						.required(extensions.readLocks(), ReadLockExtension.class, "read-lock")
						.tryAcquireRead(key, token, lease));
		}

		@Override
		public boolean takesTurn() {
			return false;
		}

		/**
		 * A caller has no local turn to wait for: every acquisition of one key sends its
		 * first attempt at once.
		 */
		@Override
		public boolean hasFastPath() {
			return true;
		}

		@Override
		public boolean atomicAll() {
			return false;
		}

		@Override
		public CompletionStage<Attempt> request(String key, String token, Duration lease, boolean waiting) {
			return this.attempt.request(key, token, lease);
		}

		@Override
		public Subscription subscribe(String key, String token, Consumer<@Nullable FairGrant> wake) {
			return this.extensions.store().onRelease(key, () -> wake.accept(null));
		}

		@Override
		public CompletionStage<Void> leave(String key, String token) {
			return CompletableFuture.completedFuture(null);
		}

	}

	/**
	 * The store request of one attempt of an {@link Unqueued} variant.
	 */
	@FunctionalInterface
	interface Attempter {

		/**
		 * Ask for the lock on {@code key}.
		 * @param key the lock key
		 * @param token the owner token of the grant asked for
		 * @param lease the lease
		 * @return the store's answer
		 */
		CompletionStage<Attempt> request(String key, String token, Duration lease);

	}

}
