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

package dev.distlock.benchmarks.loss;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.HeldLock;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import dev.distlock.testing.RunProvenance;

/**
 * Measures, per store, how long after a lock is lost the work it protects is cancelled,
 * as {@code @DistributedLock(onLoss = CANCEL)} does it: a {@code LockHold.whenLost()}
 * dependent that cancels the work's future on an executor of the application. Two losses:
 * the key force-released by another connection (found by the watchdog's next renewal),
 * and a store outage (every renewal fails: found when the holder's view of the lease runs
 * out). The loss instant is when the force-release was answered, or the end of the
 * holder's view of the lease. System properties: {@code benchmarks.quick=true} for a
 * short smoke run, {@code benchmarks.loss.output} for the results file (default
 * {@code results/loss-benchmark-results.md}).
 *
 * @author distlock
 * @since 0.1.0
 */
public final class LossBenchmarkMain {

	/** The watchdog lease: a renewal every third of it. */
	static final Duration LEASE = Duration.ofSeconds(1);

	private LossBenchmarkMain() {
	}

	/**
	 * Run the benchmark.
	 * @param args not used
	 * @throws Exception if a store cannot be started or a measurement fails
	 */
	public static void main(String[] args) throws Exception {
		boolean quick = Boolean.getBoolean("benchmarks.quick");
		int takenSamples = quick ? 5 : 40;
		int outageSamples = quick ? 3 : 15;
		Path output = Path.of(System.getProperty("benchmarks.loss.output", "results/loss-benchmark-results.md"));
		File work = Files.createTempDirectory("distlock-loss-benchmark").toFile();
		Instant started = Instant.now();
		String load = RunProvenance.loadAverage();
		List<String> rows = new ArrayList<>();
		ExecutorService application = Executors.newCachedThreadPool();
		try {
			for (LossTarget target : LossTarget.values()) {
				try (LossTarget.Opened opened = target.open(work)) {
					if (opened == null) {
						rows.add("| " + target.label() + " | not run: the database did not answer | | | |");
						continue;
					}
					OutageLockStore store = new OutageLockStore(opened.store());
					long[] taken;
					long[][] outage;
					try (DefaultLockClient client = new DefaultLockClient(store,
							LockClientSettings.defaults().withWatchdogLease(LEASE))) {
						log("taken key: " + target.label());
						taken = taken(client, opened, application, takenSamples);
						log("store outage: " + target.label());
						outage = outage(client, store, application, outageSamples);
					}
					rows.add(row(target.label(), "taken key", taken));
					rows.add(row(target.label(), "store outage", outage[0]));
					rows.add(row(target.label(), "store outage, from its start", outage[1]));
				}
			}
		}
		finally {
			application.shutdownNow();
		}
		String report = report(started, load + " / " + RunProvenance.loadAverage(), quick, takenSamples, outageSamples,
				rows);
		Files.createDirectories(output.toAbsolutePath().getParent());
		Files.writeString(output, report);
		System.out.println(report);
		log("results written to " + output.toAbsolutePath());
		System.exit(0);
	}

	/**
	 * Return the delays, in nanoseconds, from the answer to a force-release of a held key
	 * to the cancellation of its work.
	 */
	private static long[] taken(DefaultLockClient client, LossTarget.Opened opened, ExecutorService application,
			int samples) throws Exception {
		long[] delays = new long[samples];
		for (int i = 0; i < samples; i++) {
			LockHold hold = client.acquire("loss-taken-" + i, Duration.ofSeconds(10), null);
			Watched watched = watch(hold, application);
			pauseWithinARenewalInterval();
			opened.forceRelease(hold.key());
			long lostAt = System.nanoTime();
			delays[i] = watched.cancelledAt().get(30, TimeUnit.SECONDS) - lostAt;
			releaseQuietly(hold);
		}
		return delays;
	}

	/**
	 * Return the delays, in nanoseconds, from the end of the holder's view of the lease,
	 * and from the start of the outage, to the cancellation of the work.
	 */
	private static long[][] outage(DefaultLockClient client, OutageLockStore store, ExecutorService application,
			int samples) throws Exception {
		long[] fromLoss = new long[samples];
		long[] fromOutage = new long[samples];
		for (int i = 0; i < samples; i++) {
			LockHold hold = client.acquire("loss-outage-" + i, Duration.ofSeconds(10), null);
			Watched watched = watch(hold, application);
			pauseWithinARenewalInterval();
			long outageAt = System.nanoTime();
			store.setDown(true);
			// A renewal sent before the outage may still be answered: read the lease once
			// it had the time to be
			Thread.sleep(50);
			long readAt = System.nanoTime();
			long lostAt = readAt + leaseRemaining(client, hold.key()).toNanos();
			long cancelledAt = watched.cancelledAt().get(30, TimeUnit.SECONDS);
			fromLoss[i] = cancelledAt - lostAt;
			fromOutage[i] = cancelledAt - outageAt;
			store.setDown(false);
			releaseQuietly(hold);
		}
		return new long[][] { fromLoss, fromOutage };
	}

	/**
	 * Cancel a stand-in for the method's work when the hold is lost, on the application's
	 * executor, as the advice's {@code CANCEL} policy does.
	 */
	private static Watched watch(LockHold hold, ExecutorService application) {
		CompletableFuture<Object> work = new CompletableFuture<>();
		CompletableFuture<Long> cancelledAt = new CompletableFuture<>();
		hold.whenLost().thenAcceptAsync((reason) -> {
			work.cancel(true);
			cancelledAt.complete(System.nanoTime());
		}, application);
		return new Watched(work, cancelledAt);
	}

	private static Duration leaseRemaining(DefaultLockClient client, String key) {
		return client.heldLocks()
			.stream()
			.filter((held) -> held.key().equals(key))
			.map(HeldLock::leaseRemaining)
			.findFirst()
			.orElse(Duration.ZERO);
	}

	/**
	 * Wait a random part of a renewal interval, so that losses fall at every point of the
	 * watchdog's cycle.
	 */
	private static void pauseWithinARenewalInterval() throws InterruptedException {
		Thread.sleep(ThreadLocalRandom.current().nextLong(LEASE.toMillis() / 3) + 20);
	}

	private static void releaseQuietly(LockHold hold) {
		try {
			hold.release();
		}
		catch (RuntimeException ex) {
			// The lock was lost: the release says so, as it should
		}
	}

	private static String row(String store, String loss, long[] delays) {
		long[] sorted = delays.clone();
		Arrays.sort(sorted);
		return "| " + store + " | " + loss + " | " + millis(percentile(sorted, 50)) + " | "
				+ millis(percentile(sorted, 99)) + " | " + sorted.length + " |";
	}

	static long percentile(long[] sorted, int percent) {
		int index = (int) Math.ceil(percent / 100.0 * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
	}

	private static String millis(long nanos) {
		return String.format(Locale.ROOT, "%.1f ms", nanos / 1_000_000.0);
	}

	private static String report(Instant started, String load, boolean quick, int takenSamples, int outageSamples,
			List<String> rows) {
		Duration took = Duration.between(started, Instant.now());
		StringBuilder report = new StringBuilder();
		report.append("# Loss-to-cancellation benchmark results\n\n");
		report.append("Provenance: commit ")
			.append(RunProvenance.commit())
			.append("; date ")
			.append(started.toString(), 0, 10)
			.append("; duration ")
			.append(Math.max(1, took.toMinutes()))
			.append(" min; machine ")
			.append(Runtime.getRuntime().availableProcessors())
			.append(" CPUs, Java ")
			.append(System.getProperty("java.version"))
			.append(", load average at start / end ")
			.append(load)
			.append("\n\n");
		report.append("One run of `LossBenchmarkMain`, started ")
			.append(started)
			.append(quick ? ", a quick smoke run whose figures mean nothing" : "")
			.append(". Watchdog lease ")
			.append(LEASE.toMillis())
			.append(" ms (a renewal every third of it); ")
			.append(takenSamples)
			.append(" losses per store for a taken key, ")
			.append(outageSamples)
			.append(" for an outage. With so few samples the p99 is the slowest sample or close to it.\n\n");
		report.append("| Store | Loss | p50 | p99 | Samples |\n|---|---|---|---|---|\n");
		rows.forEach((row) -> report.append(row).append('\n'));
		report.append("\nThe delay runs from the loss to the cancellation of the work's future by a "
				+ "`LockHold.whenLost()` dependent on an executor of the application, as `onLoss = CANCEL` does. "
				+ "Taken key: from the answer to another connection's force-release of the key to the cancellation; "
				+ "the watchdog finds the loss at its next renewal, so this is up to one renewal interval. "
				+ "Store outage: every renewal fails from its start; the loss is the end of the holder's view of the "
				+ "lease, when a timer reports it. The last row counts from the start of the outage instead.\n");
		return report.toString();
	}

	private static void log(String message) {
		System.out.println("[loss benchmark] " + message);
	}

	/**
	 * The work a hold protects, and when it was cancelled.
	 *
	 * @param work the stand-in for the method's stage
	 * @param cancelledAt completed with {@link System#nanoTime()} at the cancellation
	 */
	private record Watched(CompletableFuture<Object> work, CompletableFuture<Long> cancelledAt) {

	}

}
