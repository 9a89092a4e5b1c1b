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

package dev.distlock.benchmarks.report;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import dev.distlock.benchmarks.contender.JdbcContender;
import dev.distlock.benchmarks.workload.CommitsWorkload;
import dev.distlock.benchmarks.workload.ContendedResult;
import dev.distlock.benchmarks.workload.HeldConnectionsWorkload;
import dev.distlock.benchmarks.workload.Latency;
import dev.distlock.benchmarks.workload.Rotation;

/**
 * What a JDBC run measured on one database, filled in as the run goes.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class JdbcMeasurements {

	/** The database, as the results name it. */
	public String database = "";

	/** Its product name and version. */
	public String version = "";

	/**
	 * Its setting that decides whether a commit waits for its flush, as
	 * {@code name = value}.
	 */
	public String durability = "";

	/** The machine's load average (1 min) when this database's runs started and ended. */
	public String loadAverages = "";

	/** Uncontended acquire+release, 1 thread. */
	public final Map<JdbcContender, Outcome<Uncontended>> uncontendedSingle = new EnumMap<>(JdbcContender.class);

	/** Uncontended acquire+release, 16 threads. */
	public final Map<JdbcContender, Outcome<Uncontended>> uncontendedMulti = new EnumMap<>(JdbcContender.class);

	/** Commits per uncontended acquire+release, as the database counts them. */
	public final Map<JdbcContender, Outcome<CommitsWorkload.Result>> commits = new EnumMap<>(JdbcContender.class);

	/** One key, 4 processes x 4 threads, in rounds. */
	public final Map<JdbcContender, Outcome<ContendedRounds>> contended = new EnumMap<>(JdbcContender.class);

	/** Connections held while locks are held. */
	public final Map<JdbcContender, Outcome<HeldConnectionsWorkload.Result>> held = new EnumMap<>(JdbcContender.class);

	/**
	 * Uncontended figures of one library: the median of its rounds' throughputs, and the
	 * latency over all rounds.
	 *
	 * @param opsPerSecond median throughput over the rounds
	 * @param latency acquire+release latency
	 * @param roundOpsPerSecond the throughput of each round, in the order of the rounds
	 */
	public record Uncontended(double opsPerSecond, Latency latency, List<Double> roundOpsPerSecond) {

	}

	/**
	 * Contended figures of one library, one result per measured round, in the order of
	 * the rounds.
	 *
	 * @param rounds the rounds' results, at least one
	 */
	public record ContendedRounds(List<ContendedResult> rounds) {

		/**
		 * Return the median of the rounds' throughputs.
		 * @return critical sections per second
		 */
		public double opsPerSecond() {
			return Rotation.median(this.rounds.stream().map(ContendedResult::opsPerSecond).toList());
		}

		/**
		 * Return the median of the rounds' p99 waits.
		 * @return the wait in nanoseconds
		 */
		public long p99WaitNanos() {
			return (long) Rotation
				.median(this.rounds.stream().map((round) -> (double) round.acquireWait().p99Nanos()).toList());
		}

		/**
		 * Return the median of the rounds' shares of hand-offs that crossed processes.
		 * @return the share, from 0 to 1
		 */
		public double crossProcessShare() {
			return Rotation.median(this.rounds.stream().map(ContendedResult::crossProcessShare).toList());
		}

		/**
		 * Return the exclusion violations of every round.
		 * @return lost updates plus overlaps, summed
		 */
		public long violations() {
			return this.rounds.stream().mapToLong(ContendedResult::violations).sum();
		}

	}

}
