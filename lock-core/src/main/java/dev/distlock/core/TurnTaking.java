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

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import dev.distlock.core.LockEntry.CohortGrant;
import org.jspecify.annotations.Nullable;

/**
 * The first phase of an {@link Acquisition}: taking the local turns of its keys, and
 * passing them on when it ends. For a lock of one or of every key, the turns in key order
 * (for variants that queue locally, {@link LocalTurns}), then a lock the previous holder
 * handed over is adopted, a yield is waited out, or the store is asked. For one of
 * several keys, the free turns are taken and their keys asked for, the others queued for
 * ({@link AnyKeyTurns}), and each turn that comes is asked for in its turn. Read and
 * changed only by the event an acquisition is processing.
 *
 * @author distlock
 * @since 0.1.0
 */
final class TurnTaking {

	private final AcquireVariant variant;

	private final List<LockEntry> entries;

	private final LocalTurns turns;

	/** The local turns of an acquisition of one of several keys, which its goal takes. */
	private final @Nullable AnyKeyTurns anyTurns;

	private final AcquireWait waiting;

	private final KeyCursor cursor;

	private final LastRefusal refusal;

	private final Steps steps;

	TurnTaking(LockEngine engine, AcquireVariant variant, AcquireGoal goal, List<LockEntry> entries,
			AcquireWait waiting, KeyCursor cursor, LastRefusal refusal, Steps steps) {
		this.variant = variant;
		this.entries = entries;
		this.turns = new LocalTurns(engine, entries);
		this.anyTurns = (goal instanceof AnyKeyTurns any) ? any : null;
		this.waiting = waiting;
		this.cursor = cursor;
		this.refusal = refusal;
		this.steps = steps;
	}

	/**
	 * Take the local turn of each key, in key order, or, for one of several keys, the
	 * free turns; then ask the store, or wait for a turn.
	 */
	void take() {
		AnyKeyTurns any = this.anyTurns;
		if (any != null) {
			arriveAny(any);
			return;
		}
		while (!this.steps.isDone() && this.variant.takesTurn()) {
			LockEntry entry = this.turns.next();
			if (entry == null) {
				break;
			}
			if (!this.waiting.waits()) {
				if (!entry.queue.tryTake()) {
					this.refusal.busy(entry.key);
					this.steps.finish(null);
					return;
				}
				this.turns.took();
				continue;
			}
			CompletableFuture<Void> turn = entry.queue.enqueue();
			if (!turn.isDone()) {
				this.waiting.armDeadline();
				this.turns.await(turn, () -> this.steps.post(this::onTurn));
				return;
			}
			this.turns.took();
		}
		if (!this.steps.isDone()) {
			turnsTaken();
		}
	}

	private void onTurn() {
		this.turns.arrived();
		if (this.steps.isDone()) {
			// Granted while giving up: pass it on
			this.turns.passArrived();
			return;
		}
		this.turns.took();
		take();
	}

	/**
	 * One of several keys: take the free turns and ask for their keys, queue for the
	 * others; with no turn free, wait for one without asking the store.
	 */
	private void arriveAny(AnyKeyTurns any) {
		if (any.arrive(this.waiting.waits(), (at) -> this.steps.post(() -> onAnyTurn(any, at)))) {
			this.cursor.moveTo(any.restart(this.cursor.index()));
			this.steps.attempt();
			return;
		}
		if (!this.waiting.waits()) {
			this.steps.finish(null);
			return;
		}
		this.waiting.armDeadline();
		this.steps.waitForRelease();
	}

	/**
	 * The turn of one of several keys came: pass it on if done or if its segment was
	 * found empty, else ask for its key now, after a yield, or after the reply in flight.
	 */
	private void onAnyTurn(AnyKeyTurns any, int at) {
		if (this.steps.isDone()) {
			any.passLate(at);
			return;
		}
		long yieldNanos = any.arrived(at);
		if (yieldNanos < 0 && any.isEmptied()) {
			this.steps.finish(new SegmentsEmptied());
		}
		if (yieldNanos < 0 || this.steps.isRequesting()) {
			return;
		}
		this.waiting.cancelRecheck();
		if (yieldNanos > 0) {
			this.waiting.recheckIn(Math.min(yieldNanos, this.waiting.remainingNanos()));
			return;
		}
		this.cursor.moveTo(any.next());
		this.steps.attempt();
	}

	/**
	 * Every turn is taken (none is stopped meanwhile: a stop outside a request gives up
	 * at once): adopt a lock handed over, yield, or attempt.
	 */
	private void turnsTaken() {
		if (this.variant.takesTurn() && this.entries.size() == 1) {
			LockEntry entry = this.entries.get(0);
			CohortGrant handedOver = entry.handOver.getAndSet(null);
			if (handedOver != null) {
				this.steps.adopt(entry, handedOver);
				return;
			}
			long yieldNanos = Math.min(entry.yieldNanos.getAndSet(0), this.waiting.remainingNanos());
			if (yieldNanos > 0) {
				this.waiting.armDeadline();
				this.steps.waitForRelease();
				this.waiting.recheckIn(yieldNanos);
				return;
			}
		}
		this.cursor.askAll(this.entries.size() > 1 && this.variant.atomicAll());
		this.steps.attempt();
	}

	/**
	 * Count the first key's turn as taken already, by an {@link UncontendedAttempt}.
	 */
	void tookFirst() {
		this.turns.took();
	}

	/**
	 * Return whether the acquisition is of one of several keys, whose turns come one by
	 * one, each maybe with the lock handed over.
	 */
	boolean isAnyKey() {
		return this.anyTurns != null;
	}

	/**
	 * The acquisition was granted: for one of several keys, pass on every other turn once
	 * the caller left the store's waiters ({@code left}); the turns of the other variants
	 * stay with their grants.
	 * @param left the caller's leaving the store's waiters, asked for when needed
	 */
	void succeeded(Supplier<CompletionStage<Void>> left) {
		AnyKeyTurns any = this.anyTurns;
		if (any != null) {
			any.end(left.get(), this.cursor.index());
		}
	}

	/**
	 * The acquisition gave up: stop waiting for a turn and, once {@code left} completes,
	 * pass every taken turn on and give up the reservations.
	 * @param left the caller's leaving the store's waiters
	 * @param granted the grants the acquisition gives back, in key order
	 * @param busy whether it gave up busy, in which case a turn waited for is the busy
	 * key
	 */
	void gaveUp(CompletionStage<Void> left, List<Lease> granted, boolean busy) {
		AnyKeyTurns any = this.anyTurns;
		if (any != null) {
			// A turn that comes later, onAnyTurn passes on
			any.end(left, -1);
			return;
		}
		// If the turn came meanwhile, onTurn passes it on
		String awaitedKey = this.turns.abandon();
		if (awaitedKey != null && busy) {
			this.refusal.busy(awaitedKey);
		}
		this.turns.giveBackAfter(left, granted);
	}

	/**
	 * The steps of the acquisition that the turns lead to.
	 */
	interface Steps {

		/**
		 * Return whether the acquisition is granted or given up.
		 */
		boolean isDone();

		/**
		 * Return whether a store request is in flight.
		 */
		boolean isRequesting();

		/**
		 * Process {@code event} after the acquisition's events posted before it.
		 */
		void post(Runnable event);

		/**
		 * Ask the store for the key(s) the cursor is at.
		 */
		void attempt();

		/**
		 * Take the lock the previous holder handed over with the turn of {@code entry}.
		 */
		void adopt(LockEntry entry, CohortGrant handedOver);

		/**
		 * Wait: for a turn, a yield's end, a release or the deadline.
		 */
		void waitForRelease();

		/**
		 * Give up: busy ({@code failure == null}), or with {@code failure}.
		 */
		void finish(@Nullable Throwable failure);

	}

}
