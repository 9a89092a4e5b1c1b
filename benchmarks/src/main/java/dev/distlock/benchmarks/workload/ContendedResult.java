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

import java.util.Map;

/**
 * Outcome of the contended workload.
 *
 * @param processes how many worker processes ran
 * @param threadsPerProcess how many threads each ran
 * @param opsPerSecond critical sections per second, all processes together
 * @param acquireWait time from asking for the lock to holding it
 * @param handoff time from a holder starting its release to the next holder holding the
 * lock, where the next holder was already waiting
 * @param lostUpdates critical sections whose counter increment was lost (must be 0)
 * @param overlaps measured critical sections that began before an earlier one ended (must
 * be 0)
 * @param timeouts acquires whose 30 second wait ran out
 * @param commandsPerOp Redis commands per critical section over the whole run, by name,
 * including those scripts ran and the counter's {@code GET} and {@code SET}
 * @author distlock
 * @since 0.1.0
 */
public record ContendedResult(int processes, int threadsPerProcess, double opsPerSecond, Latency acquireWait,
		Latency handoff, Latency crossProcessHandoff, double crossProcessShare, long lostUpdates, long overlaps,
		long timeouts, Map<String, Double> commandsPerOp) {

	/**
	 * Return the number of mutual exclusion violations seen either way.
	 * @return lost updates plus overlaps
	 */
	public long violations() {
		return this.lostUpdates + this.overlaps;
	}

}
