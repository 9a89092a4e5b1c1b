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

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import dev.distlock.benchmarks.annotation.AnnotationOverhead;
import dev.distlock.benchmarks.contender.Contender;
import dev.distlock.benchmarks.report.Machine;
import dev.distlock.benchmarks.report.MarkdownReport;
import dev.distlock.benchmarks.report.Measurements;
import dev.distlock.benchmarks.report.Outcome;
import dev.distlock.benchmarks.report.ReportCharts;
import dev.distlock.benchmarks.workload.AsyncWaitersWorkload;
import dev.distlock.benchmarks.workload.ClusterRenewalWorkload;
import dev.distlock.benchmarks.workload.ContendedWorkload;
import dev.distlock.benchmarks.workload.HeldLocksWorkload;
import dev.distlock.benchmarks.workload.Latency;
import dev.distlock.benchmarks.workload.ReadWriteWorkload;
import dev.distlock.benchmarks.workload.ReaderRenewalWorkload;
import dev.distlock.benchmarks.workload.UncontendedRounds;
import dev.distlock.benchmarks.workload.UncontendedWorkload;
import dev.distlock.testing.RunProvenance;

/**
 * Runs every workload against every library on one Redis it starts itself, and writes the
 * Markdown results. System properties: {@code benchmarks.quick=true} for a short smoke
 * run, {@code benchmarks.output} for the results file (default
 * {@code results/benchmark-results.md}), {@code benchmarks.contenders} for the libraries
 * (names of {@link Contender}, default all), and {@code benchmarks.workloads} for the
 * workloads (names of {@link Workload}, comma-separated, default all: for example
 * {@code read-write,cluster-renewal} runs the read-write runs and the Cluster renewal
 * alone, and the report shows the other targets as not run).
 *
 * @author distlock
 * @since 0.1.0
 */
public final class BenchmarkMain {

	private static final int ROUND_TRIP_SAMPLES = 20_000;

	private static final int READERS = 16;

	private static final int CLUSTER_LOCKS = 10_000;

	private static final int QUICK_CLUSTER_LOCKS = 1_000;

	/** Renewed every second. */
	private static final Duration CLUSTER_LEASE = Duration.ofSeconds(3);

	private BenchmarkMain() {
	}

	/**
	 * Run the benchmarks.
	 * @param args not used
	 * @throws Exception if Redis cannot be started or the results cannot be written
	 */
	public static void main(String[] args) throws Exception {
		RunSettings settings = Boolean.getBoolean("benchmarks.quick") ? RunSettings.quick() : RunSettings.full();
		List<Contender> contenders = contenders(System.getProperty("benchmarks.contenders", ""));
		Set<Workload> workloads = Workload.parse(System.getProperty("benchmarks.workloads", ""));
		Path output = Path.of(System.getProperty("benchmarks.output", "results/benchmark-results.md"));
		Path work = Files.createTempDirectory("distlock-benchmarks");
		Measurements measurements = new Measurements();
		measurements.started = Instant.now();
		measurements.commit = RunProvenance.commit("benchmarks.commit");
		String loadAtStart = RunProvenance.loadAverage();
		Machine machine;
		try (RedisServer redis = RedisServer.start(work.resolve("redis.log").toFile());
				RedisAdmin admin = new RedisAdmin(redis.endpoint())) {
			machine = Machine.current(admin.version());
			RedisEndpoint endpoint = redis.endpoint();
			measurements.roundTrip = Latency.of(admin.pingRoundTrips(ROUND_TRIP_SAMPLES));
			List<Contender> uncontendedContenders = contenders.stream().filter(Contender::runsUncontended).toList();
			if (workloads.contains(Workload.UNCONTENDED)) {
				UncontendedRounds uncontended = new UncontendedRounds(new UncontendedWorkload(settings.uncontended()),
						settings.uncontendedRounds());
				measurements.uncontendedSingle
					.putAll(uncontended.run(uncontendedContenders, endpoint, 1, BenchmarkMain::log));
				measurements.uncontendedMulti
					.putAll(uncontended.run(uncontendedContenders, endpoint, settings.threads(), BenchmarkMain::log));
			}
			if (workloads.contains(Workload.CONTENDED)) {
				contended(settings, contenders, work, endpoint, admin, measurements);
			}
			if (workloads.contains(Workload.READ_WRITE)) {
				readWrite(settings, contenders, endpoint, measurements);
			}
			if (workloads.contains(Workload.READER_RENEWAL) && contenders.contains(Contender.DISTLOCK)) {
				log("read lock renewal: " + Contender.DISTLOCK.label());
				measurements.readerRenewal = Outcome
					.of(() -> new ReaderRenewalWorkload(5_000, 500, 20).run(endpoint, admin));
			}
			if (workloads.contains(Workload.HELD)) {
				HeldLocksWorkload held = new HeldLocksWorkload(settings.heldLease(), settings.heldWindow());
				for (Contender contender : uncontendedContenders) {
					log("held locks: " + contender.label());
					measurements.held.put(contender,
							contender.renews()
									? Outcome
										.of(() -> held.run(contender, endpoint, admin, settings.heldLocks(contender)))
									: Outcome.notApplicable("no renewal (fixed lease only)"));
				}
			}
			if (workloads.contains(Workload.ASYNC_WAITERS) && contenders.contains(Contender.DISTLOCK)) {
				log(settings.asyncWaiters() + " asynchronous waiters: " + Contender.DISTLOCK.label());
				AsyncWaitersWorkload asyncWaiters = new AsyncWaitersWorkload(settings.asyncWaiters());
				measurements.asyncWaiters = Outcome.of(() -> asyncWaiters.run(endpoint, admin));
			}
		}
		if (workloads.contains(Workload.CLUSTER_RENEWAL) && contenders.contains(Contender.DISTLOCK)) {
			int clusterLocks = Boolean.getBoolean("benchmarks.quick") ? QUICK_CLUSTER_LOCKS : CLUSTER_LOCKS;
			log(clusterLocks + " held locks on a " + ClusterRenewalWorkload.MASTERS + "-master Cluster: "
					+ Contender.DISTLOCK.label());
			measurements.clusterRenewal = Outcome.of(() -> new ClusterRenewalWorkload(CLUSTER_LEASE).run(clusterLocks));
		}
		if (workloads.contains(Workload.ANNOTATION)) {
			log("annotation overhead (JMH)");
			measurements.annotation = Outcome.of(() -> AnnotationOverhead
				.measure(ManagementFactory.getRuntimeMXBean().getInputArguments(), settings.jmhIterationSeconds()));
		}
		measurements.loadAverages = loadAtStart + " / " + RunProvenance.loadAverage();
		String report = new MarkdownReport(machine, settings).render(measurements, Instant.now());
		Files.createDirectories(output.toAbsolutePath().getParent());
		Files.writeString(output, report);
		List<Path> charts = ReportCharts.write(report, output.toAbsolutePath().getParent());
		System.out.println(report);
		log("results written to " + output.toAbsolutePath() + ", charts to " + charts + "; worker logs in " + work);
		// lock4j's renewal timers are non-daemon threads that would keep the JVM alive
		System.exit(0);
	}

	private static void contended(RunSettings settings, List<Contender> contenders, Path work, RedisEndpoint endpoint,
			RedisAdmin admin, Measurements measurements) {
		ContendedWorkload contended = new ContendedWorkload(settings.contended(), settings.processes(),
				settings.threadsPerProcess(), work);
		for (Contender contender : contenders) {
			log("contended: " + contender.label());
			measurements.contended.put(contender, Outcome.of(() -> contended.run(contender, endpoint, admin)));
		}
		if (contenders.contains(Contender.DISTLOCK)) {
			ContendedWorkload wide = new ContendedWorkload(settings.wideContended(), settings.wideProcesses(),
					settings.threadsPerProcess(), work);
			log("contended, " + settings.wideProcesses() + " processes: " + Contender.DISTLOCK.label());
			measurements.contendedWide = Outcome.of(() -> wide.run(Contender.DISTLOCK, endpoint, admin));
		}
	}

	private static void readWrite(RunSettings settings, List<Contender> contenders, RedisEndpoint endpoint,
			Measurements measurements) {
		ReadWriteWorkload readWrite = new ReadWriteWorkload(settings.contended(), READERS);
		for (Contender contender : contenders) {
			if (contender == Contender.DISTLOCK || contender == Contender.REDISSON) {
				log("read-write: " + contender.label());
				measurements.readWrite.put(contender, Outcome.of(() -> readWrite.run(contender, endpoint, true)));
			}
		}
		if (contenders.contains(Contender.DISTLOCK)) {
			log("read-write, write lock only: " + Contender.DISTLOCK.label());
			measurements.writeLockOnly = Outcome.of(() -> readWrite.run(Contender.DISTLOCK, endpoint, false));
		}
	}

	private static List<Contender> contenders(String names) {
		if (names.isBlank()) {
			return List.of(Contender.values());
		}
		return Arrays.stream(names.split(",")).map(String::trim).map(Contender::valueOf).sorted().toList();
	}

	private static void log(String message) {
		System.err.println("[benchmarks " + Instant.now() + "] " + message);
	}

}
