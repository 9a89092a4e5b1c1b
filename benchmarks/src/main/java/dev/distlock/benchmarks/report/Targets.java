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
import java.util.List;
import java.util.Map;

import dev.distlock.benchmarks.contender.Contender;
import dev.distlock.benchmarks.workload.ContendedResult;
import dev.distlock.benchmarks.workload.HeldLocksResult;
import dev.distlock.benchmarks.workload.ReadWriteResult;
import dev.distlock.benchmarks.workload.Throughput;

/**
 * Evaluates the targets, all as ratios within the same run.
 *
 * @author distlock
 * @since 0.1.0
 */
final class Targets {

	static final double UNCONTENDED_VS_FLOOR = 0.9;

	static final double CONTENDED_VS_REDISSON = 1.5;

	static final int HANDOFF_ROUND_TRIPS = 3;

	static final int FAIR_HANDOFF_ROUND_TRIPS = 2;

	static final double SCRIPTS_PER_CRITICAL_SECTION = 2.5;

	static final int RENEWAL_ROUND_TRIPS = 100;

	static final double ANNOTATION_NANOS = 2000;

	static final double READERS_VS_WRITE_LOCK_ONLY = 5;

	static final String READERS = "16 readers + 1 writer";

	private Targets() {
	}

	static List<Target> evaluate(Measurements measurements) {
		List<Target> targets = new ArrayList<>();
		targets.add(uncontended("Uncontended, 1 thread: >= 0.9x the floor", measurements.uncontendedSingle));
		targets.add(uncontended("Uncontended, 16 threads: >= 0.9x the floor", measurements.uncontendedMulti));
		ContendedResult distlock = Measurements.valueOf(measurements.contended, Contender.DISTLOCK);
		ContendedResult redisson = Measurements.valueOf(measurements.contended, Contender.REDISSON);
		if (distlock != null && redisson != null) {
			double ratio = distlock.opsPerSecond() / redisson.opsPerSecond();
			targets.add(Target.of("Contended throughput: >= 1.5x Redisson",
					Format.ops(distlock.opsPerSecond()) + " ops/s", Format.ops(redisson.opsPerSecond()) + " ops/s",
					ratio >= CONTENDED_VS_REDISSON, Format.ratio(ratio) + " Redisson"));
			targets.add(Target.of("Contended p99 wait: no worse than Redisson",
					Format.micros(distlock.acquireWait().p99Nanos()) + " us",
					Format.micros(redisson.acquireWait().p99Nanos()) + " us",
					distlock.acquireWait().p99Nanos() <= redisson.acquireWait().p99Nanos(), "lower is better"));
		}
		else {
			targets.add(Target.notMeasured("Contended: >= 1.5x Redisson, p99 wait no worse",
					"distlock or Redisson was not measured"));
		}
		long roundTrip = Math.max(1, measurements.roundTrip.p50Nanos());
		if (distlock != null) {
			double trips = distlock.handoff().p50Nanos() / (double) roundTrip;
			ContendedResult floor = Measurements.valueOf(measurements.contended, Contender.FLOOR);
			String floorTrips = (floor != null) ? "; the floor, polling every ms: "
					+ Format.decimal(floor.handoff().p50Nanos() / (double) roundTrip) : "";
			targets.add(Target.of("Hand-off p50: within 3 Redis round trips",
					Format.micros(distlock.handoff().p50Nanos()) + " us",
					HANDOFF_ROUND_TRIPS + " x " + Format.micros(roundTrip) + " us (PING p50)",
					trips <= HANDOFF_ROUND_TRIPS,
					Format.decimal(trips) + " round trips" + floorTrips + "; cross-process only: "
							+ Format.micros(distlock.crossProcessHandoff().p50Nanos()) + " us"));
		}
		if (distlock != null) {
			double scripts = scripts(distlock);
			targets.add(Target.of("Default mode: Redis scripts per critical section <= 2.5", Format.decimal(scripts),
					"<= " + SCRIPTS_PER_CRITICAL_SECTION, scripts <= SCRIPTS_PER_CRITICAL_SECTION,
					"EVALSHA + EVAL calls per critical section, " + distlock.processes()
							+ " processes (INFO commandstats)"));
		}
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
		targets.addAll(readWrite(measurements));
		targets.add(annotation(measurements.annotation));
		long violations = measurements.contended.values()
			.stream()
			.filter((outcome) -> outcome.value() != null)
			.mapToLong((outcome) -> outcome.value().violations())
			.sum();
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

	private static List<Target> fair(Measurements measurements, long roundTrip) {
		ContendedResult fair = Measurements.valueOf(measurements.contended, Contender.DISTLOCK_FAIR);
		ContendedResult redissonFair = Measurements.valueOf(measurements.contended, Contender.REDISSON_FAIR);
		List<Target> targets = new ArrayList<>();
		if (fair == null) {
			targets.add(Target.notMeasured("Fair mode", "distlock fair was not measured"));
			return targets;
		}
		double trips = fair.crossProcessHandoff().p50Nanos() / (double) roundTrip;
		targets.add(Target.of("Fair mode: cross-process hand-off p50 <= 2 Redis round trips",
				Format.micros(fair.crossProcessHandoff().p50Nanos()) + " us",
				FAIR_HANDOFF_ROUND_TRIPS + " x " + Format.micros(roundTrip) + " us (PING p50)",
				trips <= FAIR_HANDOFF_ROUND_TRIPS, Format.decimal(trips) + " round trips"));
		if (redissonFair == null) {
			targets.add(Target.notMeasured("Fair mode: >= 1.5x Redisson's fair lock, p99 wait no worse",
					"Redisson's fair lock was not measured"));
			return targets;
		}
		double ratio = fair.opsPerSecond() / redissonFair.opsPerSecond();
		targets.add(Target.of("Fair mode: throughput >= 1.5x Redisson's fair lock",
				Format.ops(fair.opsPerSecond()) + " ops/s", Format.ops(redissonFair.opsPerSecond()) + " ops/s",
				ratio >= CONTENDED_VS_REDISSON, Format.ratio(ratio) + " Redisson fair"));
		targets.add(Target.of("Fair mode: p99 wait no worse than Redisson's fair lock",
				Format.micros(fair.acquireWait().p99Nanos()) + " us",
				Format.micros(redissonFair.acquireWait().p99Nanos()) + " us",
				fair.acquireWait().p99Nanos() <= redissonFair.acquireWait().p99Nanos(), "lower is better"));
		return targets;
	}

	private static double scripts(ContendedResult result) {
		return result.commandsPerOp().getOrDefault("evalsha", 0.0) + result.commandsPerOp().getOrDefault("eval", 0.0);
	}

	private static Target uncontended(String name, Map<Contender, Outcome<Throughput>> results) {
		Throughput distlock = Measurements.valueOf(results, Contender.DISTLOCK);
		Throughput floor = Measurements.valueOf(results, Contender.FLOOR);
		if (distlock == null || floor == null) {
			return Target.notMeasured(name, "distlock or the floor was not measured");
		}
		double ratio = distlock.opsPerSecond() / floor.opsPerSecond();
		Throughput templateFloor = Measurements.valueOf(results, Contender.TEMPLATE_FLOOR);
		String clientStack = (templateFloor != null) ? "; the floor's commands through Spring Data Redis: "
				+ Format.ratio(templateFloor.opsPerSecond() / floor.opsPerSecond()) : "";
		return Target.of(name, Format.ops(distlock.opsPerSecond()) + " ops/s",
				Format.ops(floor.opsPerSecond()) + " ops/s", ratio >= UNCONTENDED_VS_FLOOR,
				Format.ratio(ratio) + " the floor" + clientStack);
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
