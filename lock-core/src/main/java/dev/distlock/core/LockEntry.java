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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import dev.distlock.store.HeldLockOperations;

/**
 * The local state of one key of one client: its queue for the local turn (only the caller
 * holding the turn talks to the store for that key), the lock a holder handed over to the
 * caller taking the turn next, and how many callers use the entry.
 * <p>
 * Fair and read acquisitions take no local turn: each has an entry of its own, never
 * shared, whose turn it holds from the start.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LockEntry {

	final String key;

	/** The store operations on the grants of this entry: write or read locks. */
	final HeldLockOperations ownership;

	final LocalQueue queue = new LocalQueue();

	/**
	 * Callers using this entry (waiting or holding); guarded by the client's entry map.
	 */
	int users;

	/**
	 * A lock the last holder handed over to the caller taking the local turn next (lock
	 * cohorting); whoever takes it out owns it: the next holder, or the releaser when
	 * nobody took the turn.
	 */
	final AtomicReference<@Nullable CohortGrant> handOver = new AtomicReference<>();

	/**
	 * How long the caller taking the local turn next waits before it asks the store,
	 * after a release that ended a run of cohort hand-overs, so that a client elsewhere
	 * woken by that release can take the lock; 0 for not at all.
	 */
	final AtomicLong yieldNanos = new AtomicLong();

	/**
	 * Whether the last holder of this key found its segment empty
	 * ({@link SegmentHold#releaseEmpty()}): callers queued for its local turn pass it on
	 * and move on to their other segments, until nobody queues for it.
	 */
	volatile boolean emptied;

	LockEntry(String key, HeldLockOperations ownership) {
		this.key = key;
		this.ownership = ownership;
	}

	/**
	 * Return an entry of its own for one fair or read acquisition, whose turn it holds.
	 * @param key the lock key
	 * @param ownership the store operations on its grant
	 * @return the entry
	 */
	static LockEntry unshared(String key, HeldLockOperations ownership) {
		LockEntry entry = new LockEntry(key, ownership);
		entry.queue.tryTake();
		return entry;
	}

	/**
	 * A lock handed over to the next caller of this client: in the store to a new owner
	 * token, or without a request under the same owner token ({@link LocalHandOver}).
	 *
	 * @param token the new owner token
	 * @param fencingToken the fencing token of the hand-over
	 * @param lease the lease the store set
	 * @param requestedAtNanos when the hand-over was requested
	 * @param handOffs how many hand-overs in a row, while another client waited, this one
	 * ends (0 when none waited)
	 * @param sinceReading how many hand-overs without a request led to it since the store
	 * last told whether another client waits ({@link LocalHandOver})
	 * @param endsByNanos when the lease ends at the latest ({@link System#nanoTime()}):
	 * the previous holder's local view, for a hand-over without a request
	 */
	record CohortGrant(String token, long fencingToken, Duration lease, long requestedAtNanos, int handOffs,
			int sinceReading, long endsByNanos) {

	}

}
