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

/**
 * Which keys one {@link Acquisition} must hold and in which order it asks for them: the
 * second strategy of the one acquisition pipeline, beside the kind of lock
 * ({@link AcquireVariant}). {@link AllKeys} holds every key, one after the other in key
 * order (or in one atomic request where the store can); {@link AnyKeyTurns} holds exactly
 * one of its keys, through their local turns.
 *
 * @author distlock
 * @since 0.1.0
 */
interface AcquireGoal {

	/**
	 * Bind this goal to the local entries of its keys, before it starts; a goal that
	 * takes local turns itself keeps them.
	 * @param engine the client's engine
	 * @param entries the entries of the keys, in key order
	 */
	default void bind(LockEngine engine, List<LockEntry> entries) {
	}

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

}
