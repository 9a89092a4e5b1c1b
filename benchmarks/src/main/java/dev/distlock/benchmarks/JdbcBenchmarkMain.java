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

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import dev.distlock.benchmarks.contender.JdbcContender;
import dev.distlock.benchmarks.contender.JdbcLockContender;
import dev.distlock.benchmarks.report.JdbcMeasurements;
import dev.distlock.benchmarks.report.JdbcMeasurements.Uncontended;
import dev.distlock.benchmarks.report.JdbcReport;
import dev.distlock.benchmarks.report.Machine;
import dev.distlock.benchmarks.report.Outcome;
import dev.distlock.benchmarks.workload.HeldConnectionsWorkload;
import dev.distlock.benchmarks.workload.JdbcContendedWorkload;
import dev.distlock.benchmarks.workload.Latency;
import dev.distlock.benchmarks.workload.Phases;
import dev.distlock.benchmarks.workload.UncontendedWorkload;
import dev.distlock.testing.RunProvenance;

/**
 * Runs the JDBC benchmarks: distlock's JDBC store, ShedLock's JDBC provider and Spring
 * Integration's {@code JdbcLockRegistry}, on the PostgreSQL and the MariaDB that answer
 * on 127.0.0.1 (each in a schema or database of the run's own, dropped at the end), and
 * writes the Markdown results with the targets' ratios. System properties:
 * {@code benchmarks.quick=true} for a short smoke run, {@code benchmarks.output} for the
 * results file (default {@code results/jdbc-benchmark-results.md}).
 *
 * @author distlock
 * @since 0.1.0
 */
public final class JdbcBenchmarkMain {

	private static final int ROUNDS = 3;

	private static final int THREADS = 16;

	private static final int PROCESSES = 4;

	private static final int THREADS_PER_PROCESS = 4;

	private static final int HELD_LOCKS = 50;

	private JdbcBenchmarkMain() {
	}

	/**
	 * Run the benchmarks.
	 * @param args not used
	 * @throws Exception if the results cannot be written
	 */
	public static void main(String[] args) throws Exception {
		boolean quick = Boolean.getBoolean("benchmarks.quick");
		Phases uncontendedPhases = quick ? new Phases(Duration.ofMillis(300), Duration.ofMillis(500))
				: new Phases(Duration.ofSeconds(1), Duration.ofSeconds(2));
		Phases contendedPhases = quick ? new Phases(Duration.ofMillis(500), Duration.ofSeconds(1))
				: new Phases(Duration.ofSeconds(3), Duration.ofSeconds(10));
		int rounds = quick ? 1 : ROUNDS;
		Path output = Path.of(System.getProperty("benchmarks.output", "results/jdbc-benchmark-results.md"));
		Path work = Files.createTempDirectory("distlock-jdbc-benchmarks");
		Instant started = Instant.now();
		List<JdbcMeasurements> measured = new ArrayList<>();
		List<String> skipped = new ArrayList<>();
		for (String name : List.of("PostgreSQL", "MariaDB")) {
			JdbcTarget target = "PostgreSQL".equals(name) ? JdbcTarget.postgres() : JdbcTarget.mariadb();
			if (target == null) {
				log(name + " does not answer on 127.0.0.1: skipped");
				skipped.add(name);
				continue;
			}
			JdbcMeasurements measurements = new JdbcMeasurements();
			measurements.database = name;
			measurements.version = target.version();
			try {
				UncontendedWorkload uncontended = new UncontendedWorkload(uncontendedPhases);
				log(name + ": uncontended, 1 thread");
				measurements.uncontendedSingle.putAll(uncontended(uncontended, target, 1, rounds));
				log(name + ": uncontended, " + THREADS + " threads");
				measurements.uncontendedMulti.putAll(uncontended(uncontended, target, THREADS, rounds));
				JdbcContendedWorkload contended = new JdbcContendedWorkload(contendedPhases, PROCESSES,
						THREADS_PER_PROCESS, work);
				HeldConnectionsWorkload held = new HeldConnectionsWorkload(HELD_LOCKS);
				for (JdbcContender contender : JdbcContender.values()) {
					log(name + ": contended, " + contender.label());
					measurements.contended.put(contender, Outcome.of(() -> contended.run(contender, target)));
					log(name + ": connections held, " + contender.label());
					measurements.held.put(contender, Outcome.of(() -> held.run(contender, target)));
				}
			}
			finally {
				target.drop();
			}
			measured.add(measurements);
		}
		Machine machine = Machine.current("n/a");
		String settings = "uncontended " + rounds + " rounds taking the libraries in turn, each "
				+ seconds(uncontendedPhases) + "; contended " + PROCESSES + " processes x " + THREADS_PER_PROCESS
				+ " threads, " + seconds(contendedPhases) + "; " + HELD_LOCKS + " locks held for the connection count"
				+ (quick ? "; QUICK RUN: the figures mean nothing" : "");
		String report = new JdbcReport(machine, settings).render(RunProvenance.commit("benchmarks.commit"), started,
				Instant.now(), measured, skipped);
		Files.createDirectories(output.toAbsolutePath().getParent());
		Files.writeString(output, report);
		System.out.println(report);
		log("results written to " + output.toAbsolutePath() + "; worker logs in " + work);
		System.exit(0);
	}

	/**
	 * Run the uncontended workload in rounds that take the libraries in turn, so that a
	 * change in the machine's load hits all of them alike.
	 */
	private static Map<JdbcContender, Outcome<Uncontended>> uncontended(UncontendedWorkload workload, JdbcTarget target,
			int threads, int rounds) throws Exception {
		target.recreate();
		Map<JdbcContender, List<Double>> throughputs = new EnumMap<>(JdbcContender.class);
		Map<JdbcContender, List<long[]>> samples = new EnumMap<>(JdbcContender.class);
		Map<JdbcContender, Outcome<Uncontended>> results = new EnumMap<>(JdbcContender.class);
		for (int round = 0; round < rounds; round++) {
			for (JdbcContender contender : JdbcContender.values()) {
				if (results.containsKey(contender)) {
					continue;
				}
				try (JdbcLockContender lock = contender.connect(target, Duration.ofSeconds(30))) {
					long[] latencies = workload.run(lock, threads);
					throughputs.computeIfAbsent(contender, (key) -> new ArrayList<>())
						.add(latencies.length / (workload.phases().measure().toNanos() / 1e9));
					samples.computeIfAbsent(contender, (key) -> new ArrayList<>()).add(latencies);
				}
				catch (Exception ex) {
					results.put(contender, Outcome.failed(ex.getClass().getSimpleName() + ": " + ex.getMessage()));
				}
			}
		}
		for (JdbcContender contender : JdbcContender.values()) {
			if (!results.containsKey(contender)) {
				List<Double> ops = new ArrayList<>(throughputs.get(contender));
				ops.sort(null);
				long[] all = samples.get(contender).stream().flatMapToLong(Arrays::stream).toArray();
				results.put(contender, Outcome.success(new Uncontended(ops.get(ops.size() / 2), Latency.of(all))));
			}
		}
		return results;
	}

	private static String seconds(Phases phases) {
		return phases.warmup().toMillis() / 1000.0 + " s warm-up + " + phases.measure().toMillis() / 1000.0
				+ " s measured";
	}

	private static void log(String message) {
		System.err.println("[jdbc benchmarks " + Instant.now() + "] " + message);
	}

}
