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

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Wake-ups for the caller waiting on one key in the store: a counter of release
 * notifications and a condition to wait for the next one. The waiter reads the counter
 * before each attempt and waits only if it has not moved since, so a release that lands
 * between the attempt and the wait is never missed.
 *
 * @author distlock
 * @since 0.2.0
 */
final class ReleaseSignal {

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition released = this.lock.newCondition();

	private long releases;

	/**
	 * Return the number of wake-ups so far; pass it to {@link #await} after the next
	 * attempt.
	 * @return the wake-up count
	 */
	long count() {
		this.lock.lock();
		try {
			return this.releases;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Wait until a wake-up after {@code seen}, or the time is up.
	 * @param seen the count read before the last attempt
	 * @param nanos the most to wait
	 * @throws InterruptedException if interrupted
	 */
	void await(long seen, long nanos) throws InterruptedException {
		long remaining = nanos;
		this.lock.lockInterruptibly();
		try {
			while (this.releases == seen && remaining > 0) {
				remaining = this.released.awaitNanos(remaining);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Wake the waiter: the lock may be free, the client is closing, or the wait was
	 * cancelled.
	 */
	void wake() {
		this.lock.lock();
		try {
			this.releases++;
			this.released.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

}
