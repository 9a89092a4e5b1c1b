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

package dev.distlock.faults;

/**
 * One hold of a lock by a workload worker: when it was granted, when its holder stopped
 * believing it held the lock, and what its writes and its release came to. Times are
 * {@link System#nanoTime()} readings, comparable across the processes of one Linux host
 * ({@code CLOCK_MONOTONIC}).
 *
 * @param worker the worker's name
 * @param key the lock key
 * @param fencingToken the fencing token of the grant
 * @param acquiredAt when the acquisition returned
 * @param lossObservedAt when the holder first saw the hold invalid or lost, {@code 0} if
 * it never did
 * @param releasedAt when the holder started releasing
 * @param unfenced whether the unfenced write was made
 * @param fenced what became of the fenced write
 * @param release what the release said
 * @param victim whether the fault was injected right after this grant
 * @author distlock
 */
record Cycle(String worker, String key, long fencingToken, long acquiredAt, long lossObservedAt, long releasedAt,
		boolean unfenced, Fenced fenced, Release release, boolean victim) {

	/**
	 * What became of the write to the fenced row.
	 */
	enum Fenced {

		/**
		 * Claimed and written.
		 */
		ACCEPTED,

		/**
		 * Refused: a higher token claimed the row first.
		 */
		REJECTED,

		/**
		 * Not attempted: the holder saw its hold invalid before writing.
		 */
		SKIPPED

	}

	/**
	 * What the release said.
	 */
	enum Release {

		/**
		 * Released normally.
		 */
		RELEASED,

		/**
		 * {@code LockLostException}: the lock was lost before the release.
		 */
		LOST,

		/**
		 * {@code LockBackendException}: Redis could not be reached.
		 */
		FAILED

	}

	/**
	 * Return when the holder stopped believing it held the lock: when it saw the hold
	 * lost or invalid, else when it released it.
	 * @return the end of the belief
	 */
	long beliefEnd() {
		return (this.lossObservedAt != 0) ? Math.min(this.lossObservedAt, this.releasedAt) : this.releasedAt;
	}

	/**
	 * Return whether the holder was told or saw that the hold was lost or invalid.
	 * @return whether it learned of a loss
	 */
	boolean lossDetected() {
		return this.lossObservedAt != 0 || this.release == Release.LOST;
	}

	/**
	 * Return the cycle as one line of text, for a client process to report it.
	 * @return the line
	 */
	String toLine() {
		return String.join(" ", this.worker, this.key, Long.toString(this.fencingToken), Long.toString(this.acquiredAt),
				Long.toString(this.lossObservedAt), Long.toString(this.releasedAt), Boolean.toString(this.unfenced),
				this.fenced.name(), this.release.name(), Boolean.toString(this.victim));
	}

	/**
	 * Read a cycle written by {@link #toLine()}.
	 * @param line the line
	 * @return the cycle
	 */
	static Cycle fromLine(String line) {
		String[] f = line.split(" ");
		return new Cycle(f[0], f[1], Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]),
				Long.parseLong(f[5]), Boolean.parseBoolean(f[6]), Fenced.valueOf(f[7]), Release.valueOf(f[8]),
				Boolean.parseBoolean(f[9]));
	}

}
