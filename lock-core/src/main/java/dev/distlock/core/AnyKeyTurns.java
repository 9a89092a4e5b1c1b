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
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntConsumer;

import org.jspecify.annotations.Nullable;

/**
 * Exactly one of the candidate keys, taken through the local queues: the goal of
 * {@link LockClient#acquireAny}, and its local side. On arrival the caller takes the
 * local turn of every candidate no caller of this client holds or queues for, and asks
 * the store for those from a random start; it queues for the local turn of every other
 * candidate, without a store request. Only a turn holder asks the store (registered as
 * this client's waiter, so that a release wakes one client), and a turn that comes with
 * the lock handed over is a grant without a request. The first grant ends the
 * acquisition: its other turns are passed on and its queued turns given up (a turn that
 * reaches it after that is passed on at once). A turn of a key whose holder found its
 * segment empty ({@link LockEntry#emptied}) is passed on and the key dropped; a caller
 * left without a candidate ends with {@link SegmentsEmptied}, and is asked again with the
 * filter run on fresh stock. Reported to the listener as one acquisition, under the first
 * key. Read and changed only by the event an acquisition is processing.
 *
 * @author distlock
 * @since 0.1.0
 */
final class AnyKeyTurns implements AcquireGoal {

	private final int[] candidates;

	private final BitSet dropped = new BitSet();

	/** The candidates whose local turn this caller holds. */
	private final BitSet held = new BitSet();

	/** The held candidates the current round has yet to ask for. */
	private final BitSet toAsk = new BitSet();

	/** The turns queued for, by candidate. */
	private final Map<Integer, CompletableFuture<Void>> queued = new HashMap<>();

	private @Nullable LockEngine engine;

	private List<LockEntry> entries = List.of();

	/**
	 * Create the goal.
	 * @param candidates the indexes of the keys that may serve, in key order; not empty
	 */
	AnyKeyTurns(int[] candidates) {
		this.candidates = candidates.clone();
	}

	@Override
	public void bind(LockEngine engine, List<LockEntry> entries) {
		this.engine = engine;
		this.entries = entries;
	}

	/**
	 * Take the local turn of every candidate that is free and, if {@code waits}, queue
	 * for the others.
	 * @param waits whether the caller waits
	 * @param onTurn what runs when a queued turn comes, with the candidate's index
	 * @return whether a turn is held, so that the store may be asked
	 */
	boolean arrive(boolean waits, IntConsumer onTurn) {
		for (int i : this.candidates) {
			if (this.entries.get(i).queue.tryTake()) {
				this.held.set(i);
			}
		}
		if (waits) {
			for (int i : this.candidates) {
				if (this.held.get(i)) {
					continue;
				}
				CompletableFuture<Void> turn = this.entries.get(i).queue.enqueue();
				if (turn.isDone()) {
					this.held.set(i);
				}
				else {
					this.queued.put(i, turn);
					turn.thenRun(() -> onTurn.accept(i));
				}
			}
		}
		return !this.held.isEmpty();
	}

	/**
	 * A queued turn came: the caller holds it and asks for its key in the current round,
	 * after a yield if the release that passed the turn on ended a run of hand-overs (so
	 * that a client elsewhere woken by it can take the lock).
	 * @param at the candidate
	 * @return how long to yield before asking, 0 for not at all; -1 if the segment was
	 * found empty, in which case the turn is passed on and the key dropped
	 */
	long arrived(int at) {
		this.queued.remove(at);
		LockEntry entry = this.entries.get(at);
		if (entry.emptied) {
			this.dropped.set(at);
			requireEngine().passTurn(entry, null);
			return -1;
		}
		this.held.set(at);
		this.toAsk.set(at);
		return entry.yieldNanos.getAndSet(0);
	}

	/**
	 * Return whether the caller neither holds nor queues for a turn any more: every
	 * candidate was dropped as empty.
	 */
	boolean isEmptied() {
		return this.held.isEmpty() && this.queued.isEmpty() && !this.dropped.isEmpty();
	}

	/**
	 * Return whether the caller holds no turn (and so waits for one, asking nothing).
	 */
	boolean holdsNone() {
		return this.held.isEmpty();
	}

	/**
	 * Pass on a turn that came after the acquisition ended.
	 * @param at the candidate
	 */
	void passLate(int at) {
		requireEngine().passTurn(this.entries.get(at), null);
	}

	/**
	 * End the acquisition: give up the queued turns (a turn that came meanwhile is passed
	 * on by {@link #passLate} when it arrives) and, once {@code left} completes (the
	 * caller left the store's waiters, so that the next local caller registers after it),
	 * pass on every held turn but the granted key's and give up the reservations of every
	 * entry but the granted key's, which its lease keeps.
	 * @param left the caller's leaving the store's waiters
	 * @param granted the granted key, or -1
	 */
	void end(CompletionStage<Void> left, int granted) {
		this.queued.forEach((at, turn) -> this.entries.get(at).queue.abandon(turn));
		this.queued.clear();
		List<LockEntry> turns = new ArrayList<>();
		this.held.stream().filter((at) -> at != granted).forEach((at) -> turns.add(this.entries.get(at)));
		this.held.clear();
		LockEngine engine = requireEngine();
		left.whenComplete((ignored, failure) -> {
			turns.forEach((entry) -> engine.passTurn(entry, null));
			for (int i = 0; i < this.entries.size(); i++) {
				if (i != granted) {
					engine.unreserve(this.entries.get(i));
				}
			}
		});
	}

	private LockEngine requireEngine() {
		LockEngine bound = this.engine;
		if (bound == null) {
			throw new IllegalStateException("AnyKeyTurns is not bound to its entries");
		}
		return bound;
	}

	@Override
	public int start() {
		this.toAsk.or(this.held);
		int[] held = this.held.stream().toArray();
		if (held.length == 0) {
			return this.candidates[0];
		}
		int first = held[ThreadLocalRandom.current().nextInt(held.length)];
		this.toAsk.clear(first);
		return first;
	}

	@Override
	public List<Tracking> track(LockEngine engine, String name, List<LockEntry> entries) {
		Tracking tracking = Tracking.start(engine.listener, engine.listenerEvents, name, entries.get(0).key);
		return Collections.nCopies(entries.size(), tracking);
	}

	@Override
	public int afterGrant(int at) {
		return -1;
	}

	@Override
	public int next() {
		this.toAsk.and(this.held);
		int next = this.toAsk.nextSetBit(0);
		if (next >= 0) {
			this.toAsk.clear(next);
		}
		return next;
	}

	@Override
	public void released(int at) {
		if (this.held.get(at)) {
			this.toAsk.set(at);
		}
	}

	@Override
	public int restart(int current) {
		this.toAsk.clear();
		return start();
	}

	@Override
	public List<Integer> waitKeys(int current) {
		return this.held.stream().boxed().toList();
	}

	@Override
	public String busyKey(String busyKey, List<String> keys) {
		return String.valueOf(Arrays.stream(this.candidates).mapToObj(keys::get).toList());
	}

}
