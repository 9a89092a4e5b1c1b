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
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import dev.distlock.LockAcquisitionException;
import dev.distlock.store.FairGrantWakeUpExtension.ClockedAttempt;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.FairGrantWakeUpExtension.FairGrant;
import org.jspecify.annotations.Nullable;

/**
 * What the last refusal told an {@link Acquisition}: which key was busy, how long its
 * holder's lease had left, and the store's clock; and so how soon to ask again, whether a
 * grant a wake-up carries is fresh enough to take, and what a caller that gives up busy
 * is told. Read and changed only by the event an acquisition is processing.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LastRefusal {

	private static final long UNKNOWN_TTL_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private static final long MIN_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	private @Nullable Duration holderLeaseRemaining;

	private @Nullable String busyKey;

	/** The store's clock as the last refusal of one key told it, if it did. */
	private @Nullable StoreClockReading storeClock;

	/**
	 * Record a refusal: the busy key is the first whose holder's lease is known, else the
	 * last asked for.
	 * @param attempts the store's answers, one per key asked for
	 * @param keys the keys asked for
	 * @param requestedAt when the request was sent
	 * @param storeClockMillis when the store decided, on its own clock, or
	 * {@link ClockedAttempt#UNKNOWN_CLOCK} (always for a request of several keys)
	 */
	void refused(List<Attempt> attempts, List<String> keys, long requestedAt, long storeClockMillis) {
		for (int i = 0; i < attempts.size(); i++) {
			Duration remaining = attempts.get(i).holderLeaseRemaining();
			if (remaining != null || i == attempts.size() - 1) {
				this.holderLeaseRemaining = remaining;
				this.busyKey = keys.get(i);
				break;
			}
		}
		this.storeClock = (storeClockMillis != ClockedAttempt.UNKNOWN_CLOCK)
				? new StoreClockReading(requestedAt, storeClockMillis) : null;
	}

	/**
	 * Record that the local turn of {@code key} was busy.
	 */
	void busy(String key) {
		this.busyKey = key;
	}

	/**
	 * Return where a grant that a wake-up carried ends on the local clock, if the store's
	 * clock as the last refusal told it places that end far enough ahead: at least half
	 * the grant's lifetime (an older grant, or one whose message was slow, is claimed by
	 * an attempt instead).
	 * @param grant the grant
	 * @return the grant's end, or empty if unknown or too near
	 */
	OptionalLong freshGrantEnd(FairGrant grant) {
		StoreClockReading clock = this.storeClock;
		if (clock == null) {
			return OptionalLong.empty();
		}
		long grantEnd = clock.grantEndNanos(grant);
		if (grantEnd - System.nanoTime() < grant.lifetime().toNanos() / 2) {
			return OptionalLong.empty();
		}
		return OptionalLong.of(grantEnd);
	}

	/**
	 * Return how long to wait before asking again: what the holder's lease has left (at
	 * least 1 ms), or 100 ms when unknown.
	 */
	long recheckNanos() {
		Duration remaining = this.holderLeaseRemaining;
		if (remaining == null) {
			return UNKNOWN_TTL_RECHECK_NANOS;
		}
		return Math.max(MIN_RECHECK_NANOS, remaining.toNanos());
	}

	/**
	 * Return the failure of a caller that gave up busy.
	 * @param goal which of the keys the caller was to hold
	 * @param key the key asked for last, if no refusal named one
	 * @param keys every key
	 * @param waitTime the wait time as given
	 */
	LockAcquisitionException busyFailure(AcquireGoal goal, String key, List<String> keys, Duration waitTime) {
		String busy = goal.busyKey((this.busyKey != null) ? this.busyKey : key, keys);
		return LockAcquisitionException.busy(busy, waitTime, this.holderLeaseRemaining);
	}

}
