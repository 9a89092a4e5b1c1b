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
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

import dev.distlock.LockBackendException;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.LockStore.Subscription;
import org.jspecify.annotations.Nullable;

/**
 * A fair queue whose wake-ups carry the grant a release made: the woken waiter holds the
 * lock without asking the store again. To place a grant on the local clock, the client
 * needs the store's clock: each fair attempt tells it ({@link #tryAcquireFairClocked}),
 * and each grant tells when, on that clock, it was made ({@link FairGrant}).
 * <p>
 * Duties beyond those of {@link FairQueueExtension}: a release that grants the lock to a
 * waiter passes that grant to the waiter's {@link #onFairGrant} listener; every attempt
 * tells the store's clock when the store decided, on the clock the grants use.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface FairGrantWakeUpExtension extends FairQueueExtension {

	/**
	 * Take the lock as {@link #tryAcquireFair} does, and tell the store's clock when the
	 * store decided.
	 * @param key the lock key
	 * @param token the owner token, which is also the waiter's place in the queue
	 * @param lease how long the lock lives unless renewed or released
	 * @param grantTimeout how long the waiter stays alive in the queue and a grant to it
	 * waits to be claimed, or {@code null} to not join the queue
	 * @return the attempt with the store's clock; failed with
	 * {@link LockBackendException} if the backend failed
	 */
	CompletionStage<ClockedAttempt> tryAcquireFairClocked(String key, String token, Duration lease,
			@Nullable Duration grantTimeout);

	/**
	 * Take the lock as {@link #tryAcquireFairClocked} does, without the clock.
	 */
	@Override
	default CompletionStage<Attempt> tryAcquireFair(String key, String token, Duration lease,
			@Nullable Duration grantTimeout) {
		return tryAcquireFairClocked(key, token, lease, grantTimeout).thenApply(ClockedAttempt::attempt);
	}

	/**
	 * Call {@code listener} on each wake-up {@link #onFairWakeUp} hears, passing the
	 * grant when the wake-up carries one (a release granted the lock to {@code token}),
	 * else {@code null}. The listener must not block.
	 * @param key the lock key
	 * @param token the fair waiter's token
	 * @param listener what to run, with the grant if the wake-up carries one
	 * @return the subscription; close it when no longer waiting
	 */
	Subscription onFairGrant(String key, String token, Consumer<@Nullable FairGrant> listener);

	/**
	 * Hear wake-ups as {@link #onFairGrant} does, ignoring the grants they carry.
	 */
	@Override
	default Subscription onFairWakeUp(String key, String token, Runnable listener) {
		return onFairGrant(key, token, (grant) -> listener.run());
	}

	/**
	 * The outcome of a fair attempt with the store's clock when it decided.
	 *
	 * @param attempt the outcome
	 * @param storeClockMillis when the store decided, on its own clock in milliseconds,
	 * or {@link #UNKNOWN_CLOCK}
	 */
	record ClockedAttempt(Attempt attempt, long storeClockMillis) {

		/**
		 * The {@link #storeClockMillis()} of an attempt that does not tell the store's
		 * clock.
		 */
		public static final long UNKNOWN_CLOCK = Long.MIN_VALUE;

		/**
		 * Return an attempt that does not tell the store's clock.
		 * @param attempt the outcome
		 * @return the attempt
		 */
		public static ClockedAttempt unclocked(Attempt attempt) {
			return new ClockedAttempt(attempt, UNKNOWN_CLOCK);
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
	 * A grant that a release made to a fair waiter, as its wake-up carries it. The lock
	 * lives in the store for {@code lifetime} (the waiter's grant timeout) from
	 * {@code grantedAtMillis} or later; the waiter extends it to its lease.
	 *
	 * @param fencingToken the fencing token of the grant
	 * @param grantedAtMillis when the grant was made, or earlier, on the store's clock in
	 * milliseconds (the clock of {@link ClockedAttempt#storeClockMillis()})
	 * @param lifetime how long the grant lives in the store unless extended
	 */
	record FairGrant(long fencingToken, long grantedAtMillis, Duration lifetime) {

	}

}
