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

import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;

import dev.distlock.benchmarks.contender.Contender;
import dev.distlock.benchmarks.workload.AsyncWaitersResult;
import dev.distlock.benchmarks.workload.ClusterRenewalResult;
import dev.distlock.benchmarks.workload.ContendedResult;
import dev.distlock.benchmarks.workload.HeldLocksResult;
import dev.distlock.benchmarks.workload.Latency;
import dev.distlock.benchmarks.workload.ReadWriteResult;
import dev.distlock.benchmarks.workload.ReaderRenewalWorkload.ReaderRenewalResult;
import dev.distlock.benchmarks.workload.Throughput;
import org.jspecify.annotations.Nullable;

/**
 * Everything one run measured, per contender.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class Measurements {

	/** Uncontended, one thread. */
	public final Map<Contender, Outcome<Throughput>> uncontendedSingle = new EnumMap<>(Contender.class);

	/** Uncontended, many threads on distinct keys. */
	public final Map<Contender, Outcome<Throughput>> uncontendedMulti = new EnumMap<>(Contender.class);

	/** One key across several processes. */
	public final Map<Contender, Outcome<ContendedResult>> contended = new EnumMap<>(Contender.class);

	/**
	 * One key across more processes, distlock in its default mode only.
	 */
	public Outcome<ContendedResult> contendedWide = Outcome.notApplicable("not run");

	/** Many locks held under the watchdog. */
	public final Map<Contender, Outcome<HeldLocksResult>> held = new EnumMap<>(Contender.class);

	/** Many readers and one writer on one key, readers taking the read lock. */
	public final Map<Contender, Outcome<ReadWriteResult>> readWrite = new EnumMap<>(Contender.class);

	/**
	 * The same work with distlock's write lock only (readers take the write lock too).
	 */
	public Outcome<ReadWriteResult> writeLockOnly = Outcome.notApplicable("not run");

	/** Many asynchronous waiters on busy keys, distlock only. */
	public Outcome<AsyncWaitersResult> asyncWaiters = Outcome.notApplicable("not run");

	/**
	 * Renewal of read locks on a key held by many readers, Redis time per batch.
	 */
	public Outcome<ReaderRenewalResult> readerRenewal = Outcome.notApplicable("not run");

	/**
	 * Many locks held on a three-master Redis Cluster, distlock only: renewal rounds
	 * against the renewal interval.
	 */
	public Outcome<ClusterRenewalResult> clusterRenewal = Outcome.notApplicable("not run");

	/** Round-trip time of {@code PING} on the benchmark Redis. */
	public Latency roundTrip = new Latency(0, 0, 0);

	/** The machine's 1-minute load average at the start and at the end of the run. */
	public String loadAverages = "";

	/**
	 * The commit the run measured ({@code git rev-parse --short HEAD}), for the
	 * provenance line.
	 */
	public String commit = "unknown";

	/** When the run started, for the provenance line's duration. */
	public Instant started = Instant.EPOCH;

	/** JMH benchmark method to nanoseconds per call. */
	public Outcome<Map<String, Double>> annotation = Outcome.notApplicable("not run");

	/**
	 * Return the value measured for a contender, if it was measured successfully.
	 * @param <T> the result type
	 * @param results the results of one workload
	 * @param contender the contender
	 * @return the value, or {@code null}
	 */
	static <T> @Nullable T valueOf(Map<Contender, Outcome<T>> results, Contender contender) {
		Outcome<T> outcome = results.get(contender);
		return (outcome != null) ? outcome.value() : null;
	}

}
