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

package dev.distlock.test;

import dev.distlock.LossReason;
import org.jspecify.annotations.Nullable;

/**
 * A hold of a lock that an {@link InMemoryLocks} client granted: which key, to which
 * thread, with which fencing token, whether it has ended and whether it was lost.
 *
 * @author distlock
 * @since 0.1.0
 * @see InMemoryLocks#holds()
 */
public final class RecordedHold {

	private final String name;

	private final String key;

	private final Thread thread;

	private final long fencingToken;

	private final long startedAt;

	private volatile long endedAt;

	private volatile @Nullable LossReason lossReason;

	RecordedHold(String name, String key, Thread thread, long fencingToken, long startedAt) {
		this.name = name;
		this.key = key;
		this.thread = thread;
		this.fencingToken = fencingToken;
		this.startedAt = startedAt;
	}

	/**
	 * Return the low-cardinality name of the lock, for example the locked method.
	 * @return the lock name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Return the lock key.
	 * @return the key
	 */
	public String key() {
		return this.key;
	}

	/**
	 * Return the name of the thread that asked for the lock.
	 * @return the thread name
	 */
	public String threadName() {
		return this.thread.getName();
	}

	/**
	 * Return the fencing token of the grant.
	 * @return the fencing token
	 */
	public long fencingToken() {
		return this.fencingToken;
	}

	/**
	 * Return whether the hold has not ended yet.
	 * @return whether the lock is still held
	 */
	public boolean isOpen() {
		return this.endedAt == 0;
	}

	/**
	 * Return how the hold was lost, if its holder was told so.
	 * @return the loss reason, or {@code null} if it was not lost
	 */
	public @Nullable LossReason lossReason() {
		return this.lossReason;
	}

	boolean isHeldBy(Thread candidate) {
		return this.thread == candidate;
	}

	boolean startedAfter(long mark) {
		return this.startedAt > mark;
	}

	void lost(LossReason reason) {
		this.lossReason = reason;
	}

	void ended(long at) {
		this.endedAt = at;
	}

	@Override
	public String toString() {
		return "'" + this.key + "' (" + this.name + ") on thread " + threadName() + ", fencing token "
				+ this.fencingToken + (isOpen() ? ", held" : ", released")
				+ ((this.lossReason != null) ? ", lost: " + this.lossReason : "");
	}

}
