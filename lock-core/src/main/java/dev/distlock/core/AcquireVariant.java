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
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.distlock.core.LockStore.Attempt;
import dev.distlock.core.LockStore.Capability;
import dev.distlock.core.LockStore.FairGrant;
import dev.distlock.core.LockStore.Subscription;
import org.jspecify.annotations.Nullable;

/**
 * What makes one kind of lock differ in the one acquisition pipeline
 * ({@link Acquisition}): which store request an attempt sends, which release wakes a
 * waiter, what it does when it stops waiting, and whether callers of one client queue for
 * a local turn first. The write lock, the fair lock and the read lock are the three
 * variants.
 *
 * @author distlock
 * @since 0.1.0
 */
interface AcquireVariant {

	/**
	 * The longest a waiting caller goes without asking the store again.
	 */
	long MAX_RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

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
	 * Return whether several keys may be asked for in one atomic store request.
	 * @return whether {@link LockStore#tryAcquireAll} may be used
	 */
	boolean atomicAll();

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
	 * Listen for the releases that may let this caller in.
	 * @param key the lock key
	 * @param token the owner token asked for
	 * @param wake what to run on such a release, with the grant it made to this caller
	 * when the wake-up carries one ({@link LockStore#onFairGrant})
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
	 * client, and several keys may be taken in one step.
	 *
	 * @param store the store
	 * @param clientId the id the client registers as waiting under
	 */
	record Write(LockStore store, String clientId) implements AcquireVariant {

		@Override
		public boolean takesTurn() {
			return true;
		}

		@Override
		public boolean atomicAll() {
			return this.store.supports(Capability.ACQUIRE_ALL);
		}

		@Override
		public CompletionStage<Attempt> request(String key, String token, Duration lease, boolean waiting) {
			return (waiting && wakesOne()) ? this.store.tryAcquire(key, token, lease, this.clientId, WAITER_TTL)
					: this.store.tryAcquire(key, token, lease);
		}

		@Override
		public Subscription subscribe(String key, String token, Consumer<@Nullable FairGrant> wake) {
			Runnable released = () -> wake.accept(null);
			return wakesOne() ? this.store.onRelease(key, this.clientId, released)
					: this.store.onRelease(key, released);
		}

		@Override
		public CompletionStage<Void> leave(String key, String token) {
			return wakesOne() ? this.store.leave(key, this.clientId) : CompletableFuture.completedFuture(null);
		}

		private boolean wakesOne() {
			return this.store.supports(Capability.WAKE_ONE);
		}

	}

	/**
	 * The fair lock: every caller has its own place in the store's queue (no local turn),
	 * taken by its first attempt when it may wait; a release grants the lock to the next
	 * live waiter and wakes it alone, with the grant where the store passes it
	 * ({@link Capability#GRANT_IN_WAKE_UP}). A waiter re-checks at least every third of
	 * the grant timeout, which keeps its place alive.
	 *
	 * @param store the store
	 * @param grantTimeout how long a waiter stays alive in the queue and a grant to it
	 * waits to be claimed
	 */
	record Fair(LockStore store, Duration grantTimeout) implements AcquireVariant {

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
			return this.store.tryAcquireFair(key, token, lease, waiting ? this.grantTimeout : null);
		}

		@Override
		public Subscription subscribe(String key, String token, Consumer<@Nullable FairGrant> wake) {
			return this.store.onFairGrant(key, token, wake);
		}

		@Override
		public CompletionStage<Void> leave(String key, String token) {
			return this.store.leave(key, token);
		}

		@Override
		public long maxRecheckNanos() {
			return Math.min(MAX_RECHECK_NANOS, this.grantTimeout.toNanos() / 3);
		}

	}

	/**
	 * The shared read lock: readers do not queue locally, each asks the store, and a
	 * refused reader hears every release.
	 *
	 * @param store the store
	 */
	record Read(LockStore store) implements AcquireVariant {

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
			return this.store.tryAcquireRead(key, token, lease);
		}

		@Override
		public Subscription subscribe(String key, String token, Consumer<@Nullable FairGrant> wake) {
			return this.store.onRelease(key, () -> wake.accept(null));
		}

		@Override
		public CompletionStage<Void> leave(String key, String token) {
			return CompletableFuture.completedFuture(null);
		}

	}

}
