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

import dev.distlock.LockAcquisitionException;
import org.jspecify.annotations.Nullable;

/**
 * Entry point of the lock engine: hands out {@link LockHandle lock handles} by key and
 * runs code under a lock. <pre class="code">
 * lockClient.execute("order:" + userId, Duration.ofSeconds(2), (lock) -&gt; {
 *     return orders.place(userId, lock.fencingToken());
 * });
 * </pre>
 *
 * @author distlock
 * @since 0.1.0
 * @see RedisLockClient
 */
public interface LockClient extends AutoCloseable {

	/**
	 * Return a handle for the given key. Obtaining a handle does not talk to Redis.
	 * @param key the lock key, not blank
	 * @return the lock handle
	 * @throws IllegalArgumentException if the key is blank
	 */
	LockHandle obtain(String key);

	/**
	 * Acquire the lock on {@code key} with the watchdog lease, run {@code callback} and
	 * release the lock, whatever the callback does.
	 * @param <T> the result type
	 * @param <E> the exception type of the callback
	 * @param key the lock key
	 * @param waitTime how long to wait for the lock
	 * @param callback the code to run under the lock
	 * @return the callback's result
	 * @throws E what the callback throws
	 * @throws LockAcquisitionException if the lock was not acquired in time; the callback
	 * did not run
	 */
	default <T, E extends Throwable> T execute(String key, Duration waitTime, LockedCallback<T, E> callback) throws E {
		return execute(key, waitTime, null, callback);
	}

	/**
	 * Acquire the lock on {@code key}, run {@code callback} and release the lock,
	 * whatever the callback does. If the callback completes but the lock turns out to
	 * have been lost, {@link dev.distlock.LockLostException} is thrown.
	 * @param <T> the result type
	 * @param <E> the exception type of the callback
	 * @param key the lock key
	 * @param waitTime how long to wait for the lock
	 * @param leaseTime a fixed lease, or {@code null} for the renewed watchdog lease
	 * @param callback the code to run under the lock
	 * @return the callback's result
	 * @throws E what the callback throws
	 * @throws LockAcquisitionException if the lock was not acquired in time; the callback
	 * did not run
	 */
	default <T, E extends Throwable> T execute(String key, Duration waitTime, @Nullable Duration leaseTime,
			LockedCallback<T, E> callback) throws E {
		LockHandle lock = obtain(key);
		acquireOrThrow(lock, waitTime, leaseTime);
		T result;
		try {
			result = callback.doWithLock(lock);
		}
		catch (Throwable ex) {
			unlockAfterFailure(lock, ex);
			throw ex;
		}
		lock.unlock();
		return result;
	}

	/**
	 * Stop renewing leases and release every lock this client holds, within a bounded
	 * time. Further acquisitions fail with {@link IllegalStateException}.
	 */
	@Override
	void close();

	private static void acquireOrThrow(LockHandle lock, Duration waitTime, @Nullable Duration leaseTime) {
		try {
			boolean acquired = (leaseTime != null) ? lock.tryLock(waitTime, leaseTime) : lock.tryLock(waitTime);
			if (!acquired) {
				throw new LockAcquisitionException(lock.key(), waitTime);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException(lock.key(), waitTime, ex);
		}
	}

	private static void unlockAfterFailure(LockHandle lock, Throwable failure) {
		try {
			lock.unlock();
		}
		catch (RuntimeException ex) {
			failure.addSuppressed(ex);
		}
	}

}
