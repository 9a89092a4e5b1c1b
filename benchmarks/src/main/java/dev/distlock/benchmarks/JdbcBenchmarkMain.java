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
import dev.distlock.benchmarks.report.JdbcMeasurements.ContendedRounds;
import dev.distlock.benchmarks.report.JdbcMeasurements.Uncontended;
import dev.distlock.benchmarks.report.JdbcReport;
import dev.distlock.benchmarks.report.Machine;
import dev.distlock.benchmarks.report.Outcome;
import dev.distlock.benchmarks.workload.CommitsWorkload;
import dev.distlock.benchmarks.workload.ContendedResult;
import dev.distlock.benchmarks.workload.HeldConnectionsWorkload;
import dev.distlock.benchmarks.workload.JdbcContendedWorkload;
import dev.distlock.benchmarks.workload.Latency;
import dev.distlock.benchmarks.workload.Phases;
import dev.distlock.benchmarks.workload.Rotation;
import dev.distlock.benchmarks.workload.UncontendedWorkload;
import dev.distlock.testing.RunProvenance;

/**
 * Runs the JDBC benchmarks: distlock's JDBC store, ShedLock's JDBC provider and Spring
 * Integration's {@code JdbcLockRegistry}, on the PostgreSQL and the MariaDB that answer
 * on 127.0.0.1 (each in a database of the run's own, dropped at the end), and writes the
 * Markdown results with the targets' ratios. Every timed workload runs a warm-up round of
 * every library, then measured rounds that take the libraries in a rotated order
 * ({@link Rotation}); the results record the load average, each server's version and
 * commit durability setting, and the commits per operation it counted. System properties:
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

	private static final int COMMIT_COUNT_OPERATIONS = 500;

	private static final List<JdbcContender> LIBRARIES = List.of(JdbcContender.values());

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
		int commitOperations = quick ? COMMIT_COUNT_OPERATIONS / 10 : COMMIT_COUNT_OPERATIONS;
		Path output = Path.of(System.getProperty("benchmarks.output", "results/jdbc-benchmark-results.md"));
		Path work = Files.createTempDirectory("distlock-jdbc-benchmarks");
		Instant started = Instant.now();
		String loadAtStart = RunProvenance.loadAverage();
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
			String databaseLoadAtStart = RunProvenance.loadAverage();
			measurements.database = name;
			measurements.version = target.version();
			measurements.durability = target.durability();
			try {
				target.recreate();
				UncontendedWorkload uncontended = new UncontendedWorkload(uncontendedPhases);
				measurements.uncontendedSingle.putAll(uncontended(uncontended, target, 1, rounds));
				measurements.uncontendedMulti.putAll(uncontended(uncontended, target, THREADS, rounds));
				CommitsWorkload commits = new CommitsWorkload(commitOperations);
				for (JdbcContender contender : LIBRARIES) {
					log(name + ": commits per operation, " + contender.label());
					// a key of the 1-thread rounds, which every library used before
					measurements.commits.put(contender,
							Outcome.of(() -> commits.run(contender, target, UncontendedWorkload.key(1, 0))));
				}
				JdbcContendedWorkload contended = new JdbcContendedWorkload(contendedPhases, PROCESSES,
						THREADS_PER_PROCESS, work);
				measurements.contended.putAll(contended(contended, target, rounds));
				HeldConnectionsWorkload held = new HeldConnectionsWorkload(HELD_LOCKS);
				for (JdbcContender contender : LIBRARIES) {
					log(name + ": connections held, " + contender.label());
					measurements.held.put(contender, Outcome.of(() -> held.run(contender, target)));
				}
			}
			finally {
				target.drop();
			}
			measurements.loadAverages = databaseLoadAtStart + " / " + RunProvenance.loadAverage();
			measured.add(measurements);
		}
		Machine machine = Machine.current("n/a");
		String settings = "uncontended 1 warm-up round + " + rounds(rounds)
				+ " measured, each taking the libraries in a rotated order, each run " + seconds(uncontendedPhases)
				+ "; contended " + PROCESSES + " processes x " + THREADS_PER_PROCESS + " threads, " + rounds(rounds)
				+ " in a rotated order, each run " + seconds(contendedPhases) + "; commits counted over "
				+ commitOperations + " acquire+release pairs per library; " + HELD_LOCKS
				+ " locks held for the connection count" + (quick ? "; QUICK RUN: the figures mean nothing" : "");
		String report = new JdbcReport(machine, settings).render(RunProvenance.commit("benchmarks.commit"), started,
				Instant.now(), loadAtStart + " / " + RunProvenance.loadAverage(), measured, skipped);
		Files.createDirectories(output.toAbsolutePath().getParent());
		Files.writeString(output, report);
		System.out.println(report);
		log("results written to " + output.toAbsolutePath() + "; worker logs in " + work);
		System.exit(0);
	}

	/**
	 * Run the uncontended workload: a warm-up round of every library, then rounds that
	 * take the libraries in a rotated order, so that a change in the machine's load hits
	 * all of them alike and none always runs first.
	 */
	private static Map<JdbcContender, Outcome<Uncontended>> uncontended(UncontendedWorkload workload, JdbcTarget target,
			int threads, int rounds) {
		Map<JdbcContender, List<Double>> throughputs = new EnumMap<>(JdbcContender.class);
		Map<JdbcContender, List<long[]>> samples = new EnumMap<>(JdbcContender.class);
		Map<JdbcContender, Outcome<Uncontended>> results = new EnumMap<>(JdbcContender.class);
		for (int round = -1; round < rounds; round++) {
			for (JdbcContender contender : (round < 0) ? LIBRARIES : Rotation.order(LIBRARIES, round)) {
				if (results.containsKey(contender)) {
					continue;
				}
				log(target.label() + ": uncontended, " + threads + " thread(s), "
						+ ((round < 0) ? "warm-up round" : "round " + (round + 1)) + ": " + contender.label());
				try (JdbcLockContender lock = contender.connect(target, Duration.ofSeconds(30))) {
					long[] latencies = workload.run(lock, threads);
					if (round >= 0) {
						throughputs.computeIfAbsent(contender, (key) -> new ArrayList<>())
							.add(latencies.length / (workload.phases().measure().toNanos() / 1e9));
						samples.computeIfAbsent(contender, (key) -> new ArrayList<>()).add(latencies);
					}
				}
				catch (Exception ex) {
					results.put(contender, Outcome.failed(ex.getClass().getSimpleName() + ": " + ex.getMessage()));
				}
			}
		}
		for (JdbcContender contender : LIBRARIES) {
			if (!results.containsKey(contender)) {
				List<Double> ops = throughputs.get(contender);
				long[] all = samples.get(contender).stream().flatMapToLong(Arrays::stream).toArray();
				results.put(contender,
						Outcome.success(new Uncontended(Rotation.median(ops), Latency.of(all), List.copyOf(ops))));
			}
		}
		return results;
	}

	/**
	 * Run the contended workload in rounds that take the libraries in a rotated order.
	 */
	private static Map<JdbcContender, Outcome<ContendedRounds>> contended(JdbcContendedWorkload workload,
			JdbcTarget target, int rounds) {
		Map<JdbcContender, List<ContendedResult>> measured = new EnumMap<>(JdbcContender.class);
		Map<JdbcContender, Outcome<ContendedRounds>> results = new EnumMap<>(JdbcContender.class);
		for (int round = 0; round < rounds; round++) {
			for (JdbcContender contender : Rotation.order(LIBRARIES, round)) {
				if (results.containsKey(contender)) {
					continue;
				}
				log(target.label() + ": contended, round " + (round + 1) + ": " + contender.label());
				Outcome<ContendedResult> outcome = Outcome.of(() -> workload.run(contender, target));
				if (outcome.value() != null) {
					measured.computeIfAbsent(contender, (key) -> new ArrayList<>()).add(outcome.value());
				}
				else {
					results.put(contender, Outcome.failed(String.valueOf(outcome.failure())));
				}
			}
		}
		for (JdbcContender contender : LIBRARIES) {
			results.computeIfAbsent(contender,
					(key) -> Outcome.success(new ContendedRounds(List.copyOf(measured.get(contender)))));
		}
		return results;
	}

	private static String rounds(int rounds) {
		return rounds + ((rounds == 1) ? " round" : " rounds");
	}

	private static String seconds(Phases phases) {
		return phases.warmup().toMillis() / 1000.0 + " s warm-up + " + phases.measure().toMillis() / 1000.0
				+ " s measured";
	}

	private static void log(String message) {
		System.err.println("[jdbc benchmarks " + Instant.now() + "] " + message);
	}

}
