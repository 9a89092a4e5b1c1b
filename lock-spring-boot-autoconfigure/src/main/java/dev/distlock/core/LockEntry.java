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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;

/**
 * The state of one lock key inside one client, shared by every handle and hold for that
 * key while any of them is in use: the local turn, the wake-up signal of the caller
 * waiting in the store, and the reentrancy of a thread-bound hold.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LockEntry {

	final String key;

	final LocalQueue queue = new LocalQueue();

	final ReleaseSignal signal = new ReleaseSignal();

	/**
	 * Callers using this entry (waiting or holding); guarded by the client's entry map.
	 */
	int users;

	/** The thread holding the turn through a {@link LockHandle}, if any. */
	volatile @Nullable Thread owner;

	/** Re-entries of {@link #owner}; read and written by the owner only. */
	int holdCount;

	/**
	 * Callers of this entry waiting in the store: at most the head of the local queue, or
	 * every waiting caller of a fair lock.
	 */
	final AtomicInteger storeWaiting = new AtomicInteger();

	/**
	 * The signals of the callers waiting for this fair lock in the store, each woken
	 * alone.
	 */
	final Set<ReleaseSignal> fairSignals = ConcurrentHashMap.newKeySet();

	/**
	 * A lock the last holder handed over to the caller taking the local turn next (lock
	 * cohorting); whoever takes it out owns it: the next holder, or the releaser when
	 * nobody took the turn.
	 */
	final AtomicReference<@Nullable CohortGrant> handOver = new AtomicReference<>();

	/**
	 * How long the caller taking the local turn next waits before it asks the store,
	 * after a release that ended a run of cohort hand-offs, so that a client elsewhere
	 * woken by that release can take the lock; 0 for not at all.
	 */
	final AtomicLong yieldNanos = new AtomicLong();

	/** The lease of {@link #owner}'s hold; written by the owner only. */
	volatile @Nullable Lease threadLease;

	LockEntry(String key) {
		this.key = key;
	}

	/**
	 * Wake every caller waiting in the store for this key.
	 */
	void wakeAll() {
		this.signal.wake();
		this.fairSignals.forEach(ReleaseSignal::wake);
	}

	/**
	 * A lock handed over in the store to a new owner token of this client.
	 *
	 * @param token the new owner token
	 * @param fencingToken the fencing token of the hand-off
	 * @param lease the lease the store set
	 * @param requestedAtNanos when the hand-off was requested
	 * @param handOffs how many hand-offs in a row this one ends
	 */
	record CohortGrant(String token, long fencingToken, Duration lease, long requestedAtNanos, int handOffs) {

	}

	boolean isOwnedBy(Thread thread) {
		return this.owner == thread;
	}

}
