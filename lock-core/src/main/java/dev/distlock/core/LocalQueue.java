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

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;

/**
 * The local turn for one key inside one client: a first-come, first-served mutex that is
 * not bound to a thread, so that a turn taken by one thread can be passed on by another.
 * Only the caller holding the turn talks to the store for that key; everyone else of this
 * client waits here, without any backend traffic.
 * <p>
 * Waiting for a turn is a future, so blocking and non-blocking callers queue alike. The
 * monitor guards only in-memory state and is never held while blocking or completing a
 * future.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LocalQueue {

	private static final CompletableFuture<Void> GRANTED = CompletableFuture.completedFuture(null);

	private final ArrayDeque<CompletableFuture<Void>> waiting = new ArrayDeque<>();

	private boolean taken;

	/**
	 * Take the turn if it is free and nobody queues for it.
	 * @return whether the caller now has the turn
	 */
	synchronized boolean tryTake() {
		if (this.taken || !this.waiting.isEmpty()) {
			return false;
		}
		this.taken = true;
		return true;
	}

	/**
	 * Queue for the turn.
	 * @return a future completed once the caller has the turn; give it up with
	 * {@link #abandon} if no longer wanted
	 */
	synchronized CompletableFuture<Void> enqueue() {
		if (!this.taken && this.waiting.isEmpty()) {
			this.taken = true;
			return GRANTED;
		}
		CompletableFuture<Void> turn = new CompletableFuture<>();
		this.waiting.add(turn);
		return turn;
	}

	/**
	 * Give up a queued turn.
	 * @param turn the future returned by {@link #enqueue()}
	 * @return {@code true} if the turn was still queued and is now given up;
	 * {@code false} if it had been granted meanwhile, in which case the caller has the
	 * turn and must {@link #pass() pass} it on
	 */
	synchronized boolean abandon(CompletableFuture<Void> turn) {
		return this.waiting.remove(turn);
	}

	/**
	 * Pass the turn to the longest waiting caller, or free it.
	 * @return whether a waiting caller got the turn
	 */
	boolean pass() {
		CompletableFuture<Void> next;
		synchronized (this) {
			next = this.waiting.poll();
			if (next == null) {
				this.taken = false;
			}
		}
		if (next != null) {
			next.complete(null);
		}
		return next != null;
	}

	/**
	 * Return how many callers queue for the turn.
	 * @return the number of local waiters
	 */
	synchronized int waitingCount() {
		return this.waiting.size();
	}

}
