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

import org.jspecify.annotations.Nullable;

/**
 * A lock library under test, connected to the benchmark Redis. Every implementation
 * acquires in the library's documented default way, so the figures are what a user of the
 * library gets.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface LockContender extends AutoCloseable {

	/**
	 * Acquire the lock of a key, waiting for it up to a time.
	 * @param key the lock key
	 * @param wait how long to wait while another holder has it
	 * @return the held lock, or {@code null} if the wait ran out
	 * @throws InterruptedException if interrupted while waiting
	 */
	@Nullable Held tryLock(String key, Duration wait) throws InterruptedException;

	/**
	 * Disconnect from Redis.
	 */
	@Override
	void close();

	/**
	 * A lock held by the calling thread.
	 */
	@FunctionalInterface
	interface Held {

		/**
		 * Release the lock; fails if the library reports it was no longer held.
		 */
		void unlock();

	}

}
