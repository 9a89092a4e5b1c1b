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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

/**
 * The local side of an {@link Acquisition}: the local turns it takes, one per key in key
 * order, for the variants that queue locally ({@link AcquireVariant#takesTurn()}); which
 * of them it passes on, and the reservations of the local entries it gives up, when it
 * ends without its grants. Read and changed only by the event an acquisition is
 * processing.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LocalTurns {

	private final LockEngine engine;

	private final List<LockEntry> entries;

	/** How many turns are taken, in key order. */
	private int taken;

	/** The turn waited for, if any. */
	private @Nullable CompletableFuture<Void> awaited;

	LocalTurns(LockEngine engine, List<LockEntry> entries) {
		this.engine = engine;
		this.entries = entries;
	}

	/**
	 * Return the entry whose turn is to take next, or {@code null} once every turn is
	 * taken.
	 */
	@Nullable LockEntry next() {
		return (this.taken < this.entries.size()) ? this.entries.get(this.taken) : null;
	}

	/**
	 * Count the turn of the next key as taken. A lock the previous holder handed over
	 * with it is for a caller of that key alone: a caller of several keys gives it back
	 * at once, rather than keep it while it queues for its other turns (where two clients
	 * could each keep one the other waits for).
	 */
	void took() {
		LockEntry entry = this.entries.get(this.taken++);
		if (this.entries.size() > 1) {
			this.engine.releaseHandOver(entry);
		}
	}

	/**
	 * Wait for the next turn: {@code onTurn} runs when it comes.
	 */
	void await(CompletableFuture<Void> turn, Runnable onTurn) {
		this.awaited = turn;
		turn.thenRun(onTurn);
	}

	/**
	 * The turn waited for came.
	 */
	void arrived() {
		this.awaited = null;
	}

	/**
	 * Pass on the turn that came after the acquisition gave up.
	 */
	void passArrived() {
		this.engine.passTurn(this.entries.get(this.taken), null);
	}

	/**
	 * Stop waiting for a turn, if waiting; a turn that came meanwhile is passed on by the
	 * acquisition when it arrives.
	 * @return the key whose turn was waited for, or {@code null}
	 */
	@Nullable String abandon() {
		CompletableFuture<Void> turn = this.awaited;
		if (turn == null) {
			return null;
		}
		LockEntry entry = this.entries.get(this.taken);
		entry.queue.abandon(turn);
		return entry.key;
	}

	/**
	 * Once {@code left} completes (the caller left the store's waiters, so that the next
	 * local caller registers after it), pass the taken turns on (but those of fixed
	 * leases that ran out meanwhile, which passed theirs on already) and give up the
	 * reservations of the entries.
	 * @param left the caller's leaving the store's waiters
	 * @param granted the grants, in key order
	 */
	void giveBackAfter(CompletionStage<Void> left, List<Lease> granted) {
		List<LockEntry> turns = new ArrayList<>(this.taken);
		for (int i = 0; i < this.taken; i++) {
			if (i >= granted.size() || granted.get(i).passTurn()) {
				turns.add(this.entries.get(i));
			}
		}
		left.whenComplete((ignored, failure) -> {
			turns.forEach((entry) -> this.engine.passTurn(entry, null));
			unreserve(granted);
		});
	}

	/**
	 * Give up the reservations of the local entries: a grant's own once (a fixed lease
	 * that ran out meanwhile gave its up already), the others' directly.
	 * @param granted the grants, in key order
	 */
	private void unreserve(List<Lease> granted) {
		for (int i = 0; i < this.entries.size(); i++) {
			if (i < granted.size()) {
				this.engine.unreserve(granted.get(i));
			}
			else {
				this.engine.unreserve(this.entries.get(i));
			}
		}
	}

}
