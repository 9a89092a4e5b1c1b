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

import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Which keys one {@link Acquisition} must hold and in which order it asks for them: the
 * second strategy of the one acquisition pipeline, beside the kind of lock
 * ({@link AcquireVariant}). {@link AllKeys} holds every key, one after the other in key
 * order (or in one atomic request where the store can); {@link AnyKey} holds exactly one
 * of its keys, asking for them from a random start without waiting and waiting only when
 * every one was refused.
 *
 * @author distlock
 * @since 0.1.0
 */
interface AcquireGoal {

	/**
	 * Start following this goal for one acquisition.
	 * @return the index of the key to ask for first
	 */
	int start();

	/**
	 * Return how the acquisition is reported to the listener: one tracking per key.
	 * @param engine the client's engine
	 * @param name the lock name
	 * @param entries the entries of the keys, in key order
	 * @return one tracking per entry (the same one repeated where the call is reported
	 * once)
	 */
	List<Tracking> track(LockEngine engine, String name, List<LockEntry> entries);

	/**
	 * Return the key to ask for after the key at {@code at} was granted.
	 * @param at the index of the granted key
	 * @return the next index, or -1 when the goal is reached
	 */
	int afterGrant(int at);

	/**
	 * Return a key to ask for at once, without waiting, after a refusal.
	 * @return its index, or -1 to wait for a release (or give up when no time is left)
	 */
	int next();

	/**
	 * Note that a release of the key at {@code at} may have let this caller in.
	 * @param at the index of the released key
	 */
	void released(int at);

	/**
	 * Start asking again after a re-check or once subscribed to the releases.
	 * @param current the index asked for last
	 * @return the index to ask for now
	 */
	int restart(int current);

	/**
	 * Return the keys whose releases a waiting caller listens to.
	 * @param current the index asked for last
	 * @return their indexes
	 */
	List<Integer> waitKeys(int current);

	/**
	 * Return the key a refusal names when the caller gives up busy.
	 * @param busyKey the key refused last, if known
	 * @param keys every key, in key order
	 * @return the key for the {@link dev.distlock.LockAcquisitionException}
	 */
	String busyKey(String busyKey, List<String> keys);

	/**
	 * Every key, one after the other in key order: the goal of {@link LockClient#acquire}
	 * and {@link LockClient#acquireAll}.
	 *
	 * @param size how many keys
	 */
	record AllKeys(int size) implements AcquireGoal {

		@Override
		public int start() {
			return 0;
		}

		@Override
		public List<Tracking> track(LockEngine engine, String name, List<LockEntry> entries) {
			return entries.stream()
				.map((entry) -> Tracking.start(engine.listener, engine.listenerEvents, name, entry.key))
				.toList();
		}

		@Override
		public int afterGrant(int at) {
			return (at + 1 < this.size) ? at + 1 : -1;
		}

		@Override
		public int next() {
			return -1;
		}

		@Override
		public void released(int at) {
		}

		@Override
		public int restart(int current) {
			return current;
		}

		@Override
		public List<Integer> waitKeys(int current) {
			return List.of(current);
		}

		@Override
		public String busyKey(String busyKey, List<String> keys) {
			return busyKey;
		}

	}

	/**
	 * Exactly one of the candidate keys: the goal of {@link LockClient#acquireAny}. A
	 * round asks each candidate once, from a random start the first time and from the key
	 * after the last one asked for afterwards; the first grant ends the acquisition. When
	 * a round was refused throughout, the caller listens to the releases of every
	 * candidate, and asks for the released key first. Reported to the listener as one
	 * acquisition, under the first key.
	 */
	final class AnyKey implements AcquireGoal {

		private final int[] candidates;

		private final BitSet releasedKeys = new BitSet();

		/** The position in {@link #candidates} asked for last. */
		private int position;

		/** How many candidates the current round has yet to ask for. */
		private int left;

		/**
		 * Create the goal.
		 * @param candidates the indexes of the keys that may serve, in key order; not
		 * empty
		 */
		AnyKey(int[] candidates) {
			this.candidates = candidates.clone();
		}

		@Override
		public int start() {
			this.position = ThreadLocalRandom.current().nextInt(this.candidates.length);
			this.left = this.candidates.length - 1;
			return this.candidates[this.position];
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
			if (this.left > 0) {
				this.left--;
				this.position = (this.position + 1) % this.candidates.length;
				int next = this.candidates[this.position];
				this.releasedKeys.clear(next);
				return next;
			}
			int released = this.releasedKeys.nextSetBit(0);
			if (released >= 0) {
				this.releasedKeys.clear(released);
			}
			return released;
		}

		@Override
		public void released(int at) {
			this.releasedKeys.set(at);
		}

		@Override
		public int restart(int current) {
			this.releasedKeys.clear();
			this.left = this.candidates.length - 1;
			this.position = (this.position + 1) % this.candidates.length;
			return this.candidates[this.position];
		}

		@Override
		public List<Integer> waitKeys(int current) {
			return Arrays.stream(this.candidates).boxed().toList();
		}

		@Override
		public String busyKey(String busyKey, List<String> keys) {
			return String.valueOf(Arrays.stream(this.candidates).mapToObj(keys::get).toList());
		}

	}

}
