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

package dev.distlock.store;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

import dev.distlock.LockBackendException;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * What a lock backend must do for a {@link dev.distlock.core.DefaultLockClient}: atomic,
 * owner-checked operations on one key at a time, with no threads, queues, reentrancy or
 * renewal scheduling of its own.
 * <p>
 * The required operations are six: take a lock ({@link #tryAcquire}), release it
 * ({@link #release}), shorten its lease ({@link #expireAfter}, for a holder that must
 * keep others out for a minimum time), renew a batch of leases ({@link #renew}), check an
 * owner ({@link #isOwner}), and tell when a key may have become free
 * ({@link #onRelease}). Every optional behaviour is a {@link LockStoreExtension} that a
 * store implements or not (read locks, a fair queue and its wake-ups that carry grants,
 * waking one waiter, hand-over, hand-over without a request, several keys at once,
 * inspection and force release, session leases); the client looks them up once with
 * {@link #extension(Class)} and never asks a store for what it does not implement.
 * <p>
 * Five extensions oblige the required operations to do more than this interface says, and
 * the contract kit checks each duty ({@code ExtensionDutyChecks}); the others add methods
 * of their own and change no required operation:
 * <table>
 * <caption>What each extension obliges the required operations to do</caption>
 * <tr>
 * <th>Extension</th>
 * <th>Duty on the required operations</th>
 * </tr>
 * <tr>
 * <td>{@link ReadLockExtension}</td>
 * <td>{@link #tryAcquire} refuses a key that live readers hold; a writer it refused again
 * leaves a mark that refuses new readers. {@link #onRelease} listeners hear the last
 * reader leave.</td>
 * </tr>
 * <tr>
 * <td>{@link FairQueueExtension}</td>
 * <td>{@link #release} of a key whose queue has a live head grants the lock to that head,
 * whose next fair attempt claims it; no other {@link #tryAcquire} gets it meanwhile.</td>
 * </tr>
 * <tr>
 * <td>{@link FairGrantWakeUpExtension}</td>
 * <td>That {@link #release} also passes the grant to the head's wake-up listener.</td>
 * </tr>
 * <tr>
 * <td>{@link WakeOneExtension}</td>
 * <td>{@link #release} wakes at most one registered waiting client, not every waiting
 * one; {@link #onRelease} listeners still hear every release.</td>
 * </tr>
 * <tr>
 * <td>{@link SessionLeaseExtension}</td>
 * <td>{@link #tryAcquire}, {@link #renew} and {@link #expireAfter} keep a lock as long as
 * the store's session, whatever lease they are given ({@link #expireAfter} still ends it
 * after {@code remaining}); {@link #renew} answers {@code RENEWED} only once the session
 * is confirmed.</td>
 * </tr>
 * <tr>
 * <td>{@link LocalHandOverExtension}</td>
 * <td>Every fencing token any operation grants is a multiple of its
 * {@link LocalHandOverExtension#fenceRoom() room}, so that the client's hand-overs
 * without a request fit between two grants.</td>
 * </tr>
 * <tr>
 * <td>{@link HandOverExtension}, {@link SeveralKeysExtension},
 * {@link InspectionExtension}</td>
 * <td>None: a lock they grant is a write lock for every required operation.</td>
 * </tr>
 * </table>
 * <p>
 * Every operation is non-blocking: it returns a {@link CompletionStage} that the backend
 * completes, and never blocks the calling thread for a wait. A store that has only a
 * blocking client extends {@link BlockingLockStore}, which runs each operation on a
 * bounded executor of its own within a command timeout, except the one operation a thread
 * marked by {@link BlockingCaller} starts: the engine marks a synchronous caller, which
 * blocks for that operation anyway, and a blocking store may run it on that thread. Every
 * operation is owner-checked: a store never deletes or extends a lock whose stored owner
 * token differs from the one given, and a replay of the same request answers as the first
 * did (every request the client may send again: all but the operator's
 * {@link InspectionExtension}, which the client never re-sends). An operation that cannot
 * reach the backend, or gets no answer within the store's command timeout, completes
 * exceptionally with {@link LockBackendException}; the client then fails closed. Time
 * comes from the backend, never from the application's clock. A store is thread-safe.
 * <p>
 * A store passes the public contract kit
 * ({@code dev.distlock.store.test.LockStoreContractTests} in {@code lock-store-test}); a
 * decorator extends {@link ForwardingLockStore}.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface LockStore extends HeldLockOperations, AutoCloseable {

	/**
	 * Take the lock on {@code key} for {@code lease} if nobody holds it, and grant a
	 * fencing token strictly greater than every earlier grant of that key. An attempt
	 * that finds {@code token} already holding the key (a replay) is granted with the
	 * stored fencing token.
	 * @param key the lock key as the application named it
	 * @param token the owner token to store, unique per acquisition
	 * @param lease how long the lock lives unless renewed or released
	 * @return the grant, or how long the current holder's lease has left; failed with
	 * {@link LockBackendException} if the backend failed (the lock may or may not have
	 * been taken, so the caller releases {@code token} once the backend answers again)
	 */
	CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease);

	/**
	 * Release the lock if {@code token} still owns it, and notify the
	 * {@link #onRelease(String, Runnable) release listeners}.
	 * @param key the lock key
	 * @param token the owner token
	 * @return whether the lock was owned by {@code token} and is now released; failed
	 * with {@link LockBackendException} if the backend failed
	 */
	@Override
	CompletionStage<Boolean> release(String key, String token);

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
	@Override
	CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining);

	/**
	 * Extend the lease of every lock that still holds its token. A part of the batch the
	 * backend could not renew while other parts were renewed is reported as
	 * {@link RenewalOutcome#FAILED}. A renewal never re-creates a lock that is gone.
	 * @param renewals the locks to renew with their owner tokens
	 * @param lease the new lease, counted from now
	 * @return one outcome per renewal, in the same order; failed with
	 * {@link LockBackendException} if the backend could not renew any part of the batch
	 * (the client then treats every renewal as failed and reports the cause)
	 */
	@Override
	CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease);

	/**
	 * Return the renewal group of a lock: the watchdog never puts locks of different
	 * groups in one {@link #renew} call, and renews each group on its own, so that a
	 * group whose backend node stalls delays no other group's renewals. Returns one group
	 * for every key by default (a single backend); a sharded store answers the node that
	 * serves the key. Asked for every watched lock at every renewal round, so it must be
	 * cheap and must not block.
	 * @param key the lock key
	 * @return the group, compared with {@link Object#equals}
	 */
	default Object renewalGroup(String key) {
		return "";
	}

	/**
	 * Return whether {@code token} still owns the lock, asking the authoritative copy (a
	 * primary, never a replica).
	 * @param key the lock key
	 * @param token the owner token
	 * @return whether the backend records {@code token} as the owner; failed with
	 * {@link LockBackendException} if the backend failed
	 */
	@Override
	CompletionStage<Boolean> isOwner(String key, String token);

	/**
	 * Call {@code listener} whenever the lock on {@code key} may have become free: after
	 * a release by any client, and after a lost notification channel was restored
	 * (releases may have been missed meanwhile). Subscribing does no blocking I/O on the
	 * calling thread; until the backend confirms the subscription, releases may go
	 * unnoticed, so the client also re-checks on a timer. A store that cannot notify at
	 * all returns a subscription that never calls: waiters then find the key free on
	 * their timed re-checks. The listener must not block.
	 * @param key the lock key
	 * @param listener what to run on a release
	 * @return the subscription; close it when no longer waiting
	 */
	Subscription onRelease(String key, Runnable listener);

	/**
	 * Return this store's implementation of an optional {@link LockStoreExtension}, or
	 * {@code null} when it has none. The default returns this store itself when it
	 * implements {@code type}; a decorator returns the extension of the store it wraps,
	 * or its own wrapper of it, or {@code null} where it cannot honour it.
	 * @param <E> the extension's type
	 * @param type the extension's interface
	 * @return the extension, or {@code null}
	 */
	default <E extends LockStoreExtension> @Nullable E extension(Class<E> type) {
		return type.isInstance(this) ? type.cast(this) : null;
	}

	/**
	 * Stop notifying and free the store's own resources (not the application's
	 * connections). Idempotent; locks still held are left to expire.
	 */
	@Override
	default void close() {
	}

	/**
	 * The outcome of one {@link LockStore#tryAcquire} call.
	 *
	 * @param acquired whether the lock was taken
	 * @param fencingToken the fencing token of the grant, {@code 0} when not acquired
	 * @param holderLeaseRemaining how long the current holder's lease has left when not
	 * acquired, or {@code null} if unknown (for example a key without expiry)
	 */
	record Attempt(boolean acquired, long fencingToken, @Nullable Duration holderLeaseRemaining) {

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
