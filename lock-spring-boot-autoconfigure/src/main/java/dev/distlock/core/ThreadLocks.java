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

import dev.distlock.core.DefaultLockClient.Acquisition;
import org.jspecify.annotations.Nullable;

/**
 * The thread-bound locks of one kind that a {@link ThreadLockHandle} works on: the
 * client's exclusive (write) locks, or its read locks ({@link ReadLocks}). Each thread
 * holds a key at most once, re-entering it with a hold count.
 *
 * @author distlock
 * @since 0.2.0
 */
interface ThreadLocks {

	/**
	 * Take {@code key} for the current thread, or re-enter it.
	 * @return whether the thread holds the key
	 */
	boolean lockForThread(String key, long waitNanos, @Nullable Duration leaseTime, Acquisition acquisition)
			throws InterruptedException;

	/**
	 * Leave {@code key} once; the last leave releases it.
	 */
	void unlockForThread(String key, @Nullable Duration holdAtLeast);

	boolean isHeldByCurrentThread(String key);

	int holdCount(String key);

	/**
	 * Return the lease through which the current thread holds {@code key}.
	 * @throws IllegalStateException if it does not hold it
	 */
	Lease heldLease(String key);

	void confirmOwnership(Lease lease);

}
