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

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.distlock.benchmarks.contender.Contender;
import dev.distlock.benchmarks.workload.AsyncWaitersResult;
import dev.distlock.benchmarks.workload.ClusterRenewalResult;
import dev.distlock.benchmarks.workload.ClusterRenewalResult.Round;
import dev.distlock.benchmarks.workload.ContendedResult;
import dev.distlock.benchmarks.workload.Latency;
import dev.distlock.benchmarks.workload.Throughput;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Targets}: the thresholds and the figures each target compares.
 *
 * @author distlock
 * @since 0.1.0
 */
class TargetsTests {

	@Test
	void takesTheMedianOfThePerRoundRatiosForAnOddNumberOfRounds() {
		Throughput distlock = throughput(900, 1000, 2000);
		Throughput floor = throughput(1000, 1000, 1000);
		assertThat(Targets.medianRoundRatio(distlock, floor)).isEqualTo(1.0);
	}

	@Test
	void averagesTheTwoMiddleRatiosForAnEvenNumberOfRounds() {
		Throughput distlock = throughput(900, 1000, 950, 5000);
		Throughput floor = throughput(1000, 1000, 1000, 1000);
		assertThat(Targets.medianRoundRatio(distlock, floor)).isEqualTo(0.975);
	}

	@Test
	void fallsBackToTheWholeRunsWhenTheRoundsDoNotPairUp() {
		Throughput distlock = new Throughput(1, 900, new Latency(1, 1, 1), List.of(900.0));
		Throughput floor = new Throughput(1, 1000, new Latency(1, 1, 1), List.of(1000.0, 1000.0));
		assertThat(Targets.medianRoundRatio(distlock, floor)).isEqualTo(0.9);
	}

	@Test
	void missesTheUncontendedTargetBelowNinetyFivePercentOfTheFloorInTheMedianRound() {
		Measurements measurements = new Measurements();
		measurements.uncontendedSingle.put(Contender.DISTLOCK, Outcome.success(throughput(960, 940, 1200)));
		measurements.uncontendedSingle.put(Contender.FLOOR, Outcome.success(throughput(1000, 1000, 1000)));
		measurements.uncontendedMulti.put(Contender.DISTLOCK, Outcome.success(throughput(950, 990, 900)));
		measurements.uncontendedMulti.put(Contender.FLOOR, Outcome.success(throughput(1000, 1000, 1000)));
		assertThat(target(measurements, "Uncontended, 1 thread").verdict()).isEqualTo("PASS");
		assertThat(target(measurements, "Uncontended, 16 threads").verdict()).isEqualTo("PASS");
		measurements.uncontendedMulti.put(Contender.DISTLOCK, Outcome.success(throughput(949, 990, 900)));
		assertThat(target(measurements, "Uncontended, 16 threads").verdict()).isEqualTo("MISS");
	}

	@Test
	void requiresTwoAndAHalfTimesRedissonsThroughputInTheDefaultModeWithTheCrossProcessShareAndWaitBeside() {
		Measurements measurements = contended(crossing(contended(4, 2500, 120_000, 0), 0.22, 300),
				crossing(contended(4, 1000, 300_000, 0), 0.95, 300));
		Target target = target(measurements, "Default mode, 4 processes x 4 threads: throughput >= 2.5x Redisson");
		assertThat(target.verdict()).isEqualTo("PASS");
		assertThat(target.note()).isEqualTo("2.50x Redisson; cross-process hand-offs: distlock 22%, Redisson 95%; "
				+ "p99 wait: distlock 120.0 us, Redisson 300.0 us");
		measurements.contended.put(Contender.REDISSON, Outcome.success(contended(4, 1001, 300_000, 0)));
		assertThat(target(measurements, "throughput >= 2.5x Redisson").verdict()).isEqualTo("MISS");
		assertThat(target(measurements, "throughput >= 2x Redisson (earlier target)").verdict()).isEqualTo("PASS");
	}

	@Test
	void keepsTheEarlierTargetOfTwiceRedissonsThroughputInTheDefaultMode() {
		Measurements measurements = contended(contended(4, 2000, 100, 0), contended(4, 1000, 100, 0));
		assertThat(target(measurements, "throughput >= 2x Redisson (earlier target)").verdict()).isEqualTo("PASS");
		measurements.contended.put(Contender.REDISSON, Outcome.success(contended(4, 1001, 100, 0)));
		assertThat(target(measurements, "throughput >= 2x Redisson (earlier target)").verdict()).isEqualTo("MISS");
	}

	@Test
	void reportsBothRedissonTargetsAsNotMeasuredWithoutRedisson() {
		Measurements measurements = new Measurements();
		measurements.contended.put(Contender.DISTLOCK, Outcome.success(contended(4, 2000, 100, 0)));
		assertThat(target(measurements, "throughput >= 2.5x Redisson").verdict()).isEqualTo("NOT MEASURED");
		assertThat(target(measurements, "throughput >= 2x Redisson (earlier target)").verdict())
			.isEqualTo("NOT MEASURED");
		assertThat(target(measurements, "0.6x the floor").verdict()).isEqualTo("NOT MEASURED");
	}

	@Test
	void requiresSixTenthsOfTheMillisecondFloorWithAP99WaitNoWorseThanItsInTheDefaultMode() {
		Measurements measurements = contended(crossing(contended(4, 600, 200_000, 0), 0.3, 300),
				contended(4, 100, 100, 0));
		measurements.contended.put(Contender.FLOOR,
				Outcome.success(crossing(contended(4, 1000, 200_000, 0), 0.1, 300)));
		measurements.contended.put(Contender.POLLING_FLOOR, Outcome.success(contended(4, 100, 1, 0)));
		String name = "Default mode, 4 processes x 4 threads: throughput >= 0.6x the floor (1 ms poll) with a p99 "
				+ "wait no worse than the floor's";
		Target target = target(measurements, name);
		assertThat(target.verdict()).isEqualTo("PASS");
		assertThat(target.measured()).isEqualTo("600 ops/s, p99 wait 200.0 us");
		assertThat(target.reference()).isEqualTo("1,000 ops/s, p99 wait 200.0 us (floor, 1 ms poll)");
		assertThat(target.note()).isEqualTo("0.60x the floor; cross-process hand-offs: distlock 30%, the floor 10%; "
				+ "p99 wait: distlock 200.0 us, the floor 200.0 us");
		measurements.contended.put(Contender.FLOOR, Outcome.success(contended(4, 1001, 200_000, 0)));
		Target slower = target(measurements, name);
		assertThat(slower.verdict()).isEqualTo("MISS");
		assertThat(slower.note()).startsWith("0.60x the floor; missed on throughput;");
		measurements.contended.put(Contender.FLOOR, Outcome.success(contended(4, 1000, 199_999, 0)));
		Target longerWait = target(measurements, name);
		assertThat(longerWait.verdict()).isEqualTo("MISS");
		assertThat(longerWait.note()).startsWith("0.60x the floor; missed on p99 wait;");
		measurements.contended.put(Contender.FLOOR, Outcome.success(contended(4, 1001, 199_999, 0)));
		assertThat(target(measurements, name).note()).startsWith("0.60x the floor; missed on throughput and p99 wait;");
	}

	@Test
	void comparesTheEarlierDefaultModeTargetsWithThePollingFloor() {
		Measurements measurements = contended(contended(4, 800, 200, 0), contended(4, 100, 100, 0));
		measurements.contended.put(Contender.FLOOR, Outcome.success(contended(4, 5000, 10, 0)));
		measurements.contended.put(Contender.POLLING_FLOOR, Outcome.success(contended(4, 1000, 200, 0)));
		assertThat(target(measurements, "throughput >= 0.8x the polling floor (earlier target)").verdict())
			.isEqualTo("PASS");
		assertThat(target(measurements, "p99 wait no worse than the polling floor's (earlier target)").verdict())
			.isEqualTo("PASS");
		assertThat(target(measurements, "0.6x the floor").verdict()).isEqualTo("MISS");
		measurements.contended.put(Contender.POLLING_FLOOR, Outcome.success(contended(4, 1001, 199, 0)));
		assertThat(target(measurements, "throughput >= 0.8x the polling floor").verdict()).isEqualTo("MISS");
		assertThat(target(measurements, "p99 wait no worse than the polling floor's").verdict()).isEqualTo("MISS");
	}

	@Test
	void checksScriptsPerCriticalSectionAtBothProcessCounts() {
		Measurements measurements = contended(contended(4, 1000, 100, 0, 2.0, 0.5), contended(4, 100, 100, 0));
		measurements.contendedWide = Outcome.success(contended(8, 1000, 100, 0, 2.5, 0.1));
		assertThat(target(measurements, "Default mode, 4 processes x 4 threads: Redis scripts").verdict())
			.isEqualTo("PASS");
		Target wide = target(measurements, "Default mode, 8 processes x 4 threads: Redis scripts");
		assertThat(wide.verdict()).isEqualTo("MISS");
		assertThat(wide.measured()).isEqualTo("2.6");
	}

	@Test
	void reportsTheScriptTargetOfTheWiderRunAsNotMeasuredWhenItFailed() {
		Measurements measurements = contended(contended(4, 1000, 100, 0), contended(4, 100, 100, 0));
		measurements.contendedWide = Outcome.failed("worker 5 failed");
		Target wide = target(measurements, "more processes");
		assertThat(wide.verdict()).isEqualTo("NOT MEASURED");
		assertThat(wide.note()).isEqualTo("worker 5 failed");
	}

	@Test
	void verifiesFifoOrderOnlyWithoutHoldsOvertakenBeyondTheTolerance() {
		Measurements measurements = new Measurements();
		measurements.contended.put(Contender.DISTLOCK_FAIR, Outcome.success(contended(4, 500, 100, 3)));
		measurements.contended.put(Contender.REDISSON_FAIR, Outcome.success(contended(4, 300, 100, 7)));
		Target fifo = target(measurements, "FIFO order verified");
		assertThat(fifo.verdict()).isEqualTo("PASS");
		assertThat(fifo.measured()).isEqualTo("0 of 500 holds overtaken beyond 5 ms (3 by any margin, at most 3.0 ms)");
		assertThat(fifo.note())
			.endsWith("Redisson's fair lock: 0 of 300 holds overtaken beyond 5 ms (7 by any margin, at most 7.0 ms)");
		measurements.contended.put(Contender.DISTLOCK_FAIR,
				Outcome.success(new ContendedResult(4, 4, 500, 500, new Latency(1, 100, 1), new Latency(1, 1, 1),
						new Latency(1, 1, 1), 0.5, 0, 0, 0, 3, 1, 6_000_000, Map.of())));
		Target missed = target(measurements, "FIFO order verified");
		assertThat(missed.verdict()).isEqualTo("MISS");
		assertThat(missed.measured())
			.isEqualTo("1 of 500 holds overtaken beyond 5 ms (3 by any margin, at most 6.0 ms)");
	}

	@Test
	void comparesFairModeWithRedissonsFairLock() {
		Measurements measurements = new Measurements();
		measurements.roundTrip = new Latency(100, 50, 200);
		measurements.contended.put(Contender.DISTLOCK_FAIR, Outcome.success(contended(4, 1500, 100, 0)));
		measurements.contended.put(Contender.REDISSON_FAIR, Outcome.success(contended(4, 1000, 101, 0)));
		assertThat(target(measurements, "throughput >= 1.5x Redisson's fair lock (earlier target)").verdict())
			.isEqualTo("PASS");
		assertThat(target(measurements, "p99 wait no worse than Redisson's fair lock").verdict()).isEqualTo("PASS");
		assertThat(target(measurements, "cross-process hand-off p50 <= 2 Redis round trips (earlier target)").verdict())
			.isEqualTo("MISS");
	}

	@Test
	void requiresTwiceTheThroughputOfRedissonsFairLockInFairMode() {
		Measurements measurements = new Measurements();
		measurements.contended.put(Contender.DISTLOCK_FAIR,
				Outcome.success(crossing(contended(4, 2000, 90_000, 0), 0.75, 300)));
		measurements.contended.put(Contender.REDISSON_FAIR,
				Outcome.success(crossing(contended(4, 1000, 100_000, 0), 0.7, 300)));
		Target target = target(measurements,
				"Fair mode, 4 processes x 4 threads: throughput >= 2x Redisson's fair lock");
		assertThat(target.verdict()).isEqualTo("PASS");
		assertThat(target.note()).isEqualTo("2.00x Redisson fair; cross-process hand-offs: distlock fair 75%, "
				+ "Redisson fair 70%; p99 wait: distlock fair 90.0 us, Redisson fair 100.0 us");
		measurements.contended.put(Contender.DISTLOCK_FAIR, Outcome.success(contended(4, 1999, 90_000, 0)));
		assertThat(target(measurements, "throughput >= 2x Redisson's fair lock").verdict()).isEqualTo("MISS");
		assertThat(target(measurements, "throughput >= 1.5x Redisson's fair lock (earlier target)").verdict())
			.isEqualTo("PASS");
	}

	@Test
	void requiresACrossProcessFairHandOffWithinThreeRoundTrips() {
		Measurements measurements = new Measurements();
		measurements.roundTrip = new Latency(100, 100, 200);
		measurements.contended.put(Contender.DISTLOCK_FAIR,
				Outcome.success(crossing(contended(4, 500, 100, 0), 0.75, 300)));
		measurements.contended.put(Contender.REDISSON_FAIR,
				Outcome.success(crossing(contended(4, 300, 100, 0), 0.75, 2_600)));
		Target target = target(measurements,
				"Fair mode, 4 processes x 4 threads: cross-process hand-off p50 <= 3 " + "Redis round trips");
		assertThat(target.verdict()).isEqualTo("PASS");
		assertThat(target.reference()).isEqualTo("3 x 0.1 us (PING p50)");
		assertThat(target.note()).isEqualTo("3.0 round trips; Redisson's fair lock: 26.0 round trips");
		assertThat(target(measurements, "<= 2 Redis round trips (earlier target)").verdict()).isEqualTo("MISS");
		measurements.contended.put(Contender.DISTLOCK_FAIR,
				Outcome.success(crossing(contended(4, 500, 100, 0), 0.75, 301)));
		assertThat(target(measurements, "cross-process hand-off p50 <= 3 Redis round trips").verdict())
			.isEqualTo("MISS");
		measurements.contended.put(Contender.DISTLOCK_FAIR,
				Outcome.success(crossing(contended(4, 500, 100, 0), 0.75, 200)));
		assertThat(target(measurements, "<= 2 Redis round trips (earlier target)").verdict()).isEqualTo("PASS");
	}

	@Test
	void missesTheFairHandOffTargetsWhenNoHandOffCrossedProcesses() {
		Measurements measurements = new Measurements();
		measurements.roundTrip = new Latency(100, 100, 200);
		measurements.contended.put(Contender.DISTLOCK_FAIR,
				Outcome.success(new ContendedResult(4, 4, 500, 500, new Latency(500, 50, 100),
						new Latency(500, 300, 600), new Latency(0, 0, 0), 0, 0, 0, 0, 0, 0, 0, Map.of())));
		Target target = target(measurements, "cross-process hand-off p50 <= 3 Redis round trips");
		assertThat(target.verdict()).isEqualTo("MISS");
		assertThat(target.note()).isEqualTo("0.0 round trips (no cross-process hand-off measured)");
		assertThat(target(measurements, "<= 2 Redis round trips (earlier target)").verdict()).isEqualTo("MISS");
	}

	@Test
	void allowsAsynchronousWaitersAtMostFourThreadsWhileTheyStartAndWait() {
		Measurements measurements = new Measurements();
		measurements.asyncWaiters = Outcome.success(asyncWaiters(10_000, 40, 42, 44, 49, 0, 0, 0));
		Target threads = target(measurements, "10,000 asynchronous waiters: add at most 4 threads");
		assertThat(threads.verdict()).isEqualTo("PASS");
		assertThat(threads.measured()).isEqualTo("4 threads");
		assertThat(threads.note()).isEqualTo("live platform threads while the waiters start and wait, beyond the 40 "
				+ "before (2 while all wait); not counted: the peak while the holder releases and the waiters are "
				+ "granted, 9 (new threads then: distlock-holder-callback-* x2, distlock-redis-command-* x7)");
		measurements.asyncWaiters = Outcome.success(asyncWaiters(10_000, 40, 42, 45, 41, 0, 0, 0));
		assertThat(target(measurements, "add at most 4 threads").verdict()).isEqualTo("MISS");
		measurements.asyncWaiters = Outcome.success(asyncWaiters(10_000, 40, 45, 41, 41, 0, 0, 0));
		assertThat(target(measurements, "add at most 4 threads").verdict()).isEqualTo("MISS");
	}

	@Test
	void missesTheCleanUpTargetWhenAWaiterFailedOrALockWasLeft() {
		Measurements measurements = new Measurements();
		measurements.asyncWaiters = Outcome.success(asyncWaiters(1_000, 40, 40, 40, 40, 0, 0, 0));
		assertThat(target(measurements, "1,000 asynchronous waiters: all granted").verdict()).isEqualTo("PASS");
		measurements.asyncWaiters = Outcome.success(asyncWaiters(1_000, 40, 40, 40, 40, 0, 0, 3));
		Target left = target(measurements, "all granted after the release, nothing left held");
		assertThat(left.verdict()).isEqualTo("MISS");
		assertThat(left.measured()).isEqualTo("0 failed, 0 held, 3 lock keys left");
		measurements.asyncWaiters = Outcome.success(asyncWaiters(1_000, 40, 40, 40, 40, 2, 0, 0));
		assertThat(target(measurements, "nothing left held").verdict()).isEqualTo("MISS");
	}

	@Test
	void reportsTheAsynchronousWaitersAsNotMeasuredWhenTheRunFailed() {
		Measurements measurements = new Measurements();
		measurements.asyncWaiters = Outcome.failed("TimeoutException: not all waiting");
		Target threads = target(measurements, "Asynchronous waiters: add at most 4 threads");
		assertThat(threads.verdict()).isEqualTo("NOT MEASURED");
		assertThat(threads.note()).isEqualTo("TimeoutException: not all waiting");
	}

	private static AsyncWaitersResult asyncWaiters(int waiters, int before, int whileWaiting, int peakStarting,
			int peakGranting, long failed, int heldAfter, long lockKeysLeft) {
		return new AsyncWaitersResult(waiters, before, whileWaiting, peakStarting, peakGranting, 0, 0, 0, 0, 12_000_000,
				new Latency(waiters, 5_000_000, 11_000_000), failed, heldAfter, lockKeysLeft,
				new TreeMap<>(Map.of("distlock-redis-command-*", 7, "distlock-holder-callback-*", 2)));
	}

	@Test
	void passesTheClusterRenewalTargetWhenTheSlowestRoundTakesAtMostAThirdOfTheIntervalWithNothingLost() {
		Measurements measurements = new Measurements();
		measurements.clusterRenewal = Outcome
			.success(clusterRenewal(10_000, 0, Duration.ofMillis(120), Duration.ofMillis(333)));
		Target target = target(measurements,
				"10,000 held locks on a three-master Cluster renewed in well under one renewal interval");
		assertThat(target.verdict()).isEqualTo("PASS");
		assertThat(target.measured()).isEqualTo("333.0 ms (slowest round)");
		assertThat(target.reference()).isEqualTo("<= 1/3 x 1000 ms (interval), 0 lost");
		assertThat(target.note()).startsWith("0.33x the interval; 3 masters, 3 rounds, 0 leases lost or not renewed");
	}

	@Test
	void missesTheClusterRenewalTargetWhenARoundIsTooSlowOrALeaseIsLost() {
		Measurements measurements = new Measurements();
		measurements.clusterRenewal = Outcome
			.success(clusterRenewal(10_000, 0, Duration.ofMillis(120), Duration.ofMillis(334)));
		assertThat(target(measurements, "three-master Cluster").verdict()).isEqualTo("MISS");
		measurements.clusterRenewal = Outcome
			.success(clusterRenewal(10_000, 1, Duration.ofMillis(120), Duration.ofMillis(130)));
		assertThat(target(measurements, "three-master Cluster").verdict()).isEqualTo("MISS");
		measurements.clusterRenewal = Outcome.success(new ClusterRenewalResult(10_000, 3, Duration.ofSeconds(1),
				List.of(new Round(20, 10_000, 10_000, 0, 0, Duration.ofMillis(100))), List.of(1L, 1L, 1L)));
		assertThat(target(measurements, "three-master Cluster").verdict()).isEqualTo("MISS");
	}

	@Test
	void reportsTheClusterRenewalAsNotMeasuredWhenTheRunFailed() {
		Measurements measurements = new Measurements();
		measurements.clusterRenewal = Outcome.failed("IllegalStateException: no Cluster");
		Target target = target(measurements, "three-master Cluster");
		assertThat(target.verdict()).isEqualTo("NOT MEASURED");
		assertThat(target.note()).isEqualTo("IllegalStateException: no Cluster");
	}

	private static ClusterRenewalResult clusterRenewal(int locks, int lost, Duration fast, Duration slow) {
		Round first = new Round(20, locks, locks, 0, 0, fast);
		Round second = new Round(20, locks, locks - lost, lost, 0, slow);
		return new ClusterRenewalResult(locks, 3, Duration.ofSeconds(1), List.of(first, second, first),
				List.of(6_000L, 6_100L, 5_900L));
	}

	@Test
	void missesTheClientCpuTargetAboveOnePointOneFiveTimesTheFloorsCpuPerOp() {
		Measurements measurements = new Measurements();
		measurements.uncontendedSingle.put(Contender.DISTLOCK, Outcome.success(withCpu(57_000)));
		measurements.uncontendedSingle.put(Contender.FLOOR, Outcome.success(withCpu(50_000)));
		assertThat(target(measurements, "CPU per uncontended op, 1 thread").verdict()).isEqualTo("PASS");
		measurements.uncontendedSingle.put(Contender.DISTLOCK, Outcome.success(withCpu(58_000)));
		assertThat(target(measurements, "CPU per uncontended op, 1 thread").verdict()).isEqualTo("MISS");
		assertThat(target(measurements, "CPU per uncontended op, 16 threads").verdict()).isEqualTo("NOT MEASURED");
	}

	private static Throughput withCpu(double cpuNanosPerOp) {
		return new Throughput(1, 1000, new Latency(1, 1, 1), List.of(1000.0), cpuNanosPerOp);
	}

	private static Target target(Measurements measurements, String name) {
		List<Target> matching = Targets.evaluate(measurements)
			.stream()
			.filter((target) -> target.name().contains(name))
			.toList();
		assertThat(matching).hasSize(1);
		return matching.get(0);
	}

	private static Measurements contended(ContendedResult distlock, ContendedResult redisson) {
		Measurements measurements = new Measurements();
		measurements.contended.put(Contender.DISTLOCK, Outcome.success(distlock));
		measurements.contended.put(Contender.REDISSON, Outcome.success(redisson));
		return measurements;
	}

	private static ContendedResult contended(int processes, double opsPerSecond, long p99Wait, long overtaken) {
		return contended(processes, opsPerSecond, p99Wait, overtaken, 2.0, 0.0);
	}

	private static ContendedResult contended(int processes, double opsPerSecond, long p99Wait, long overtaken,
			double evalsha, double eval) {
		int holds = (int) Math.round(opsPerSecond);
		return new ContendedResult(processes, 4, holds, opsPerSecond, new Latency(holds, p99Wait / 2, p99Wait),
				new Latency(holds, 300, 600), new Latency(holds, 300, 600), 0.5, 0, 0, 0, overtaken, 0,
				overtaken * 1_000_000, Map.of("evalsha", evalsha, "eval", eval));
	}

	private static ContendedResult crossing(ContendedResult result, double crossProcessShare,
			long crossProcessHandoffP50) {
		return new ContendedResult(result.processes(), result.threadsPerProcess(), result.holds(),
				result.opsPerSecond(), result.acquireWait(), result.handoff(),
				new Latency(result.crossProcessHandoff().samples(), crossProcessHandoffP50,
						result.crossProcessHandoff().p99Nanos()),
				crossProcessShare, result.lostUpdates(), result.overlaps(), result.timeouts(), result.overtaken(),
				result.overtakenBeyondTolerance(), result.largestOvertakingNanos(), result.commandsPerOp());
	}

	private static Throughput throughput(double... rounds) {
		List<Double> perRound = Arrays.stream(rounds).boxed().toList();
		double total = perRound.stream().mapToDouble(Double::doubleValue).average().orElse(0);
		return new Throughput(1, total, new Latency(rounds.length, 1, 1), perRound);
	}

}
