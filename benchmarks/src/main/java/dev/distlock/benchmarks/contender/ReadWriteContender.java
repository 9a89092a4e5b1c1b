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

package dev.distlock.benchmarks.contender;

import java.time.Duration;

import dev.distlock.benchmarks.RedisEndpoint;
import dev.distlock.benchmarks.contender.LockContender.Held;
import org.jspecify.annotations.Nullable;

/**
 * A library's read-write lock, connected to the benchmark Redis: shared read locks and
 * the exclusive write lock of a key, held by the calling thread.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface ReadWriteContender extends AutoCloseable {

	/**
	 * Acquire the read lock or the write lock of a key, waiting for it up to a time.
	 * @param key the lock key
	 * @param read whether to take the shared read lock, else the write lock
	 * @param wait how long to wait
	 * @return the held lock, or {@code null} if the wait ran out
	 * @throws InterruptedException if interrupted while waiting
	 */
	@Nullable Held tryLock(String key, boolean read, Duration wait) throws InterruptedException;

	/**
	 * Disconnect from Redis.
	 */
	@Override
	void close();

	/**
	 * Connect a library's read-write lock to a Redis.
	 * @param contender the library: {@link Contender#DISTLOCK} or
	 * {@link Contender#REDISSON}
	 * @param endpoint the Redis
	 * @param lease the watchdog lease
	 * @return the connected read-write lock
	 * @throws IllegalArgumentException if the library has no read-write lock in this
	 * benchmark
	 */
	static ReadWriteContender connect(Contender contender, RedisEndpoint endpoint, Duration lease) {
		return switch (contender) {
			case DISTLOCK -> new DistlockReadWriteContender(endpoint, lease);
			case REDISSON -> new RedissonReadWriteContender(endpoint, lease);
			default -> throw new IllegalArgumentException(contender.label() + " has no read-write lock here");
		};
	}

}
