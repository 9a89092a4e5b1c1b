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
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

import dev.distlock.LockBackendException;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * What a lock backend must do for a {@link DefaultLockClient}: atomic, owner-checked
 * operations on one key at a time, with no threads, queues, reentrancy or renewal
 * scheduling of its own.
 * <p>
 * Every operation is non-blocking: it returns a {@link CompletionStage} that the backend
 * completes, and never blocks the calling thread for a wait. A store that has only a
 * blocking client runs each command on a small bounded executor of its own. Every
 * operation is owner-checked: a store never deletes or extends a lock whose stored owner
 * token differs from the one given. An operation that cannot reach the backend, or gets
 * no answer within the store's command timeout, completes exceptionally with
 * {@link LockBackendException}; the client then fails closed. A store is thread-safe.
 * <p>
 * The required operations are {@link #tryAcquire(String, String, Duration)},
 * {@link #release}, {@link #expireAfter}, {@link #renew}, {@link #isOwner} and
 * {@link #onRelease(String, Runnable)}. Everything else is optional and declared by
 * {@link #capabilities()}: the client asks a store only for what it declares, and refuses
 * the rest before any request (a read lock on a store without
 * {@link Capability#READ_LOCKS}, say). The defaults of the optional methods keep the
 * behaviour of a store without them.
 * <p>
 * The Redis implementation is {@code dev.distlock.redis.RedisLockStore}; the single-JVM
 * {@code InMemoryLockStore} serves tests and examples. A new backend passes the public
 * contract kit ({@code dev.distlock.test.contract.LockStoreContractTests} in
 * {@code lock-spring-boot-test}).
 *
 * @author distlock
 * @since 0.1.0
 */
public interface LockStore extends AutoCloseable {

	/**
	 * Return the optional operations this store offers. The client asks for no other; the
	 * default declares none.
	 * @return the capabilities, never {@code null}
	 */
	default Set<Capability> capabilities() {
		return EnumSet.noneOf(Capability.class);
	}

	/**
	 * Return whether this store offers {@code capability}.
	 * @param capability the optional operation
	 * @return whether {@link #capabilities()} contains it
	 */
	default boolean supports(Capability capability) {
		return capabilities().contains(capability);
	}

	/**
	 * Take the lock on {@code key} for {@code lease} if nobody holds it, and grant a
	 * fencing token strictly greater than every earlier grant of that key.
	 * @param key the lock key as the application named it
	 * @param token the owner token to store, unique per acquisition
	 * @param lease how long the lock lives unless renewed or released
	 * @return the grant, or how long the current holder's lease has left; failed with
	 * {@link LockBackendException} if the backend failed (the lock may or may not have
	 * been taken, so the caller releases {@code token} once the backend answers again)
	 */
	CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease);

	/**
	 * Take a shared read lock on {@code key} for {@code lease}: granted unless a writer
	 * holds the key or a writer is waiting for the current readers to leave. Each reader
	 * has its own lease; a reader whose lease ended no longer keeps writers out, even
	 * while other readers renew theirs. Read grants carry no fencing token.
	 * @param key the lock key as the application named it
	 * @param token the reader's owner token, unique per acquisition
	 * @param lease how long the read lock lives unless renewed or released
	 * @return the grant (fencing token {@code 0}), or how long the writer's lease (or the
	 * waiting writer's mark) has left; failed with {@link LockBackendException} if the
	 * backend failed (the lock may or may not have been taken, so the caller releases
	 * {@code token} once the backend answers again)
	 * @throws UnsupportedOperationException if the store has no read locks
	 * @since 0.1.0
	 */
	default CompletionStage<Attempt> tryAcquireRead(String key, String token, Duration lease) {
		throw new UnsupportedOperationException(getClass().getName() + " has no read locks");
	}

	/**
	 * Take the lock as {@link #tryAcquire(String, String, Duration)} does, for a client
	 * that waits for a release when refused: a refusal registers {@code waiter} (for
	 * {@code waiterTtl}, refreshed by every refused attempt) so that a release can wake
	 * that client alone; a grant removes the registration. A release wakes at most one
	 * registered client (whose registration it removes), and the others keep re-checking
	 * on their timer. The default ignores the waiter.
	 * @param key the lock key
	 * @param token the owner token to store, unique per acquisition
	 * @param lease how long the lock lives unless renewed or released
	 * @param waiter the waiting client's id, which its
	 * {@link #onRelease(String, String, Runnable) listener} names
	 * @param waiterTtl how long the registration lasts unless refreshed
	 * @return the grant, or how long the current holder's lease has left; failed with
	 * {@link LockBackendException} if the backend failed
	 * @since 0.1.0
	 */
	default CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease, String waiter,
			Duration waiterTtl) {
		return tryAcquire(key, token, lease);
	}

	/**
	 * Take the lock in arrival order. If a release granted the lock to {@code token} (it
	 * waits in the queue), claim it: extend it to {@code lease} and return the grant's
	 * fencing token. Else take it if it is free and the queue is empty or headed by
	 * {@code token}; if it is free and another live waiter heads the queue, grant it to
	 * that waiter for its grant timeout and wake it. When not acquired and
	 * {@code grantTimeout} is given, join the queue's tail (first time only) and count as
	 * alive for {@code grantTimeout} more: a waiter that does not attempt again within
	 * its grant timeout is skipped, and a grant to it that it does not claim within the
	 * grant timeout expires.
	 * @param key the lock key
	 * @param token the owner token, unique per acquisition, which is also the waiter's
	 * place in the queue and the name its {@link #onRelease(String, String, Runnable)
	 * listener} hears
	 * @param lease how long the lock lives unless renewed or released
	 * @param grantTimeout how long the waiter stays alive in the queue and a grant to it
	 * waits to be claimed, or {@code null} to not join the queue
	 * @return the grant, or how long the current holder's (or granted waiter's) lease has
	 * left, with the store's clock when the store declares
	 * {@link Capability#GRANT_IN_WAKE_UP}; failed with {@link LockBackendException} if
	 * the backend failed
	 * @throws UnsupportedOperationException if the store has no fair locks (the default)
	 * @since 0.1.0
	 */
	default CompletionStage<Attempt> tryAcquireFair(String key, String token, Duration lease,
			@Nullable Duration grantTimeout) {
		throw new UnsupportedOperationException(getClass().getName() + " has no fair locks");
	}

	/**
	 * Give the lock {@code token} holds to {@code nextToken} in one owner-checked step,
	 * with a new fencing token strictly greater than every earlier grant and a lease of
	 * {@code lease}, without making it free in between and without waking anyone: the
	 * lock cohorting of a client that passes a lock to its own next waiting caller. The
	 * default returns {@code null}.
	 * @param key the lock key
	 * @param token the owner token of the holder
	 * @param nextToken the owner token of the next holder, unique per acquisition
	 * @param lease the next holder's lease
	 * @return the grant to {@code nextToken}; a refusal when {@code token} no longer owns
	 * the lock (which is then left alone); or {@code null} when the store does not hand
	 * over (it cannot, or fair waiters are queued for the key), and the holder releases
	 * instead; failed with {@link LockBackendException} if the backend failed (the lock
	 * may be held by either token)
	 * @since 0.1.0
	 */
	default CompletionStage<@Nullable Attempt> handOver(String key, String token, String nextToken, Duration lease) {
		return CompletableFuture.<@Nullable Attempt>completedFuture(null);
	}

	/**
	 * Stop waiting: drop the registration of {@code waiter} and its place in the fair
	 * queue; if a release granted it the lock meanwhile, release that grant and hand the
	 * lock on. The default does nothing.
	 * @param key the lock key
	 * @param waiter the waiting client's id or the fair waiter's token
	 * @return a stage completed when the waiter has left; it fails with
	 * {@link LockBackendException} if the backend failed
	 * @since 0.1.0
	 */
	default CompletionStage<Void> leave(String key, String waiter) {
		return CompletableFuture.completedFuture(null);
	}

	/**
	 * Release the lock if {@code token} still owns it, and notify the
	 * {@link #onRelease(String, Runnable) release listeners} of every client, or, in a
	 * store with hand-off, grant the lock to the first live fair waiter and wake it
	 * alone, else wake one registered waiting client (all listeners without a waiter hear
	 * every release).
	 * @param key the lock key
	 * @param token the owner token
	 * @return whether the lock was owned by {@code token} and is now free; failed with
	 * {@link LockBackendException} if the backend failed
	 */
	CompletionStage<Boolean> release(String key, String token);

	/**
	 * Take every lock in {@code keys} in one atomic step, all or nothing, if this store
	 * can (for Redis: when the keys share a Cluster hash slot, which every key does on a
	 * standalone or Sentinel-managed server). The client takes the keys one by one, in
	 * their order, when this returns {@code null}.
	 * @param keys the lock keys, distinct, in the order the client locks them
	 * @param token the owner token to store under every key
	 * @param lease how long the locks live unless renewed or released
	 * @return one attempt per key, in order: all granted, or none (those held by someone
	 * else saying how long their holder's lease has left); or {@code null} if the store
	 * cannot take these keys in one step; failed with {@link LockBackendException} if the
	 * backend failed (the locks may or may not have been taken)
	 */
	default CompletionStage<@Nullable List<Attempt>> tryAcquireAll(List<String> keys, String token, Duration lease) {
		return CompletableFuture.completedFuture(null);
	}

	/**
	 * Keep the lock for at most {@code remaining} more if {@code token} still owns it,
	 * then let it expire: an owner-checked shortening of the lease instead of a release,
	 * for a holder that must keep others out for a minimum time. Waiters are not
	 * notified; they re-check when the lease ends.
	 * @param key the lock key
	 * @param token the owner token
	 * @param remaining how much longer the lock lives, more than zero
	 * @return whether the lock was owned by {@code token}; failed with
	 * {@link LockBackendException} if the backend failed
	 */
	CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining);

	/**
	 * Extend the lease of every lock that still holds its token. A part of the batch the
	 * backend could not renew while other parts were renewed is reported as
	 * {@link RenewalOutcome#FAILED}.
	 * @param renewals the locks to renew with their owner tokens
	 * @param lease the new lease, counted from now
	 * @return one outcome per renewal, in the same order; failed with
	 * {@link LockBackendException} if the backend could not renew any part of the batch
	 * (the client then treats every renewal as failed and reports the cause)
	 */
	CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease);

	/**
	 * Return the renewal group of a lock: the watchdog never puts locks of different
	 * groups in one {@link #renew} call, and renews each group on its own, so that a
	 * group whose backend node stalls delays no other group's renewals. Returns one group
	 * for every key by default (a single backend); a Redis Cluster store answers the
	 * master that serves the key. Asked for every watched lock at every renewal round, so
	 * it must be cheap and must not block.
	 * @param key the lock key
	 * @return the group, compared with {@link Object#equals}
	 */
	default Object renewalGroup(String key) {
		return "";
	}

	/**
	 * Return whether {@code token} still owns the lock, asking the authoritative copy
	 * (for Redis: the master, never a replica).
	 * @param key the lock key
	 * @param token the owner token
	 * @return whether the backend records {@code token} as the owner; failed with
	 * {@link LockBackendException} if the backend failed
	 */
	CompletionStage<Boolean> isOwner(String key, String token);

	/**
	 * Call {@code listener} whenever the lock on {@code key} may have become free: after
	 * a release by any client, and after a lost notification channel was restored
	 * (releases may have been missed meanwhile). Subscribing does no blocking I/O on the
	 * calling thread; until the backend confirms the subscription, releases may go
	 * unnoticed, so the client also re-checks on a timer. The listener must not block.
	 * @param key the lock key
	 * @param listener what to run on a release
	 * @return the subscription; close it when no longer waiting
	 */
	Subscription onRelease(String key, Runnable listener);

	/**
	 * Call {@code listener} when a release may have made the lock on {@code key}
	 * available to {@code waiter}: a release that names it (a wake-up of a registered
	 * client or a grant to a fair waiter) or that wakes everyone (a forced release, a
	 * release with nobody registered), and after a lost notification channel was
	 * restored. The default listens for every release.
	 * @param key the lock key
	 * @param waiter the waiting client's id or the fair waiter's token
	 * @param listener what to run
	 * @return the subscription; close it when no longer waiting
	 * @since 0.1.0
	 */
	default Subscription onRelease(String key, String waiter, Runnable listener) {
		return onRelease(key, listener);
	}

	/**
	 * Call {@code listener} when a release may have made the lock on {@code key}
	 * available to the fair waiter {@code token}, as
	 * {@link #onRelease(String, String, Runnable)} does, passing the grant when the
	 * wake-up carries it: a release that granted the lock to {@code token} tells its
	 * fencing token and when, on the store's clock, it was made, so that the waiter holds
	 * the lock without asking the store again. A wake-up without a grant (a broadcast, a
	 * restored channel) passes {@code null}; so does every wake-up of the default, which
	 * listens as {@link #onRelease(String, String, Runnable)} does. A store that passes
	 * grants declares {@link Capability#GRANT_IN_WAKE_UP}.
	 * @param key the lock key
	 * @param token the fair waiter's token
	 * @param listener what to run, with the grant if the wake-up carries one
	 * @return the subscription; close it when no longer waiting
	 * @since 0.1.0
	 */
	default Subscription onFairGrant(String key, String token, Consumer<@Nullable FairGrant> listener) {
		return onRelease(key, token, () -> listener.accept(null));
	}

	/**
	 * Return the state of the lock on {@code key}, read from the authoritative copy, for
	 * operators (the actuator endpoint). Optional: stores that cannot tell throw
	 * {@link UnsupportedOperationException}.
	 * @param key the lock key
	 * @return the key's state; failed with {@link LockBackendException} if the backend
	 * failed
	 * @throws UnsupportedOperationException if the store cannot inspect keys
	 * @since 0.1.0
	 */
	default CompletionStage<KeyState> inspect(String key) {
		throw new UnsupportedOperationException(getClass().getName() + " cannot inspect lock keys");
	}

	/**
	 * Delete the lock on {@code key} whoever holds it, and notify the
	 * {@link #onRelease(String, Runnable) release listeners}. For operators clearing a
	 * stuck lock: the holder loses the lock while it may still be working. Optional:
	 * stores that cannot do it throw {@link UnsupportedOperationException}.
	 * @param key the lock key
	 * @return the owner token of the deleted lock, or {@code null} if the key was free;
	 * failed with {@link LockBackendException} if the backend failed
	 * @throws UnsupportedOperationException if the store cannot force a release
	 * @since 0.1.0
	 */
	default CompletionStage<@Nullable String> forceRelease(String key) {
		throw new UnsupportedOperationException(getClass().getName() + " cannot force a release");
	}

	/**
	 * Stop notifying and free the store's own resources (not the application's
	 * connections). Idempotent; locks still held are left to expire.
	 */
	@Override
	default void close() {
	}

	/**
	 * An optional operation of a store, declared by {@link LockStore#capabilities()}.
	 */
	enum Capability {

		/**
		 * Shared read locks: {@link LockStore#tryAcquireRead}.
		 */
		READ_LOCKS,

		/**
		 * Fair locks in arrival order: {@link LockStore#tryAcquireFair} with
		 * {@link LockStore#leave}.
		 */
		FAIR_LOCKS,

		/**
		 * A release wakes one registered waiting client:
		 * {@link LockStore#tryAcquire(String, String, Duration, String, Duration)},
		 * {@link LockStore#onRelease(String, String, Runnable)} and
		 * {@link LockStore#leave}.
		 */
		WAKE_ONE,

		/**
		 * A fair waiter's wake-up carries its grant: {@link LockStore#onFairGrant} passes
		 * the grants of releases, and refusals of waiting fair attempts carry
		 * {@link Attempt#storeClockMillis() the store's clock}. Needs
		 * {@link #FAIR_LOCKS}.
		 */
		GRANT_IN_WAKE_UP,

		/**
		 * Lock cohorting: {@link LockStore#handOver}.
		 */
		HAND_OVER,

		/**
		 * Several keys in one atomic step: {@link LockStore#tryAcquireAll}.
		 */
		ACQUIRE_ALL,

		/**
		 * Operators may read a key's state: {@link LockStore#inspect}.
		 */
		INSPECT,

		/**
		 * Operators may delete a key whoever holds it: {@link LockStore#forceRelease}.
		 */
		FORCE_RELEASE

	}

	/**
	 * The outcome of one {@link LockStore#tryAcquire} call.
	 *
	 * @param acquired whether the lock was taken
	 * @param fencingToken the fencing token of the grant, {@code 0} when not acquired
	 * @param holderLeaseRemaining how long the current holder's lease has left when not
	 * acquired, or {@code null} if unknown (for example a key without expiry)
	 * @param storeClockMillis when the store decided, on its own clock in milliseconds,
	 * for a refused fair attempt of a store with {@link Capability#GRANT_IN_WAKE_UP};
	 * else {@link #UNKNOWN_CLOCK}
	 */
	record Attempt(boolean acquired, long fencingToken, @Nullable Duration holderLeaseRemaining,
			long storeClockMillis) {

		/**
		 * The {@link #storeClockMillis()} of an attempt that does not tell the store's
		 * clock.
		 */
		public static final long UNKNOWN_CLOCK = Long.MIN_VALUE;

		/**
		 * Create an attempt that does not tell the store's clock.
		 * @param acquired whether the lock was taken
		 * @param fencingToken the fencing token of the grant, {@code 0} when not acquired
		 * @param holderLeaseRemaining how long the current holder's lease has left when
		 * not acquired, or {@code null} if unknown
		 */
		public Attempt(boolean acquired, long fencingToken, @Nullable Duration holderLeaseRemaining) {
			this(acquired, fencingToken, holderLeaseRemaining, UNKNOWN_CLOCK);
		}

		/**
		 * Return a grant.
		 * @param fencingToken the fencing token
		 * @return the attempt
		 */
		public static Attempt granted(long fencingToken) {
			return new Attempt(true, fencingToken, null);
		}

		/**
		 * Return a refusal because another owner holds the lock.
		 * @param holderLeaseRemaining the holder's remaining lease, if known
		 * @return the attempt
		 */
		public static Attempt busy(@Nullable Duration holderLeaseRemaining) {
			return new Attempt(false, 0, holderLeaseRemaining);
		}

		/**
		 * Return a refusal of a fair attempt that tells when the store decided.
		 * @param holderLeaseRemaining the holder's remaining lease, if known
		 * @param storeClockMillis the store's clock when it decided, in milliseconds
		 * @return the attempt
		 */
		public static Attempt busy(@Nullable Duration holderLeaseRemaining, long storeClockMillis) {
			return new Attempt(false, 0, holderLeaseRemaining, storeClockMillis);
		}

		/**
		 * Return whether this attempt tells the store's clock.
		 * @return whether {@link #storeClockMillis()} is known
		 */
		public boolean knowsStoreClock() {
			return this.storeClockMillis != UNKNOWN_CLOCK;
		}

	}

	/**
	 * A grant that a release made to a fair waiter, as its wake-up carries it
	 * ({@link LockStore#onFairGrant}). The lock lives in the store for {@code lifetime}
	 * (the waiter's grant timeout) from {@code grantedAtMillis} or later; the waiter
	 * extends it to its lease.
	 *
	 * @param fencingToken the fencing token of the grant
	 * @param grantedAtMillis when the grant was made, or earlier, on the store's clock in
	 * milliseconds (the clock of {@link Attempt#storeClockMillis()})
	 * @param lifetime how long the grant lives in the store unless extended
	 * @since 0.1.0
	 */
	record FairGrant(long fencingToken, long grantedAtMillis, Duration lifetime) {

	}

	/**
	 * The state of one lock key in a store.
	 *
	 * @param ownerToken the owner token of the holder, or {@code null} if the key is free
	 * @param ttl the remaining time to live of the lock, or {@code null} when free or
	 * without expiry
	 * @param lastFencingToken the last fencing token granted for the key, {@code 0} if
	 * unknown
	 * @since 0.1.0
	 */
	record KeyState(@Nullable String ownerToken, @Nullable Duration ttl, long lastFencingToken) {

		/**
		 * Return whether someone holds the key.
		 * @return whether the key is held
		 */
		public boolean held() {
			return this.ownerToken != null;
		}

	}

	/**
	 * A lock to renew and the token that must still own it.
	 *
	 * @param key the lock key
	 * @param token the owner token
	 */
	record Renewal(String key, String token) {

		/**
		 * Validate the renewal.
		 * @param key the lock key
		 * @param token the owner token
		 */
		public Renewal {
			Assert.notNull(key, "'key' must not be null");
			Assert.notNull(token, "'token' must not be null");
		}

	}

	/**
	 * What became of one {@link Renewal}.
	 */
	enum RenewalOutcome {

		/**
		 * The lease was extended.
		 */
		RENEWED,

		/**
		 * The lock has expired or has another owner; it was not re-created.
		 */
		LOST,

		/**
		 * The backend could not be asked; the lease runs on and is retried next round.
		 */
		FAILED

	}

	/**
	 * A registration of a release listener.
	 */
	@FunctionalInterface
	interface Subscription extends AutoCloseable {

		/**
		 * Stop calling the listener. Does no blocking I/O.
		 */
		@Override
		void close();

	}

}
