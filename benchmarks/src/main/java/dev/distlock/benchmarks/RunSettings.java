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

package dev.distlock.benchmarks;

import java.time.Duration;

import dev.distlock.benchmarks.contender.Contender;
import dev.distlock.benchmarks.workload.Phases;

/**
 * How long and how wide a run measures; the same for every library.
 *
 * @param uncontended warm-up and window of each uncontended measurement
 * @param uncontendedRounds measured rounds of uncontended measurements, taking the
 * libraries in turn, after a warm-up round
 * @param threads threads of the multi-threaded uncontended measurement
 * @param contended warm-up and window of each contended measurement
 * @param processes worker processes of the contended measurement
 * @param threadsPerProcess threads per worker process
 * @param wideContended warm-up and window of the contended measurement of distlock with
 * more processes
 * @param wideProcesses worker processes of that measurement
 * @param heldLocks locks held at once under the watchdog
 * @param heldLease watchdog lease while holding them
 * @param heldWindow how long renewal commands are counted
 * @param jmhIterationSeconds length of each JMH iteration
 * @param asyncWaiters asynchronous waiters waiting at once, one per busy key
 * @author distlock
 * @since 0.1.0
 */
public record RunSettings(Phases uncontended, int uncontendedRounds, int threads, Phases contended, int processes,
		int threadsPerProcess, Phases wideContended, int wideProcesses, int heldLocks, Duration heldLease,
		Duration heldWindow, int jmhIterationSeconds, int asyncWaiters) {

	/**
	 * Locks lock4j holds in the held-locks run: its Redis executor starts a
	 * {@link java.util.Timer} thread per held lock, so it holds a tenth.
	 */
	static final int LOCK4J_HELD_DIVISOR = 10;

	/**
	 * Return the settings of a full run, which takes about seven and a half minutes on
	 * two cores.
	 * @return the settings
	 */
	public static RunSettings full() {
		return new RunSettings(new Phases(Duration.ofSeconds(1), Duration.ofSeconds(2)), 3, 16,
				new Phases(Duration.ofSeconds(3), Duration.ofSeconds(10)), 4, 4,
				new Phases(Duration.ofSeconds(3), Duration.ofSeconds(6)), 8, 10_000, Duration.ofSeconds(3),
				Duration.ofSeconds(6), 1, 10_000);
	}

	/**
	 * Return the settings of a quick smoke run, whose figures are not meaningful.
	 * @return the settings
	 */
	public static RunSettings quick() {
		return new RunSettings(new Phases(Duration.ofMillis(300), Duration.ofMillis(500)), 1, 16,
				new Phases(Duration.ofMillis(500), Duration.ofSeconds(1)), 4, 4,
				new Phases(Duration.ofMillis(500), Duration.ofSeconds(1)), 8, 1_000, Duration.ofSeconds(3),
				Duration.ofSeconds(3), 1, 1_000);
	}

	/**
	 * Return how many locks a library holds in the held-locks run.
	 * @param contender the library
	 * @return the number of locks
	 */
	public int heldLocks(Contender contender) {
		return (contender == Contender.LOCK4J) ? this.heldLocks / LOCK4J_HELD_DIVISOR : this.heldLocks;
	}

	/**
	 * Describe the phases for the results.
	 * @return the description
	 */
	public String describe() {
		return "uncontended 1 warm-up + " + this.uncontendedRounds
				+ " measured rounds taking the libraries in turn, each " + seconds(this.uncontended) + "; contended "
				+ seconds(this.contended) + " (warm-up + measured, per library); distlock with " + this.wideProcesses
				+ " processes " + seconds(this.wideContended) + "; read-write " + seconds(this.contended) + " per run; "
				+ this.asyncWaiters + " asynchronous waiters";
	}

	private static String seconds(Phases phases) {
		return phases.warmup().toMillis() / 1000.0 + " s + " + phases.measure().toMillis() / 1000.0 + " s";
	}

}
