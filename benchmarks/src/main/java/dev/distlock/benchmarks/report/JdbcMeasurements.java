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
import java.util.Map;

import dev.distlock.benchmarks.contender.JdbcContender;
import dev.distlock.benchmarks.workload.ContendedResult;
import dev.distlock.benchmarks.workload.HeldConnectionsWorkload;
import dev.distlock.benchmarks.workload.Latency;

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

	/** Uncontended acquire+release, 1 thread. */
	public final Map<JdbcContender, Outcome<Uncontended>> uncontendedSingle = new EnumMap<>(JdbcContender.class);

	/** Uncontended acquire+release, 16 threads. */
	public final Map<JdbcContender, Outcome<Uncontended>> uncontendedMulti = new EnumMap<>(JdbcContender.class);

	/** One key, 4 processes x 4 threads. */
	public final Map<JdbcContender, Outcome<ContendedResult>> contended = new EnumMap<>(JdbcContender.class);

	/** Connections held while locks are held. */
	public final Map<JdbcContender, Outcome<HeldConnectionsWorkload.Result>> held = new EnumMap<>(JdbcContender.class);

	/**
	 * Uncontended figures of one library: the median of its rounds' throughputs, and the
	 * latency over all rounds.
	 *
	 * @param opsPerSecond median throughput over the rounds
	 * @param latency acquire+release latency
	 */
	public record Uncontended(double opsPerSecond, Latency latency) {

	}

}
