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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import dev.distlock.benchmarks.contender.Contender;
import dev.distlock.benchmarks.workload.AsyncWaitersResult;
import dev.distlock.benchmarks.workload.ClusterRenewalResult;
import dev.distlock.benchmarks.workload.ClusterRenewalWorkload;
import dev.distlock.benchmarks.workload.ContendedResult;
import dev.distlock.benchmarks.workload.HeldLocksResult;
import dev.distlock.benchmarks.workload.ReadWriteResult;
import dev.distlock.benchmarks.workload.Throughput;

/**
 * Evaluates the targets, all as ratios within the same run: those of issue 20 and every
 * other target the report has carried. The earlier targets that issue 20 raised or
 * replaced, and the first benchmarks' default-mode hand-off, stay beside them with names
 * ending in "(earlier target)", so that none drops out of the table.
 *
 * @author distlock
 * @since 0.1.0
 */
final class Targets {

	static final double UNCONTENDED_VS_FLOOR = 0.95;

	/** Issue 38: the client's CPU per uncontended acquire+release against the floor's. */
	static final double CPU_PER_OP_VS_FLOOR = 1.15;

	/** Issue 20: default-mode throughput against Redisson's. */
	static final double DEFAULT_VS_REDISSON = 2.5;

	/** Earlier target: default-mode throughput against Redisson's. */
	static final double EARLIER_DEFAULT_VS_REDISSON = 2;

	/**
	 * Issue 20: default-mode throughput against the floor's (polling every millisecond),
	 * with a p99 wait no worse than the floor's.
	 */
	static final double DEFAULT_VS_FLOOR = 0.6;

	/**
	 * Earlier target: default-mode throughput against the polling floor's (10 ms poll).
	 */
	static final double DEFAULT_VS_POLLING_FLOOR = 0.8;

	/** Issue 20: fair-mode throughput against Redisson's fair lock. */
	static final double FAIR_VS_REDISSON_FAIR = 2;

	/** Earlier target: fair-mode throughput against Redisson's fair lock. */
	static final double EARLIER_FAIR_VS_REDISSON_FAIR = 1.5;

	static final int HANDOFF_ROUND_TRIPS = 3;

	/** Issue 20: fair-mode cross-process hand-off p50, in Redis round trips. */
	static final int FAIR_HANDOFF_ROUND_TRIPS = 3;

	/** Earlier target: fair-mode cross-process hand-off p50, in Redis round trips. */
	static final int EARLIER_FAIR_HANDOFF_ROUND_TRIPS = 2;

	static final double SCRIPTS_PER_CRITICAL_SECTION = 2.5;

	static final int RENEWAL_ROUND_TRIPS = 100;

	static final double ANNOTATION_NANOS = 2000;

	static final double READERS_VS_WRITE_LOCK_ONLY = 5;

	static final String READERS = "16 readers + 1 writer";

	static final int ASYNC_WAITER_THREADS = 4;

	/** Longest renewal round on the Cluster, as a share of the renewal interval. */
	static final double CLUSTER_ROUND_VS_INTERVAL = 1.0 / 3;

	private Targets() {
	}

	static List<Target> evaluate(Measurements measurements) {
		List<Target> targets = new ArrayList<>();
		targets.add(uncontended("Uncontended, 1 thread: >= 0.95x the floor (median of the rounds)",
				measurements.uncontendedSingle));
		targets.add(uncontended("Uncontended, 16 threads: >= 0.95x the floor (median of the rounds)",
				measurements.uncontendedMulti));
		targets.add(cpuPerOp("Client CPU per uncontended op, 1 thread: <= 1.15x the floor's",
				measurements.uncontendedSingle));
		targets.add(cpuPerOp("Client CPU per uncontended op, 16 threads: <= 1.15x the floor's",
				measurements.uncontendedMulti));
		long roundTrip = Math.max(1, measurements.roundTrip.p50Nanos());
		targets.addAll(defaultMode(measurements, roundTrip));
		targets.addAll(fair(measurements, roundTrip));
		HeldLocksResult held = Measurements.valueOf(measurements.held, Contender.DISTLOCK);
		if (held != null) {
			targets.add(Target.of("10,000 held locks: <= 100 round trips per renewal round",
					Format.decimal(held.roundTripsPerRound()), "<= " + RENEWAL_ROUND_TRIPS,
					held.roundTripsPerRound() <= RENEWAL_ROUND_TRIPS && held.stillHeld() == held.locks(),
					"per renewal interval; " + held.stillHeld() + "/" + held.locks() + " still held after the window"));
			targets.add(Target.of("10,000 held locks: no per-lock threads or timers",
					held.extraThreads() + " extra threads", "0", held.extraThreads() <= 0,
					"thread count measured; timers: one scheduled renewal task per client (LeaseWatchdog)"));
		}
		targets.addAll(asyncWaiters(measurements.asyncWaiters));
		targets.add(clusterRenewal(measurements.clusterRenewal));
		targets.addAll(readWrite(measurements));
		targets.add(annotation(measurements.annotation));
		long violations = measurements.contended.values()
			.stream()
			.filter((outcome) -> outcome.value() != null)
			.mapToLong((outcome) -> outcome.value().violations())
			.sum();
		ContendedResult wide = measurements.contendedWide.value();
		violations += (wide != null) ? wide.violations() : 0;
		violations += measurements.readWrite.values()
			.stream()
			.filter((outcome) -> outcome.value() != null)
			.mapToLong((outcome) -> outcome.value().violations())
			.sum();
		ReadWriteResult writeLockOnly = measurements.writeLockOnly.value();
		violations += (writeLockOnly != null) ? writeLockOnly.violations() : 0;
		targets.add(Target.of("Mutual exclusion in every contended run: 0 violations", violations + " violations", "0",
				violations == 0,
				"lost counter updates plus overlapping holds, all libraries; read-write runs: a writer inside with "
						+ "anyone else"));
		return targets;
	}

	/**
	 * The default (non-fair) mode in the contended workload. Issue 20's targets:
	 * throughput against Redisson, and against the floor (polling every millisecond) with
	 * a p99 wait no worse than the floor's; their notes give both sides' cross-process
	 * share of hand-offs and p99 wait, so that barging shows next to the throughput. The
	 * earlier targets: throughput against Redisson, throughput and p99 wait against the
	 * polling floor (10 ms poll, the earlier issue's "plain SET NX + 10 ms polling
	 * loop"), and hand-off latency. Redis scripts per critical section at both process
	 * counts.
	 */
	private static List<Target> defaultMode(Measurements measurements, long roundTrip) {
		List<Target> targets = new ArrayList<>();
		ContendedResult distlock = Measurements.valueOf(measurements.contended, Contender.DISTLOCK);
		if (distlock == null) {
			targets.add(Target.notMeasured("Default mode", "distlock was not measured in the contended workload"));
			return targets;
		}
		String workload = "Default mode, " + distlock.processes() + " processes x " + distlock.threadsPerProcess()
				+ " threads";
		ContendedResult redisson = Measurements.valueOf(measurements.contended, Contender.REDISSON);
		if (redisson != null) {
			double ratio = distlock.opsPerSecond() / redisson.opsPerSecond();
			targets.add(Target.of(workload + ": throughput >= 2.5x Redisson",
					Format.ops(distlock.opsPerSecond()) + " ops/s", Format.ops(redisson.opsPerSecond()) + " ops/s",
					ratio >= DEFAULT_VS_REDISSON,
					Format.ratio(ratio) + " Redisson; " + shareAndWait("distlock", distlock, "Redisson", redisson)));
			targets.add(Target.of(workload + ": throughput >= 2x Redisson (earlier target)",
					Format.ops(distlock.opsPerSecond()) + " ops/s", Format.ops(redisson.opsPerSecond()) + " ops/s",
					ratio >= EARLIER_DEFAULT_VS_REDISSON, Format.ratio(ratio) + " Redisson"));
		}
		else {
			targets.add(Target.notMeasured(workload + ": throughput >= 2.5x Redisson", "Redisson was not measured"));
			targets.add(Target.notMeasured(workload + ": throughput >= 2x Redisson (earlier target)",
					"Redisson was not measured"));
		}
		ContendedResult floor = Measurements.valueOf(measurements.contended, Contender.FLOOR);
		String versusFloor = workload
				+ ": throughput >= 0.6x the floor (1 ms poll) with a p99 wait no worse than the floor's";
		if (floor != null) {
			double ratio = distlock.opsPerSecond() / floor.opsPerSecond();
			boolean throughput = ratio >= DEFAULT_VS_FLOOR;
			boolean wait = distlock.acquireWait().p99Nanos() <= floor.acquireWait().p99Nanos();
			String missed = (throughput && wait) ? "" : "; missed on " + missedOn(throughput, wait);
			targets.add(Target.of(versusFloor,
					Format.ops(distlock.opsPerSecond()) + " ops/s, p99 wait "
							+ Format.micros(distlock.acquireWait().p99Nanos()) + " us",
					Format.ops(floor.opsPerSecond()) + " ops/s, p99 wait "
							+ Format.micros(floor.acquireWait().p99Nanos()) + " us (floor, 1 ms poll)",
					throughput && wait, Format.ratio(ratio) + " the floor" + missed + "; "
							+ shareAndWait("distlock", distlock, "the floor", floor)));
		}
		else {
			targets.add(Target.notMeasured(versusFloor, "the floor was not measured"));
		}
		ContendedResult pollingFloor = Measurements.valueOf(measurements.contended, Contender.POLLING_FLOOR);
		if (pollingFloor != null) {
			double ratio = distlock.opsPerSecond() / pollingFloor.opsPerSecond();
			targets.add(Target.of(workload + ": throughput >= 0.8x the polling floor (earlier target)",
					Format.ops(distlock.opsPerSecond()) + " ops/s",
					Format.ops(pollingFloor.opsPerSecond()) + " ops/s (SET NX, 10 ms poll)",
					ratio >= DEFAULT_VS_POLLING_FLOOR,
					Format.ratio(ratio) + " the polling floor, whose hand-offs stay in one JVM "
							+ Format.percent(1 - pollingFloor.crossProcessShare()) + " of the time"));
			String versusRedisson = (redisson != null)
					? "; Redisson: " + Format.micros(redisson.acquireWait().p99Nanos()) + " us" : "";
			targets.add(Target.of(workload + ": p99 wait no worse than the polling floor's (earlier target)",
					Format.micros(distlock.acquireWait().p99Nanos()) + " us",
					Format.micros(pollingFloor.acquireWait().p99Nanos()) + " us",
					distlock.acquireWait().p99Nanos() <= pollingFloor.acquireWait().p99Nanos(),
					"lower is better" + versusRedisson));
		}
		else {
			targets
				.add(Target.notMeasured(workload + ": >= 0.8x the polling floor, p99 wait no worse (earlier targets)",
						"the polling floor was not measured"));
		}
		double trips = distlock.handoff().p50Nanos() / (double) roundTrip;
		String floorTrips = (floor != null)
				? "; the floor, polling every ms: " + Format.decimal(floor.handoff().p50Nanos() / (double) roundTrip)
				: "";
		targets.add(Target.of("Default mode: hand-off p50 within 3 Redis round trips (earlier target)",
				Format.micros(distlock.handoff().p50Nanos()) + " us",
				HANDOFF_ROUND_TRIPS + " x " + Format.micros(roundTrip) + " us (PING p50)", trips <= HANDOFF_ROUND_TRIPS,
				Format.decimal(trips) + " round trips" + floorTrips + "; cross-process only: "
						+ Format.micros(distlock.crossProcessHandoff().p50Nanos()) + " us"));
		targets.add(scripts(distlock));
		ContendedResult wide = measurements.contendedWide.value();
		targets.add((wide != null) ? scripts(wide)
				: Target.notMeasured("Default mode: Redis scripts per critical section <= 2.5, more processes",
						String.valueOf(measurements.contendedWide.failure())));
		return targets;
	}

	private static String missedOn(boolean throughput, boolean wait) {
		if (!throughput && !wait) {
			return "throughput and p99 wait";
		}
		return (!throughput) ? "throughput" : "p99 wait";
	}

	/**
	 * Return the share of hand-offs that crossed processes and the p99 wait of two
	 * contenders, for the note of a throughput target: a high throughput with a low
	 * cross-process share is a process re-taking its own lock (barging), which the p99
	 * wait of the others shows.
	 * @param ownLabel what to call the measured contender
	 * @param own its result
	 * @param referenceLabel what to call the reference
	 * @param reference its result
	 * @return the text for the note
	 */
	static String shareAndWait(String ownLabel, ContendedResult own, String referenceLabel, ContendedResult reference) {
		return "cross-process hand-offs: " + ownLabel + " " + Format.percent(own.crossProcessShare()) + ", "
				+ referenceLabel + " " + Format.percent(reference.crossProcessShare()) + "; p99 wait: " + ownLabel + " "
				+ Format.micros(own.acquireWait().p99Nanos()) + " us, " + referenceLabel + " "
				+ Format.micros(reference.acquireWait().p99Nanos()) + " us";
	}

	private static Target scripts(ContendedResult result) {
		double scripts = scriptsPerCriticalSection(result);
		return Target.of(
				"Default mode, " + result.processes() + " processes x " + result.threadsPerProcess()
						+ " threads: Redis scripts per critical section <= 2.5",
				Format.decimal(scripts), "<= " + SCRIPTS_PER_CRITICAL_SECTION, scripts <= SCRIPTS_PER_CRITICAL_SECTION,
				"EVALSHA + EVAL calls over the measured window (INFO commandstats) / " + result.holds()
						+ " critical sections; " + Format.ops(result.opsPerSecond()) + " ops/s");
	}

	static double scriptsPerCriticalSection(ContendedResult result) {
		return result.commandsPerOp().getOrDefault("evalsha", 0.0) + result.commandsPerOp().getOrDefault("eval", 0.0);
	}

	/**
	 * Asynchronous waiters on busy keys: the threads they add while they start and wait
	 * against the bound (as its thread-bound test counts them; the peak while the
	 * holder releases and the waiters are granted is shown beside it, with the names of
	 * the threads started then), and whether every waiter was granted with nothing left
	 * held afterwards. Heap and times are figures of the section, not targets.
	 */
	static List<Target> asyncWaiters(Outcome<AsyncWaitersResult> outcome) {
		AsyncWaitersResult result = outcome.value();
		if (result == null) {
			return List.of(Target.notMeasured("Asynchronous waiters: add at most 4 threads",
					String.valueOf(outcome.failure())));
		}
		String workload = String.format(Locale.ROOT, "%,d", result.waiters()) + " asynchronous waiters";
		return List.of(
				Target.of(workload + ": add at most 4 threads", result.waitingThreadsAdded() + " threads",
						"<= " + ASYNC_WAITER_THREADS, result.waitingThreadsAdded() <= ASYNC_WAITER_THREADS,
						"live platform threads while the waiters start and wait, beyond the " + result.threadsBefore()
								+ " before (" + result.threadsAddedWhileWaiting()
								+ " while all wait); not counted: the peak while the holder releases and the "
								+ "waiters are granted, " + (result.peakThreadsGranting() - result.threadsBefore())
								+ " (new threads then: " + threadNames(result.newThreads()) + ")"),
				Target.of(
						workload + ": all granted after the release, nothing left held", result.failed() + " failed, "
								+ result.heldAfter() + " held, " + result.lockKeysLeft() + " lock keys left",
						"0, 0, 0", result.allGrantedAndCleanedUp(),
						"all granted " + Format.millis(result.allGrantedNanos())
								+ " ms after the holder's first release; held = the waiting client's heldCount() "
								+ "after its releases, lock keys = keys still held in Redis"));
	}

	/**
	 * Held locks on a three-master Cluster: the slowest renewal round (its longest batch,
	 * from the round's start) against the renewal interval. Well under one interval means
	 * at most a third of it, with no lease lost or left unrenewed in any measured round.
	 */
	static Target clusterRenewal(Outcome<ClusterRenewalResult> outcome) {
		String renewed = " held locks on a three-master Cluster renewed in well under one renewal interval";
		ClusterRenewalResult result = outcome.value();
		if (result == null) {
			return Target.notMeasured("Many" + renewed, String.valueOf(outcome.failure()));
		}
		String name = String.format(Locale.ROOT, "%,d", result.locks()) + renewed;
		double ratio = result.worstRatio();
		boolean pass = result.rounds().size() >= ClusterRenewalWorkload.ROUNDS && ratio <= CLUSTER_ROUND_VS_INTERVAL
				&& result.lostOrFailed() == 0;
		return Target.of(name, Format.millis(result.worstRound().toNanos()) + " ms (slowest round)",
				"<= 1/3 x " + result.interval().toMillis() + " ms (interval), 0 lost", pass,
				Format.ratio(ratio) + " the interval; " + result.masters() + " masters, " + result.rounds().size()
						+ " rounds, " + result.lostOrFailed() + " leases lost or not renewed; rule: PASS when at least "
						+ ClusterRenewalWorkload.ROUNDS + " rounds were measured, the slowest took at most a third "
						+ "of the interval and no lease was lost");
	}

	static String threadNames(Map<String, Integer> threads) {
		return threads.isEmpty() ? "none"
				: threads.entrySet()
					.stream()
					.map((entry) -> entry.getKey() + " x" + entry.getValue())
					.collect(Collectors.joining(", "));
	}

	/**
	 * Reader throughput with read locks against the same work under the write lock only,
	 * and the writer's p99 wait: bounded means no longer than in the write-lock-only run,
	 * where it queues behind every reader.
	 */
	private static List<Target> readWrite(Measurements measurements) {
		ReadWriteResult shared = Measurements.valueOf(measurements.readWrite, Contender.DISTLOCK);
		ReadWriteResult exclusive = measurements.writeLockOnly.value();
		if (shared == null || exclusive == null) {
			return List.of(Target.notMeasured("Read-write, " + READERS + ": reader throughput >= 5x write lock only",
					"the read-write or the write-lock-only run was not measured"));
		}
		double ratio = shared.readerOpsPerSecond() / Math.max(1e-9, exclusive.readerOpsPerSecond());
		ReadWriteResult redisson = Measurements.valueOf(measurements.readWrite, Contender.REDISSON);
		String versusRedisson = (redisson != null)
				? "; Redisson RReadWriteLock: " + Format.ops(redisson.readerOpsPerSecond()) + " reads/s, writer p99 "
						+ Format.micros(redisson.writerWait().p99Nanos()) + " us"
				: "";
		return List.of(
				Target.of("Read-write, " + READERS + ": reader throughput >= 5x write lock only",
						Format.ops(shared.readerOpsPerSecond()) + " reads/s",
						Format.ops(exclusive.readerOpsPerSecond()) + " reads/s (write lock only)",
						ratio >= READERS_VS_WRITE_LOCK_ONLY,
						Format.ratio(ratio) + " the write-lock-only run; up to " + shared.maxReadersTogether()
								+ " readers inside at once" + versusRedisson),
				Target.of("Read-write, " + READERS + ": writer p99 wait bounded",
						Format.micros(shared.writerWait().p99Nanos()) + " us",
						"<= " + Format.micros(exclusive.writerWait().p99Nanos()) + " us (write lock only)",
						shared.writerWait().p99Nanos() <= exclusive.writerWait().p99Nanos() && shared.timeouts() == 0,
						shared.writerWait().samples() + " writes; bounded = no longer than behind a plain mutex, "
								+ "no 30 s wait timed out"));
	}

	/**
	 * Fair mode in the contended workload: cross-process hand-off in round trips,
	 * throughput against Redisson's fair lock (issue 20's bounds, then the earlier ones),
	 * p99 wait against Redisson's fair lock, and FIFO order (no measured hold granted
	 * after one that asked more than the tolerance later).
	 */
	private static List<Target> fair(Measurements measurements, long roundTrip) {
		ContendedResult fair = Measurements.valueOf(measurements.contended, Contender.DISTLOCK_FAIR);
		ContendedResult redissonFair = Measurements.valueOf(measurements.contended, Contender.REDISSON_FAIR);
		List<Target> targets = new ArrayList<>();
		if (fair == null) {
			targets.add(Target.notMeasured("Fair mode", "distlock fair was not measured"));
			return targets;
		}
		String workload = "Fair mode, " + fair.processes() + " processes x " + fair.threadsPerProcess() + " threads";
		double trips = fair.crossProcessHandoff().p50Nanos() / (double) roundTrip;
		boolean handedAcross = fair.crossProcessHandoff().samples() > 0;
		String handoff = Format.micros(fair.crossProcessHandoff().p50Nanos()) + " us";
		String tripsNote = Format.decimal(trips) + " round trips"
				+ (handedAcross ? "" : " (no cross-process hand-off measured)");
		String versusRedissonTrips = (redissonFair != null) ? "; Redisson's fair lock: "
				+ Format.decimal(redissonFair.crossProcessHandoff().p50Nanos() / (double) roundTrip) + " round trips"
				: "";
		targets.add(Target.of(workload + ": cross-process hand-off p50 <= 3 Redis round trips", handoff,
				FAIR_HANDOFF_ROUND_TRIPS + " x " + Format.micros(roundTrip) + " us (PING p50)",
				handedAcross && trips <= FAIR_HANDOFF_ROUND_TRIPS, tripsNote + versusRedissonTrips));
		targets.add(Target.of(workload + ": cross-process hand-off p50 <= 2 Redis round trips (earlier target)",
				handoff, EARLIER_FAIR_HANDOFF_ROUND_TRIPS + " x " + Format.micros(roundTrip) + " us (PING p50)",
				handedAcross && trips <= EARLIER_FAIR_HANDOFF_ROUND_TRIPS, tripsNote));
		if (redissonFair != null) {
			double ratio = fair.opsPerSecond() / redissonFair.opsPerSecond();
			targets.add(Target.of(workload + ": throughput >= 2x Redisson's fair lock",
					Format.ops(fair.opsPerSecond()) + " ops/s", Format.ops(redissonFair.opsPerSecond()) + " ops/s",
					ratio >= FAIR_VS_REDISSON_FAIR, Format.ratio(ratio) + " Redisson fair; "
							+ shareAndWait("distlock fair", fair, "Redisson fair", redissonFair)));
			targets.add(Target.of(workload + ": throughput >= 1.5x Redisson's fair lock (earlier target)",
					Format.ops(fair.opsPerSecond()) + " ops/s", Format.ops(redissonFair.opsPerSecond()) + " ops/s",
					ratio >= EARLIER_FAIR_VS_REDISSON_FAIR, Format.ratio(ratio) + " Redisson fair"));
			targets.add(Target.of(workload + ": p99 wait no worse than Redisson's fair lock",
					Format.micros(fair.acquireWait().p99Nanos()) + " us",
					Format.micros(redissonFair.acquireWait().p99Nanos()) + " us",
					fair.acquireWait().p99Nanos() <= redissonFair.acquireWait().p99Nanos(), "lower is better"));
		}
		else {
			targets.add(Target.notMeasured(workload + ": >= 2x Redisson's fair lock, p99 wait no worse",
					"Redisson's fair lock was not measured"));
			targets.add(Target.notMeasured(workload + ": >= 1.5x Redisson's fair lock (earlier target)",
					"Redisson's fair lock was not measured"));
		}
		String versusRedisson = (redissonFair != null) ? "; Redisson's fair lock: " + fifo(redissonFair) : "";
		targets.add(Target.of(workload + ": FIFO order verified", fifo(fair),
				"0 overtaken beyond " + ContendedResult.FIFO_TOLERANCE.toMillis() + " ms",
				fair.overtakenBeyondTolerance() == 0 && fair.holds() > 0,
				"a hold is overtaken when a hold granted before it asked later (System.nanoTime before the acquire "
						+ "call, one clock for all processes; every thread counts as its own caller, in one JVM or "
						+ "not)" + versusRedisson));
		return targets;
	}

	private static String fifo(ContendedResult result) {
		return result.overtakenBeyondTolerance() + " of " + result.holds() + " holds overtaken beyond "
				+ ContendedResult.FIFO_TOLERANCE.toMillis() + " ms (" + result.overtaken() + " by any margin, at most "
				+ Format.millis(result.largestOvertakingNanos()) + " ms)";
	}

	/**
	 * Return the median over the rounds of distlock's throughput divided by the floor's
	 * in the same round, or the ratio of the whole runs when the rounds do not pair up.
	 * @param distlock distlock's throughput
	 * @param floor the floor's throughput
	 * @return the ratio
	 */
	static double medianRoundRatio(Throughput distlock, Throughput floor) {
		List<Double> own = distlock.roundOpsPerSecond();
		List<Double> reference = floor.roundOpsPerSecond();
		if (own.isEmpty() || own.size() != reference.size()) {
			return distlock.opsPerSecond() / floor.opsPerSecond();
		}
		double[] ratios = new double[own.size()];
		for (int i = 0; i < ratios.length; i++) {
			ratios[i] = own.get(i) / reference.get(i);
		}
		Arrays.sort(ratios);
		int middle = ratios.length / 2;
		return (ratios.length % 2 == 1) ? ratios[middle] : (ratios[middle - 1] + ratios[middle]) / 2;
	}

	private static Target uncontended(String name, Map<Contender, Outcome<Throughput>> results) {
		Throughput distlock = Measurements.valueOf(results, Contender.DISTLOCK);
		Throughput floor = Measurements.valueOf(results, Contender.FLOOR);
		if (distlock == null || floor == null) {
			return Target.notMeasured(name, "distlock or the floor was not measured");
		}
		double ratio = medianRoundRatio(distlock, floor);
		String rounds = distlock.roundOpsPerSecond()
			.stream()
			.map(Format::ops)
			.collect(Collectors.joining(" / ", "; distlock per round ", ""))
				+ floor.roundOpsPerSecond()
					.stream()
					.map(Format::ops)
					.collect(Collectors.joining(" / ", ", floor ", ""));
		Throughput templateFloor = Measurements.valueOf(results, Contender.TEMPLATE_FLOOR);
		String clientStack = (templateFloor != null) ? "; the floor's commands through Spring Data Redis: "
				+ Format.ratio(templateFloor.opsPerSecond() / floor.opsPerSecond()) : "";
		return Target.of(name, Format.ops(distlock.opsPerSecond()) + " ops/s",
				Format.ops(floor.opsPerSecond()) + " ops/s", ratio >= UNCONTENDED_VS_FLOOR,
				Format.ratio(ratio) + " the floor (median of the per-round ratios)" + rounds + clientStack);
	}

	private static Target cpuPerOp(String name, Map<Contender, Outcome<Throughput>> results) {
		Throughput distlock = Measurements.valueOf(results, Contender.DISTLOCK);
		Throughput floor = Measurements.valueOf(results, Contender.FLOOR);
		if (distlock == null || floor == null || Double.isNaN(distlock.cpuNanosPerOp())
				|| Double.isNaN(floor.cpuNanosPerOp())) {
			return Target.notMeasured(name, "distlock's or the floor's CPU per op was not measured");
		}
		double ratio = distlock.cpuNanosPerOp() / floor.cpuNanosPerOp();
		return Target.of(name, Format.micros((long) distlock.cpuNanosPerOp()) + " us/op",
				Format.micros((long) floor.cpuNanosPerOp()) + " us/op (floor)", ratio <= CPU_PER_OP_VS_FLOOR,
				Format.ratio(ratio) + " the floor's process CPU time per acquire+release (measured windows)");
	}

	private static Target annotation(Outcome<Map<String, Double>> outcome) {
		String name = "Annotation overhead (advice + SpEL): < 2 us per call";
		Map<String, Double> nanos = outcome.value();
		if (nanos == null) {
			return Target.notMeasured(name, String.valueOf(outcome.failure()));
		}
		double overhead = nanos.get("annotated") - nanos.get("handWritten");
		return Target.of(name, Format.decimal(overhead) + " ns", "< 2000 ns", overhead < ANNOTATION_NANOS,
				"annotated minus the same lock calls by hand (JMH, in-memory lock client)");
	}

}
