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

package dev.distlock.benchmarks.zookeeper;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import dev.distlock.benchmarks.report.Outcome;
import dev.distlock.benchmarks.workload.Latency;
import dev.distlock.benchmarks.workload.Rotation;
import dev.distlock.benchmarks.zookeeper.ZooKeeperContender.Locker;
import dev.distlock.benchmarks.zookeeper.ZooKeeperContender.Release;
import dev.distlock.testing.RunProvenance;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

/**
 * Runs distlock's ZooKeeper store and Curator's locks on one three-server ensemble that
 * runs in a JVM of its own ({@link ZooKeeperEnsembleMain}), and writes the results with
 * the ratios of distlock to Curator, per {@link ZooKeeperScenario}: uncontended with 1
 * and 16 threads (each thread its own key), and on one key with 4 processes of 4 threads:
 * contended, fair contended and read-heavy. After a warm-up of every library, each
 * scenario runs in rounds that take the libraries in a rotated order; each figure comes
 * with the ensemble's requests per grant and the load average. A scenario the store
 * refuses (an {@link UnsupportedOperationException}, such as fair or read locks on a
 * store without them) is reported as refused, with the store's message. System
 * properties: {@code benchmarks.quick=true} for a short smoke run,
 * {@code benchmarks.zookeeper.output} for the results file (default
 * {@code results/zookeeper-benchmark-results.md}).
 *
 * @author distlock
 * @since 0.1.0
 */
public final class ZooKeeperBenchmarkMain {

	private static final int ROUNDS = 3;

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final Duration PROBE_WAIT = Duration.ofSeconds(5);

	/** How long the worker JVMs may take to end after the measured window. */
	private static final long WORKER_STOP_MILLIS = 120_000;

	private static final List<ZooKeeperContender> LIBRARIES = List.of(ZooKeeperContender.values());

	private ZooKeeperBenchmarkMain() {
	}

	/**
	 * Run the benchmarks.
	 * @param args not used
	 * @throws Exception if the ensemble cannot be started or the results cannot be
	 * written
	 */
	public static void main(String[] args) throws Exception {
		boolean quick = Boolean.getBoolean("benchmarks.quick");
		Duration warmUp = Duration.ofSeconds(quick ? 1 : 3);
		Duration measured = Duration.ofSeconds(quick ? 2 : 10);
		int rounds = quick ? 1 : ROUNDS;
		Path output = Path
			.of(System.getProperty("benchmarks.zookeeper.output", "results/zookeeper-benchmark-results.md"));
		Path work = Files.createTempDirectory("distlock-zookeeper-benchmarks");
		Instant started = Instant.now();
		String load = RunProvenance.loadAverage();
		Map<ZooKeeperScenario, Map<ZooKeeperContender, Outcome<List<ZooKeeperFigure>>>> results = new EnumMap<>(
				ZooKeeperScenario.class);
		try (ZooKeeperEnsemble ensemble = ZooKeeperEnsemble.start(javaExecutable(), work.resolve("ensemble.log"))) {
			Runs runs = new Runs(ensemble, warmUp, measured, work);
			for (ZooKeeperContender contender : LIBRARIES) {
				log("shared warm-up: " + contender.label());
				Outcome<Run> warm = Outcome.of(() -> runs.uncontended(contender, ZooKeeperScenario.UNCONTENDED_16));
				if (warm.failure() != null) {
					log("shared warm-up of " + contender.label() + " failed: " + warm.failure());
				}
			}
			for (ZooKeeperScenario scenario : ZooKeeperScenario.values()) {
				results.put(scenario, scenario(runs, scenario, rounds));
			}
		}
		String settings = "1 shared warm-up run per library, then " + rounds + ((rounds == 1) ? " round" : " rounds")
				+ " per scenario, each run " + warmUp.toSeconds() + " s warm-up + " + measured.toSeconds()
				+ " s measured" + (quick ? "; QUICK smoke run: the figures mean nothing" : "");
		String machine = Runtime.getRuntime().availableProcessors() + " CPUs, Java "
				+ System.getProperty("java.version");
		String report = new ZooKeeperReport(machine, settings).render(RunProvenance.commit("benchmarks.commit"),
				started, Instant.now(), load + " / " + RunProvenance.loadAverage(), results);
		Files.createDirectories(output.toAbsolutePath().getParent());
		Files.writeString(output, report);
		System.out.println(report);
		log("results written to " + output.toAbsolutePath() + "; logs in " + work);
		System.exit(0);
	}

	private static Map<ZooKeeperContender, Outcome<List<ZooKeeperFigure>>> scenario(Runs runs,
			ZooKeeperScenario scenario, int rounds) {
		Map<ZooKeeperContender, Outcome<List<ZooKeeperFigure>>> results = new EnumMap<>(ZooKeeperContender.class);
		Map<ZooKeeperContender, List<ZooKeeperFigure>> figures = new EnumMap<>(ZooKeeperContender.class);
		for (ZooKeeperContender contender : LIBRARIES) {
			String refusal = runs.refusal(contender, scenario);
			if (refusal != null) {
				log(scenario.title() + ": " + contender.label() + " refused by the store: " + refusal);
				results.put(contender, Outcome.notApplicable("refused by the store: " + refusal));
			}
		}
		for (int round = 0; round < rounds; round++) {
			for (ZooKeeperContender contender : Rotation.order(LIBRARIES, round)) {
				if (results.containsKey(contender)) {
					continue;
				}
				log(scenario.title() + ", round " + (round + 1) + ": " + contender.label());
				Outcome<ZooKeeperFigure> figure = Outcome.of(() -> runs.measure(contender, scenario));
				if (figure.value() != null) {
					figures.computeIfAbsent(contender, (key) -> new ArrayList<>()).add(figure.value());
				}
				else {
					results.put(contender, Outcome.failed(String.valueOf(figure.failure())));
				}
			}
		}
		for (ZooKeeperContender contender : LIBRARIES) {
			results.computeIfAbsent(contender, (key) -> Outcome.success(List.copyOf(figures.get(contender))));
		}
		return results;
	}

	private static String javaExecutable() {
		return System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
	}

	private static void log(String message) {
		System.out.println("[zookeeper-benchmarks " + Instant.now() + "] " + message);
	}

	/**
	 * The runs of one scenario and library on the ensemble.
	 */
	private record Runs(ZooKeeperEnsemble ensemble, Duration warmUp, Duration measured, Path work) {

		/**
		 * Return the message of the {@link UnsupportedOperationException} with which the
		 * library refuses a scenario's locks, or {@code null} when it takes them (or
		 * fails otherwise, which the measurement then reports).
		 */
		@Nullable String refusal(ZooKeeperContender contender, ZooKeeperScenario scenario) {
			try (CuratorFramework curator = ZooKeeperContender.curator(this.ensemble.connectString());
					Locker locker = contender.connect(curator, scenario.fair())) {
				for (int operation = 0; operation < Math.max(1, scenario.writeEvery()); operation++) {
					locker.lock("probe", scenario.access(operation), PROBE_WAIT).release();
				}
				return null;
			}
			catch (Exception ex) {
				for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
					if (cause instanceof UnsupportedOperationException) {
						return String.valueOf(cause.getMessage());
					}
				}
				return null;
			}
		}

		/**
		 * Measure one run, counting the ensemble's requests and reading the load average
		 * around it.
		 */
		ZooKeeperFigure measure(ZooKeeperContender contender, ZooKeeperScenario scenario) throws Exception {
			String loadAtStart = RunProvenance.loadAverage();
			long requestsBefore = this.ensemble.requestsReceived();
			Run run = scenario.contended() ? contended(contender, scenario) : uncontended(contender, scenario);
			long requests = this.ensemble.requestsReceived() - requestsBefore;
			return new ZooKeeperFigure(run.grants() / (this.measured.toNanos() / 1e9), run.waits().p99Nanos() / 1e6,
					requests / (double) Math.max(run.allGrants(), 1),
					loadAtStart + " / " + RunProvenance.loadAverage());
		}

		/**
		 * Run threads in this JVM, each locking a key of its own in a loop.
		 */
		Run uncontended(ZooKeeperContender contender, ZooKeeperScenario scenario) throws Exception {
			try (CuratorFramework curator = ZooKeeperContender.curator(this.ensemble.connectString());
					Locker locker = contender.connect(curator, scenario.fair())) {
				long measureStart = System.nanoTime() + this.warmUp.toNanos();
				long measureEnd = measureStart + this.measured.toNanos();
				AtomicLong allGrants = new AtomicLong();
				AtomicReference<Throwable> failure = new AtomicReference<>();
				List<List<Long>> waits = new ArrayList<>();
				List<Thread> workers = new ArrayList<>();
				for (int i = 0; i < scenario.threads(); i++) {
					String key = "uncontended-" + contender.name() + "-" + scenario.threads() + "-" + i;
					List<Long> mine = new ArrayList<>();
					waits.add(mine);
					Thread worker = new Thread(() -> {
						try {
							long requested;
							while ((requested = System.nanoTime()) < measureEnd) {
								Release release = locker.lock(key, scenario.access(0), WAIT);
								long waited = System.nanoTime() - requested;
								release.release();
								allGrants.incrementAndGet();
								if (requested >= measureStart) {
									mine.add(waited);
								}
							}
						}
						catch (Throwable ex) {
							failure.compareAndSet(null, ex);
						}
					}, "uncontended-" + i);
					worker.start();
					workers.add(worker);
				}
				for (Thread worker : workers) {
					worker.join();
				}
				if (failure.get() != null) {
					throw new IllegalStateException(contender.label() + " failed: " + failure.get(), failure.get());
				}
				long[] all = waits.stream().flatMap(List::stream).mapToLong(Long::longValue).toArray();
				return new Run(all.length, allGrants.get(), Latency.of(all));
			}
		}

		/**
		 * Run the scenario's worker processes on one key and merge what they recorded.
		 */
		Run contended(ZooKeeperContender contender, ZooKeeperScenario scenario) throws Exception {
			List<Process> processes = new ArrayList<>();
			List<Path> outputs = new ArrayList<>();
			String name = scenario.name().toLowerCase() + "-" + contender.name().toLowerCase();
			try {
				for (int p = 0; p < scenario.processes(); p++) {
					Path out = this.work.resolve(name + "-" + p + ".txt");
					outputs.add(out);
					processes.add(new ProcessBuilder(javaExecutable(), "-Xms256m", "-Xmx256m", "-cp",
							System.getProperty("java.class.path"), ZooKeeperContendedWorker.class.getName(),
							contender.name(), scenario.name(), this.ensemble.connectString(), out.toString())
						.redirectError(this.work.resolve(name + "-" + p + ".log").toFile())
						.start());
				}
				for (Process process : processes) {
					awaitReady(process, contender);
				}
				long measureStart = System.currentTimeMillis() + this.warmUp.toMillis();
				long measureEnd = measureStart + this.measured.toMillis();
				for (Process process : processes) {
					OutputStream stdin = process.getOutputStream();
					stdin.write(("GO " + measureStart + " " + measureEnd + "\n").getBytes(StandardCharsets.UTF_8));
					stdin.flush();
				}
				for (Process process : processes) {
					if (!process.waitFor(measureEnd - System.currentTimeMillis() + WORKER_STOP_MILLIS,
							TimeUnit.MILLISECONDS) || process.exitValue() != 0) {
						throw new IllegalStateException(
								contender.label() + " worker failed; see its log in " + this.work);
					}
				}
			}
			finally {
				processes.forEach(Process::destroyForcibly);
			}
			long grants = 0;
			long allGrants = 0;
			List<Long> waits = new ArrayList<>();
			for (Path out : outputs) {
				List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
				grants += Long.parseLong(lines.get(0).strip());
				allGrants += Long.parseLong(lines.get(1).strip());
				if (lines.size() > 2 && !lines.get(2).isBlank()) {
					Arrays.stream(lines.get(2).strip().split(" "))
						.mapToLong(Long::parseLong)
						.forEach((micros) -> waits.add(micros * 1_000));
				}
			}
			return new Run(grants, allGrants, Latency.of(waits.stream().mapToLong(Long::longValue).toArray()));
		}

	}

	private static void awaitReady(Process worker, ZooKeeperContender contender) throws IOException {
		BufferedReader stdout = new BufferedReader(
				new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8));
		String line;
		while ((line = stdout.readLine()) != null) {
			if (line.equals(ZooKeeperContendedWorker.READY)) {
				return;
			}
		}
		throw new IllegalStateException(contender.label() + " worker ended before it was ready");
	}

	/**
	 * What one run counted.
	 *
	 * @param grants grants in the measured window
	 * @param allGrants grants over the whole run
	 * @param waits the measured grants' waits
	 */
	private record Run(long grants, long allGrants, Latency waits) {

	}

}
