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

package dev.distlock.benchmarks.workload;

import java.time.Duration;
import java.util.Map;

/**
 * Outcome of the contended workload.
 *
 * @param processes how many worker processes ran
 * @param threadsPerProcess how many threads each ran
 * @param holds critical sections in the measured window
 * @param opsPerSecond critical sections per second, all processes together
 * @param acquireWait time from asking for the lock to holding it
 * @param handoff time from a holder starting its release to the next holder holding the
 * lock, where the next holder was already waiting
 * @param lostUpdates critical sections whose counter increment was lost (must be 0)
 * @param overlaps measured critical sections that began before an earlier one ended (must
 * be 0)
 * @param timeouts acquires whose 30 second wait ran out
 * @param overtaken measured holds granted after a hold that asked for the lock later (any
 * later, on the shared {@link System#nanoTime()} clock)
 * @param overtakenBeyondTolerance measured holds granted after a hold that asked more
 * than {@link #FIFO_TOLERANCE} later
 * @param largestOvertakingNanos by how much the furthest overtaking hold asked later than
 * the hold it overtook, 0 when none was overtaken
 * @param commandsPerOp Redis commands per measured critical section, by name, counted by
 * {@code INFO commandstats} over the measured window, including those scripts ran and the
 * counter's {@code GET} and {@code SET}
 * @author distlock
 * @since 0.1.0
 */
public record ContendedResult(int processes, int threadsPerProcess, long holds, double opsPerSecond,
		Latency acquireWait, Latency handoff, Latency crossProcessHandoff, double crossProcessShare, long lostUpdates,
		long overlaps, long timeouts, long overtaken, long overtakenBeyondTolerance, long largestOvertakingNanos,
		Map<String, Double> commandsPerOp) {

	/**
	 * How much later a caller must have asked for the lock for its earlier grant to count
	 * as out of FIFO order: a contended fair acquire first tries once, then subscribes
	 * and joins the queue in Redis with its next script, so its place is taken a few
	 * round trips (and, on a loaded machine, thread wake-ups) after it asked.
	 */
	public static final Duration FIFO_TOLERANCE = Duration.ofMillis(5);

	/**
	 * Return the number of mutual exclusion violations seen either way.
	 * @return lost updates plus overlaps
	 */
	public long violations() {
		return this.lostUpdates + this.overlaps;
	}

}
