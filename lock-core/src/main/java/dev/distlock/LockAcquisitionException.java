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

package dev.distlock;

import java.time.Duration;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a lock could not be acquired within the allowed wait time, or the wait was
 * interrupted. The protected code did not run.
 *
 * @author distlock
 * @since 0.1.0
 */
public class LockAcquisitionException extends DistributedLockException {

	/**
	 * How long the caller was prepared to wait.
	 */
	private final Duration waitTime;

	/**
	 * Lease the holder had left when last seen, if known.
	 */
	private final @Nullable Duration holderLeaseRemaining;

	/**
	 * Create a new exception.
	 * @param key the lock key
	 * @param waitTime how long the caller was prepared to wait
	 * @param cause the cause (for example an {@link InterruptedException}), if any
	 */
	public LockAcquisitionException(String key, Duration waitTime, @Nullable Throwable cause) {
		this(key, waitTime, cause, null);
	}

	private LockAcquisitionException(String key, Duration waitTime, @Nullable Throwable cause,
			@Nullable Duration holderLeaseRemaining) {
		super(key, describe(key, waitTime, cause), cause);
		this.waitTime = waitTime;
		this.holderLeaseRemaining = holderLeaseRemaining;
	}

	/**
	 * Create a new exception for a lock that stayed busy for the whole wait time, with
	 * what the lock store said about the current holder's lease.
	 * @param key the lock key
	 * @param waitTime how long the caller was prepared to wait
	 * @param holderLeaseRemaining how long the current holder's lease had left at the
	 * last attempt, or {@code null} if unknown
	 * @return the exception
	 */
	public static LockAcquisitionException busy(String key, Duration waitTime,
			@Nullable Duration holderLeaseRemaining) {
		return new LockAcquisitionException(key, waitTime, null, holderLeaseRemaining);
	}

	/**
	 * Create a new exception for a lock that stayed busy for the whole wait time.
	 * @param key the lock key
	 * @param waitTime how long the caller was prepared to wait
	 */
	public LockAcquisitionException(String key, Duration waitTime) {
		this(key, waitTime, null);
	}

	/**
	 * Return how long the caller was prepared to wait.
	 * @return the wait time
	 */
	public Duration getWaitTime() {
		return this.waitTime;
	}

	/**
	 * Return how long the holder's lease had left when the lock was last found busy, for
	 * example to answer with a {@code Retry-After}. Empty when unknown, when the wait was
	 * interrupted, or when the lock was queued behind another caller of this client.
	 * @return the holder's remaining lease, if known
	 */
	public Optional<Duration> getHolderLeaseRemaining() {
		return Optional.ofNullable(this.holderLeaseRemaining);
	}

	private static String describe(String key, Duration waitTime, @Nullable Throwable cause) {
		if (cause instanceof InterruptedException) {
			return "Interrupted while waiting for lock '" + LogSafe.escape(key) + "'";
		}
		return "Lock '" + LogSafe.escape(key) + "' is held elsewhere; not acquired within " + waitTime.toMillis()
				+ " ms";
	}

}
