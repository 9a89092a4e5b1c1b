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

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import dev.distlock.benchmarks.zookeeper.ZooKeeperContender.Locker;
import dev.distlock.benchmarks.zookeeper.ZooKeeperContender.Release;
import dev.distlock.testing.RunProvenance;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingCluster;

/**
 * Runs distlock's ZooKeeper store and Curator's {@code InterProcessMutex} on one
 * three-server ensemble it starts in-process (real ZooKeeper servers, writing to disk
 * with fsync), in one run, and writes the results with the ratios of distlock to Curator:
 * uncontended with 1 and 16 threads (each thread its own key), and contended (4 processes
 * of 4 threads on one key: throughput, p99 wait, each process's share of the grants).
 * System properties: {@code benchmarks.quick=true} for a short smoke run,
 * {@code benchmarks.zookeeper.output} for the results file (default
 * {@code results/zookeeper-benchmark-results.md}).
 *
 * @author distlock
 * @since 0.1.0
 */
public final class ZooKeeperBenchmarkMain {

	private static final int PROCESSES = 4;

	private static final int THREADS_PER_PROCESS = 4;

	private static final Duration WAIT = Duration.ofSeconds(30);

	private ZooKeeperBenchmarkMain() {
	}

	/**
	 * Run the benchmarks.
	 * @param args not used
	 * @throws Exception if the ensemble cannot be started or a workload fails
	 */
	public static void main(String[] args) throws Exception {
		boolean quick = Boolean.getBoolean("benchmarks.quick");
		Duration warmUp = Duration.ofSeconds(quick ? 1 : 5);
		Duration measured = Duration.ofSeconds(quick ? 3 : 20);
		Path output = Path
			.of(System.getProperty("benchmarks.zookeeper.output", "results/zookeeper-benchmark-results.md"));
		Path work = Files.createTempDirectory("distlock-zookeeper-benchmarks");
		Instant started = Instant.now();
		String load = RunProvenance.loadAverage();
		Map<ZooKeeperContender, Double> single = new EnumMap<>(ZooKeeperContender.class);
		Map<ZooKeeperContender, Double> multi = new EnumMap<>(ZooKeeperContender.class);
		Map<ZooKeeperContender, Contended> contended = new EnumMap<>(ZooKeeperContender.class);
		try (TestingCluster cluster = new TestingCluster(3)) {
			cluster.start();
			String connect = cluster.getConnectString();
			for (ZooKeeperContender contender : ZooKeeperContender.values()) {
				log("uncontended, 1 thread: " + contender.label());
				single.put(contender, uncontended(contender, connect, 1, warmUp, measured));
				log("uncontended, 16 threads: " + contender.label());
				multi.put(contender, uncontended(contender, connect, 16, warmUp, measured));
			}
			for (ZooKeeperContender contender : ZooKeeperContender.values()) {
				log("contended, " + PROCESSES + " processes x " + THREADS_PER_PROCESS + " threads: "
						+ contender.label());
				contended.put(contender, contended(contender, connect, warmUp, measured, work));
			}
		}
		String report = report(started, load + " / " + RunProvenance.loadAverage(), quick, measured, single, multi,
				contended);
		Files.createDirectories(output.toAbsolutePath().getParent());
		Files.writeString(output, report);
		System.out.println(report);
		log("results written to " + output.toAbsolutePath());
		System.exit(0);
	}

	/**
	 * Return the grants per second of {@code threads} threads, each locking a key of its
	 * own in a loop.
	 */
	private static double uncontended(ZooKeeperContender contender, String connect, int threads, Duration warmUp,
			Duration measured) throws Exception {
		try (CuratorFramework curator = ZooKeeperContender.curator(connect);
				Locker locker = contender.connect(curator)) {
			long measureStart = System.nanoTime() + warmUp.toNanos();
			long measureEnd = measureStart + measured.toNanos();
			AtomicLong grants = new AtomicLong();
			AtomicReference<Throwable> failure = new AtomicReference<>();
			List<Thread> workers = new ArrayList<>();
			for (int i = 0; i < threads; i++) {
				String key = "uncontended-" + contender.name() + "-" + threads + "-" + i;
				Thread worker = new Thread(() -> {
					try {
						long requested;
						while ((requested = System.nanoTime()) < measureEnd) {
							Release release = locker.lock(key, WAIT);
							release.release();
							if (requested >= measureStart) {
								grants.incrementAndGet();
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
			return grants.get() / (measured.toNanos() / 1e9);
		}
	}

	private static Contended contended(ZooKeeperContender contender, String connect, Duration warmUp, Duration measured,
			Path work) throws Exception {
		// every worker JVM starts, connects and warms up before the common measurement
		// start
		long measureStart = System.currentTimeMillis() + 8_000 + warmUp.toMillis();
		long measureEnd = measureStart + measured.toMillis();
		List<Process> processes = new ArrayList<>();
		List<Path> outputs = new ArrayList<>();
		for (int p = 0; p < PROCESSES; p++) {
			Path out = work.resolve(contender.name() + "-" + p + ".txt");
			outputs.add(out);
			processes.add(new ProcessBuilder(javaExecutable(), "-Xms256m", "-Xmx256m", "-cp",
					System.getProperty("java.class.path"), ZooKeeperContendedWorker.class.getName(), contender.name(),
					connect, String.valueOf(THREADS_PER_PROCESS), String.valueOf(measureStart),
					String.valueOf(measureEnd), out.toString())
				.redirectErrorStream(true)
				.redirectOutput(work.resolve(contender.name() + "-" + p + ".log").toFile())
				.start());
		}
		for (Process process : processes) {
			if (!process.waitFor(measured.toMillis() + 120_000, TimeUnit.MILLISECONDS) || process.exitValue() != 0) {
				process.destroyForcibly();
				throw new IllegalStateException(contender.label() + " worker failed; see its log in " + work);
			}
		}
		long[] grants = new long[PROCESSES];
		List<Long> waits = new ArrayList<>();
		for (int p = 0; p < PROCESSES; p++) {
			List<String> lines = Files.readAllLines(outputs.get(p), StandardCharsets.UTF_8);
			grants[p] = Long.parseLong(lines.get(0).strip());
			if (lines.size() > 1 && !lines.get(1).isBlank()) {
				Arrays.stream(lines.get(1).strip().split(" ")).map(Long::parseLong).forEach(waits::add);
			}
		}
		long total = Arrays.stream(grants).sum();
		long[] sorted = waits.stream().mapToLong(Long::longValue).sorted().toArray();
		double p99Millis = (sorted.length == 0) ? Double.NaN
				: sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * 0.99) - 1)] / 1000.0;
		double[] shares = Arrays.stream(grants).mapToDouble((g) -> (total == 0) ? 0 : 100.0 * g / total).toArray();
		return new Contended(total / (measured.toMillis() / 1000.0), p99Millis, shares);
	}

	private static String report(Instant started, String load, boolean quick, Duration measured,
			Map<ZooKeeperContender, Double> single, Map<ZooKeeperContender, Double> multi,
			Map<ZooKeeperContender, Contended> contended) {
		ZooKeeperContender us = ZooKeeperContender.DISTLOCK;
		ZooKeeperContender them = ZooKeeperContender.CURATOR;
		StringBuilder report = new StringBuilder();
		report.append("# ZooKeeper benchmark results\n\n");
		report.append("Provenance: commit ")
			.append(RunProvenance.commit("benchmarks.commit"))
			.append("; date ")
			.append(started.toString(), 0, 10)
			.append("; duration ")
			.append(Duration.between(started, Instant.now()).toMinutes())
			.append(" min; machine ")
			.append(Runtime.getRuntime().availableProcessors())
			.append(" CPUs, Java ")
			.append(System.getProperty("java.version"))
			.append(", load average at start / end ")
			.append(load)
			.append(quick ? ", QUICK smoke run: the figures mean nothing" : "")
			.append("\n\nOne run of `ZooKeeperBenchmarkMain`, started ")
			.append(started)
			.append(", on a three-server `TestingCluster` (real servers, fsync on), ")
			.append(measured.toSeconds())
			.append(" s measured per workload.\n\n");
		report
			.append("| Workload | distlock | Curator `InterProcessMutex` | Ratio | Target |\n|---|---|---|---|---|\n");
		row(report, "Uncontended, 1 thread (grants/s)", single.get(us), single.get(them), 1.0);
		row(report, "Uncontended, 16 threads (grants/s)", multi.get(us), multi.get(them), 1.0);
		row(report, "Contended, 4 processes x 4 threads, one key (grants/s)", contended.get(us).throughput(),
				contended.get(them).throughput(), 1.5);
		report.append(String.format(Locale.ROOT, "| Contended: p99 wait (ms) | %.1f | %.1f | %.2f | – |%n",
				contended.get(us).p99WaitMillis(), contended.get(them).p99WaitMillis(),
				contended.get(them).p99WaitMillis() / contended.get(us).p99WaitMillis()));
		report.append("| Contended: share of grants per process (%) | ")
			.append(shares(contended.get(us).sharesPercent()))
			.append(" | ")
			.append(shares(contended.get(them).sharesPercent()))
			.append(" | – | – |\n\n");
		report.append("Ratio: distlock divided by Curator (for the p99 wait, Curator divided by distlock, so higher is "
				+ "better throughout).\n");
		return report.toString();
	}

	private static void row(StringBuilder report, String workload, double us, double them, double target) {
		double ratio = us / them;
		report.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.2f | >= %.1f: %s |%n", workload, us, them,
				ratio, target, (ratio >= target) ? "met" : "missed"));
	}

	private static String shares(double[] shares) {
		return String.join(" / ",
				Arrays.stream(shares).mapToObj((s) -> String.format(Locale.ROOT, "%.0f", s)).toList());
	}

	private static String javaExecutable() {
		return System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
	}

	private static void log(String message) {
		System.out.println("[zookeeper-benchmarks " + Instant.now() + "] " + message);
	}

	private record Contended(double throughput, double p99WaitMillis, double[] sharesPercent) {

	}

}
