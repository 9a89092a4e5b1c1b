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

import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

/**
 * The state of one lock key inside one client, shared by every handle for that key.
 * <p>
 * Its {@link #gate} is a local fair lock: only the thread that holds the gate talks to
 * Redis for this key, so the threads of one JVM queue locally, and the gate's hold count
 * gives the distributed lock its reentrancy. The hold fields are written by the holding
 * thread and read by the watchdog and by {@code close()}; renewal and loss reports carry
 * the token they concern, so a late report never touches a newer hold.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LockEntry {

	final LockKeys keys;

	final ReentrantLock gate = new ReentrantLock(true);

	/** Threads holding or waiting for this key; guarded by the client's entry map. */
	int users;

	private volatile @Nullable String token;

	private volatile long fence;

	private volatile long leaseDeadlineNanos;

	private volatile @Nullable String lossReason;

	LockEntry(LockKeys keys) {
		this.keys = keys;
	}

	void granted(String token, long fence, long leaseDeadlineNanos) {
		this.lossReason = null;
		this.fence = fence;
		this.leaseDeadlineNanos = leaseDeadlineNanos;
		this.token = token;
	}

	void renewed(String token, long leaseDeadlineNanos) {
		if (token.equals(this.token)) {
			this.leaseDeadlineNanos = leaseDeadlineNanos;
		}
	}

	void lost(String token, String reason) {
		if (token.equals(this.token)) {
			this.lossReason = reason;
		}
	}

	void cleared() {
		this.token = null;
		this.lossReason = null;
	}

	@Nullable String token() {
		return this.token;
	}

	long fence() {
		return this.fence;
	}

	/**
	 * Return why the current hold is known to be lost, or {@code null} while it is
	 * believed valid.
	 * @return the loss reason, if any
	 */
	@Nullable String lossReason() {
		String reason = this.lossReason;
		if (reason == null && this.token != null && System.nanoTime() - this.leaseDeadlineNanos >= 0) {
			return "its lease ran out before it was renewed or released";
		}
		return reason;
	}

}
