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
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

import dev.distlock.benchmarks.RunSettings;
import dev.distlock.benchmarks.contender.Contender;
import dev.distlock.benchmarks.workload.AsyncWaitersResult;
import dev.distlock.benchmarks.workload.ClusterRenewalResult;
import dev.distlock.benchmarks.workload.ClusterRenewalWorkload;
import dev.distlock.benchmarks.workload.ContendedResult;
import dev.distlock.benchmarks.workload.HeldLocksResult;
import dev.distlock.benchmarks.workload.ReadWriteResult;
import dev.distlock.benchmarks.workload.Throughput;

/**
 * Renders a run as Markdown: the machine, the targets with their verdicts, and one table
 * per workload with absolute figures and ratios to the floor and to distlock.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class MarkdownReport {

	private final Machine machine;

	private final RunSettings settings;

	/**
	 * Create a report.
	 * @param machine where the run took place
	 * @param settings how the run was configured
	 */
	public MarkdownReport(Machine machine, RunSettings settings) {
		this.machine = machine;
		this.settings = settings;
	}

	/**
	 * Render the measurements.
	 * @param measurements what the run measured
	 * @param finished when the run finished
	 * @return the Markdown text
	 */
	public String render(Measurements measurements, Instant finished) {
		StringBuilder out = new StringBuilder();
		out.append("# distlock benchmark results\n\n");
		machine(out, measurements, finished);
		targets(out, Targets.evaluate(measurements));
		uncontended(out, "Uncontended acquire+release, 1 thread", measurements.uncontendedSingle);
		uncontended(out, "Uncontended acquire+release, " + this.settings.threads() + " threads on distinct keys",
				measurements.uncontendedMulti);
		contended(out, measurements);
		readWrite(out, measurements);
		held(out, measurements);
		asyncWaiters(out, measurements.asyncWaiters);
		clusterRenewal(out, measurements.clusterRenewal);
		annotation(out, measurements);
		return out.toString();
	}

	/**
	 * Return the provenance line the documentation check reads
	 * ({@code Provenance: commit <hash>; date <yyyy-mm-dd>; duration <time>; machine <description>}).
	 * @param measurements the measurements, with the commit and the start of the run
	 * @param finished when the run finished
	 * @return the line
	 */
	String provenance(Measurements measurements, Instant finished) {
		Duration duration = Duration.between(measurements.started, finished);
		return "Provenance: commit " + measurements.commit + "; date " + LocalDate.ofInstant(finished, ZoneOffset.UTC)
				+ "; duration " + duration.toMinutes() + " min " + duration.toSecondsPart() + " s; machine "
				+ this.machine.cpu() + ", " + this.machine.cores() + " cores, " + this.machine.memoryGib() + " GiB, "
				+ this.machine.jdk() + ", Redis " + this.machine.redisVersion() + " on loopback.";
	}

	private void machine(StringBuilder out, Measurements measurements, Instant finished) {
		out.append("Run finished ").append(finished).append(".\n\n");
		out.append(provenance(measurements, finished)).append("\n\n");
		out.append("| Machine | |\n|---|---|\n");
		out.append("| CPU | ")
			.append(this.machine.cpu())
			.append(", ")
			.append(this.machine.cores())
			.append(" cores |\n");
		out.append("| Memory | ").append(this.machine.memoryGib()).append(" GiB |\n");
		out.append("| OS | ").append(this.machine.os()).append(" |\n");
		out.append("| JDK | ").append(this.machine.jdk()).append(" |\n");
		out.append("| JVM options (every JVM) | `").append(String.join(" ", this.machine.jvmArgs())).append("` |\n");
		out.append("| Redis | ")
			.append(this.machine.redisVersion())
			.append(" on loopback, no persistence, started by the run, shared by all libraries |\n");
		out.append("| Redis round trip (PING) | p50 ")
			.append(Format.micros(measurements.roundTrip.p50Nanos()))
			.append(" us, p99 ")
			.append(Format.micros(measurements.roundTrip.p99Nanos()))
			.append(" us |\n");
		out.append("| Load average (1 min) at start / end | ")
			.append(measurements.loadAverages)
			.append(" (the machine is shared; other work ran at the same time) |\n");
		out.append("| Phases | ").append(this.settings.describe()).append(" |\n\n");
	}

	private static void targets(StringBuilder out, List<Target> targets) {
		out.append("## Targets\n\n| Target | distlock | Reference | Verdict | Note |\n|---|---|---|---|---|\n");
		for (Target target : targets) {
			out.append("| ")
				.append(target.name())
				.append(" | ")
				.append(target.measured())
				.append(" | ")
				.append(target.reference())
				.append(" | **")
				.append(target.verdict())
				.append("** | ")
				.append(target.note())
				.append(" |\n");
		}
		out.append('\n');
	}

	private static void uncontended(StringBuilder out, String title, Map<Contender, Outcome<Throughput>> results) {
		out.append("## ").append(title).append("\n\n");
		out.append("Client CPU per op = this JVM's process CPU time (user + system, every thread) in the measured ")
			.append("windows divided by the acquire+release pairs begun in them; Redis runs in its own process.\n\n");
		out.append("| Library | ops/s | p50 us | p99 us | client CPU us/op | vs floor | distlock vs this |\n")
			.append("|---|---|---|---|---|---|---|\n");
		for (Map.Entry<Contender, Outcome<Throughput>> entry : results.entrySet()) {
			out.append("| ")
				.append(entry.getKey().label())
				.append(" | ")
				.append(entry.getValue()
					.format((result) -> Format.ops(result.opsPerSecond()) + " | "
							+ Format.micros(result.latency().p50Nanos()) + " | "
							+ Format.micros(result.latency().p99Nanos()) + " | " + cpuPerOp(result) + " | "
							+ ratios(results, entry.getKey(), Throughput::opsPerSecond)))
				.append(" |\n");
		}
		out.append('\n');
	}

	private static String cpuPerOp(Throughput result) {
		return Double.isNaN(result.cpuNanosPerOp()) ? "n/a" : Format.micros((long) result.cpuNanosPerOp());
	}

	private void contended(StringBuilder out, Measurements measurements) {
		Map<Contender, Outcome<ContendedResult>> results = measurements.contended;
		out.append("## Contended: one key, ")
			.append(this.settings.processes())
			.append(" JVM processes x ")
			.append(this.settings.threadsPerProcess())
			.append(" threads\n\n");
		out.append("Critical section: a non-atomic GET+SET increment of a Redis counter. Wait = asking to holding. ")
			.append("Hand-off = the previous holder starts releasing -> the next, already waiting, holder holds; ")
			.append("\"cross-process\" counts only hand-offs to another JVM, the ones that must go through Redis. ")
			.append("Round trips are PING p50. Violations = lost counter updates + overlapping holds. ")
			.append("Overtaken = holds granted after a hold that asked for the lock later (asking = System.nanoTime ")
			.append("before the acquire call, one clock for all processes; every thread is its own caller), by more ")
			.append("than ")
			.append(ContendedResult.FIFO_TOLERANCE.toMillis())
			.append(" ms / by any margin, and the largest margin by which an overtaking hold asked later; 0 beyond the tolerance is FIFO order. The floor polls every ")
			.append("millisecond, the polling floor every 10 ms. A high throughput with a low share of cross-process ")
			.append("hand-offs means barging: a process re-takes its own lock while the other processes wait; their cost ")
			.append("shows in the wait p99.\n\n");
		out.append("| Library | ops/s | wait p50 us | wait p99 us | hand-off p50 us | hand-off p99 us | hand-off p50 "
				+ "in round trips | cross-process hand-offs | cross-process hand-off p50 us | overtaken (> "
				+ ContendedResult.FIFO_TOLERANCE.toMillis() + " ms / any) | violations | wait timeouts | vs floor | "
				+ "distlock vs this |\n");
		out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
		long roundTrip = Math.max(1, measurements.roundTrip.p50Nanos());
		for (Map.Entry<Contender, Outcome<ContendedResult>> entry : results.entrySet()) {
			out.append("| ")
				.append(entry.getKey().label())
				.append(" | ")
				.append(entry.getValue()
					.format((result) -> Format.ops(result.opsPerSecond()) + " | "
							+ Format.micros(result.acquireWait().p50Nanos()) + " | "
							+ Format.micros(result.acquireWait().p99Nanos()) + " | "
							+ Format.micros(result.handoff().p50Nanos()) + " | "
							+ Format.micros(result.handoff().p99Nanos()) + " | "
							+ Format.decimal(result.handoff().p50Nanos() / (double) roundTrip) + " | "
							+ Format.percent(result.crossProcessShare()) + " | "
							+ Format.micros(result.crossProcessHandoff().p50Nanos()) + " | "
							+ result.overtakenBeyondTolerance() + " / " + result.overtaken() + " of " + result.holds()
							+ ", at most " + Format.millis(result.largestOvertakingNanos()) + " ms" + " | "
							+ result.violations() + " | " + result.timeouts() + " | "
							+ ratios(results, entry.getKey(), ContendedResult::opsPerSecond)))
				.append(" |\n");
		}
		wide(out, measurements.contendedWide, roundTrip);
		out.append("\nRedis commands per critical section (measured window, `INFO commandstats`, which also counts ")
			.append("commands scripts run; the counter adds one GET and one SET):\n\n| Library | commands per critical ")
			.append("section |\n|---|---|\n");
		for (Map.Entry<Contender, Outcome<ContendedResult>> entry : results.entrySet()) {
			out.append("| ")
				.append(entry.getKey().label())
				.append(" | ")
				.append(entry.getValue().format((result) -> perOp(result.commandsPerOp())))
				.append(" |\n");
		}
		out.append("| ")
			.append(Contender.DISTLOCK.label())
			.append(", ")
			.append(this.settings.wideProcesses())
			.append(" processes | ")
			.append(measurements.contendedWide.format((result) -> perOp(result.commandsPerOp())))
			.append(" |\n\n");
	}

	private void wide(StringBuilder out, Outcome<ContendedResult> outcome, long roundTrip) {
		out.append("\nThe same workload with ")
			.append(this.settings.wideProcesses())
			.append(" processes x ")
			.append(this.settings.threadsPerProcess())
			.append(" threads, distlock in its default mode only (")
			.append(this.settings.wideContended().warmup().toMillis() / 1000.0)
			.append(" s warm-up + ")
			.append(this.settings.wideContended().measure().toMillis() / 1000.0)
			.append(" s measured):\n\n| Library | ops/s | wait p50 us | wait p99 us | hand-off p50 in round trips | ")
			.append("cross-process hand-offs | Redis scripts per critical section | violations | wait timeouts |\n")
			.append("|---|---|---|---|---|---|---|---|---|\n| ")
			.append(Contender.DISTLOCK.label())
			.append(" | ")
			.append(outcome.format((result) -> Format.ops(result.opsPerSecond()) + " | "
					+ Format.micros(result.acquireWait().p50Nanos()) + " | "
					+ Format.micros(result.acquireWait().p99Nanos()) + " | "
					+ Format.decimal(result.handoff().p50Nanos() / (double) roundTrip) + " | "
					+ Format.percent(result.crossProcessShare()) + " | "
					+ Format.decimal(Targets.scriptsPerCriticalSection(result)) + " | " + result.violations() + " | "
					+ result.timeouts()))
			.append(" |\n");
	}

	private static void readWrite(StringBuilder out, Measurements measurements) {
		out.append("## Read-write: one key, 16 reader threads + 1 writer thread (two clients, one JVM)\n\n");
		out.append("Readers read a Redis value under the read lock, back to back; the writer increments it under ")
			.append("the write lock, 50 ms apart. \"write lock only\" is the same work with every thread on ")
			.append("distlock's write lock. Writer wait = asking to holding. Violations = a writer inside with anyone ")
			.append("else (or, under the write lock only, two readers at once).\n\n");
		out.append("| Library | mode | reads/s | writes/s | writer wait p50 us | writer wait p99 us | most readers "
				+ "inside at once | violations | wait timeouts |\n|---|---|---|---|---|---|---|---|---|\n");
		for (Map.Entry<Contender, Outcome<ReadWriteResult>> entry : measurements.readWrite.entrySet()) {
			readWriteRow(out, entry.getKey().label(), "read + write locks", entry.getValue());
		}
		readWriteRow(out, Contender.DISTLOCK.label(), "write lock only", measurements.writeLockOnly);
		out.append('\n');
		out.append("Renewal of read locks on a key held by many readers (distlock, Redis time per renewal batch, ")
			.append("from the scripts' `usec` in `INFO commandstats`): ")
			.append(measurements.readerRenewal
				.format((result) -> result.batch() + " read locks of a key with " + result.readers() + " readers: "
						+ Format.decimal(result.redisMicrosPerBatch() / 1000.0) + " ms per batch"))
			.append("\n\n");
	}

	private static void readWriteRow(StringBuilder out, String label, String mode, Outcome<ReadWriteResult> outcome) {
		out.append("| ")
			.append(label)
			.append(" | ")
			.append(mode)
			.append(" | ")
			.append(outcome.format((result) -> Format.ops(result.readerOpsPerSecond()) + " | "
					+ Format.ops(result.writerOpsPerSecond()) + " | " + Format.micros(result.writerWait().p50Nanos())
					+ " | " + Format.micros(result.writerWait().p99Nanos()) + " | " + result.maxReadersTogether()
					+ " | " + result.violations() + " | " + result.timeouts()))
			.append(" |\n");
	}

	private static String perOp(Map<String, Double> commands) {
		return commands.entrySet()
			.stream()
			.filter((entry) -> entry.getValue() >= 0.01)
			.map((entry) -> entry.getKey() + " " + Format.hundredths(entry.getValue()))
			.collect(Collectors.joining(", "));
	}

	private void held(StringBuilder out, Measurements measurements) {
		out.append("## Locks held at once under the watchdog\n\n");
		out.append("Lease ")
			.append(this.settings.heldLease().toSeconds())
			.append(" s, renewed every third of it (lock4j: its renewal mode always takes a 30 s lease and renews every ")
			.append("10 s; it starts a timer thread per lock, so it holds a tenth of the locks). Commands are counted over ")
			.append("at least ")
			.append(this.settings.heldWindow().toSeconds())
			.append(" s and one renewal interval from the Redis slow log at a zero threshold, leaving out commands ")
			.append("that scripts run and PING. Round trips per renewal interval = commands / (window / interval); ")
			.append("renewals scheduled with a fixed delay make a round a little longer than the interval, so a ")
			.append("batching library's round is slightly undercounted. Heap per lock is the retained heap after ")
			.append("garbage collection, including the caller's list of held locks.\n\n");
		out.append("| Library | locks | still held | round trips per renewal interval | commands in window | "
				+ "extra threads | heap per lock (bytes) |\n|---|---|---|---|---|---|---|\n");
		for (Map.Entry<Contender, Outcome<HeldLocksResult>> entry : measurements.held.entrySet()) {
			out.append("| ")
				.append(entry.getKey().label())
				.append(" | ")
				.append(entry.getValue()
					.format((result) -> result.locks() + " | " + result.stillHeld() + " | "
							+ Format.decimal(result.roundTripsPerRound()) + " | " + commands(result.commands()) + " | "
							+ result.extraThreads() + " | " + Format.ops(result.heapBytesPerLock())))
				.append(" |\n");
		}
		out.append('\n');
	}

	private void asyncWaiters(StringBuilder out, Outcome<AsyncWaitersResult> outcome) {
		out.append("## Asynchronous waiters: ")
			.append(String.format(Locale.ROOT, "%,d", this.settings.asyncWaiters()))
			.append(" `acquireAsync` calls on as many busy keys (distlock)\n\n");
		out.append("A holder client takes every key; a second client (its own `RedisLockStore` and connection, same ")
			.append("Redis) starts one `acquireAsync` per key, watchdog mode, and waits until the sum of its ")
			.append("`waitingCount` is the number of waiters; then the holder releases every key (`releaseAsync`). ")
			.append("Threads are live platform threads (`ThreadMXBean`) beyond those alive before the waiters ")
			.append("started, measured after one warm-up wait of the same client; the peaks come from the JVM's peak ")
			.append("thread count; the target counts the threads while the waiters start and wait, the peak while the holder ")
			.append("releases and the waiters are granted is shown with the threads started then (pool threads outlive ")
			.append("their work, so the pools that grew still show). Heap is used heap after a collection hint, so approximate; it includes each ")
			.append("waiter's future. Grant times run from the holder's first release to each waiter's future ")
			.append("completing. Afterwards the waiters release and the run checks that nothing is left.\n\n");
		out.append(outcome.format(MarkdownReport::asyncWaitersTable)).append("\n\n");
	}

	static String asyncWaitersTable(AsyncWaitersResult result) {
		return "| Figure | distlock |\n|---|---|\n" + "| waiters | " + result.waiters() + " |\n" + "| threads before | "
				+ result.threadsBefore() + " |\n" + "| threads added while all wait | "
				+ result.threadsAddedWhileWaiting() + " |\n" + "| threads added, peak while starting | "
				+ (result.peakThreadsStarting() - result.threadsBefore()) + " |\n"
				+ "| threads added, peak while being granted | "
				+ (result.peakThreadsGranting() - result.threadsBefore()) + " |\n"
				+ "| threads alive after the grants that were not before | " + Targets.threadNames(result.newThreads())
				+ " |\n" + "| heap before (MB) | " + Format.decimal(result.heapBefore() / 1e6) + " |\n"
				+ "| heap added while waiting (MB, approx.) | " + Format.decimal(result.heapAddedBytes() / 1e6) + " |\n"
				+ "| heap per waiter (bytes, approx.) | " + Format.ops(result.heapBytesPerWaiter()) + " |\n"
				+ "| first call to all waiting (ms) | " + Format.millis(result.startNanos()) + " |\n"
				+ "| holder's releases complete (ms) | " + Format.millis(result.releaseNanos()) + " |\n"
				+ "| grant p50 / p99 after the first release (ms) | " + Format.millis(result.grant().p50Nanos()) + " / "
				+ Format.millis(result.grant().p99Nanos()) + " |\n" + "| all granted after the first release (ms) | "
				+ Format.millis(result.allGrantedNanos()) + " |\n" + "| failed / held after release / lock keys left | "
				+ result.failed() + " / " + result.heldAfter() + " / " + result.lockKeysLeft() + " |";
	}

	private static void clusterRenewal(StringBuilder out, Outcome<ClusterRenewalResult> outcome) {
		out.append("## Held locks on a three-master Redis Cluster (distlock)\n\n");
		out.append(
				"A three-master Cluster on loopback (the test harness's, no replicas); one `DefaultLockClient` on a ")
			.append("`RedisLockStore` with the default renewal batch size and a 3 s watchdog lease (renewed every ")
			.append("second) takes the locks (distinct keys spread over the hash slots, acquired asynchronously in ")
			.append("chunks of 500) and holds them through ")
			.append(ClusterRenewalWorkload.ROUNDS)
			.append(" complete renewal rounds, counted from the first complete round after the last lock was taken. Every batch comes from the client's `LockClientListener` ")
			.append("(`renewalBatchFinished`); the batches of a round are sent together and each batch's duration runs ")
			.append("from the round's start, so a round's duration is its longest batch. Scripts = `EVALSHA` + `EVAL` ")
			.append("calls per master from `INFO commandstats` over the window in which the rounds ran. The target ")
			.append("passes when the slowest round takes at most a third of the renewal interval and no lease is ")
			.append("lost or left unrenewed.\n\n");
		out.append(outcome.format(MarkdownReport::clusterRenewalTable)).append("\n\n");
	}

	static String clusterRenewalTable(ClusterRenewalResult result) {
		StringBuilder table = new StringBuilder();
		table.append(String.format(Locale.ROOT, "%,d", result.locks()))
			.append(" locks, renewal interval ")
			.append(result.interval().toMillis())
			.append(" ms.\n\n| Round | batches | leases | renewed | lost | not renewed | duration (ms) | ")
			.append("duration / interval |\n|---|---|---|---|---|---|---|---|\n");
		for (int i = 0; i < result.rounds().size(); i++) {
			ClusterRenewalResult.Round round = result.rounds().get(i);
			table.append("| ")
				.append(i + 1)
				.append(" | ")
				.append(round.batches())
				.append(" | ")
				.append(round.leases())
				.append(" | ")
				.append(round.renewed())
				.append(" | ")
				.append(round.lost())
				.append(" | ")
				.append(round.failed())
				.append(" | ")
				.append(Format.millis(round.duration().toNanos()))
				.append(" | ")
				.append(Format.ratio(result.ratio(round.duration())))
				.append(" |\n");
		}
		table.append("\nScripts per master over the window: ");
		for (int i = 0; i < result.scriptsPerNode().size(); i++) {
			table.append((i > 0) ? ", " : "")
				.append("master ")
				.append(i + 1)
				.append(" ")
				.append(result.scriptsPerNode().get(i));
		}
		table.append(" (").append(Format.ops(result.scriptsPerRound())).append(" per round, all masters).");
		return table.toString();
	}

	private static String commands(Map<String, Long> commands) {
		return commands.isEmpty() ? "none"
				: commands.entrySet()
					.stream()
					.map((entry) -> entry.getKey() + " " + entry.getValue())
					.collect(Collectors.joining(", "));
	}

	private static void annotation(StringBuilder out, Measurements measurements) {
		out.append("## Annotation overhead (JMH, average time per call)\n\n");
		out.append("An in-memory `LockClient` isolates the advice and the SpEL key from Redis; `handWritten` makes ")
			.append("the same lock calls by hand, so the overhead is `annotated - handWritten`.\n\n");
		out.append(measurements.annotation.format((nanos) -> {
			StringBuilder table = new StringBuilder("| Benchmark | ns per call |\n|---|---|\n");
			nanos.forEach((name, value) -> table.append("| ")
				.append(name)
				.append(" | ")
				.append(Format.decimal(value))
				.append(" |\n"));
			return table.toString();
		}));
		out.append('\n');
	}

	private static <T> String ratios(Map<Contender, Outcome<T>> results, Contender contender,
			ToDoubleFunction<T> metric) {
		T own = Measurements.valueOf(results, contender);
		T floor = Measurements.valueOf(results, Contender.FLOOR);
		T distlock = Measurements.valueOf(results, Contender.DISTLOCK);
		String vsFloor = (floor != null) ? Format.ratio(metric.applyAsDouble(own) / metric.applyAsDouble(floor)) : "-";
		String vsDistlock = (distlock != null)
				? Format.ratio(metric.applyAsDouble(distlock) / metric.applyAsDouble(own)) : "-";
		return vsFloor + " | " + vsDistlock;
	}

}
