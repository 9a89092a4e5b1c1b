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
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

import dev.distlock.benchmarks.contender.JdbcContender;
import dev.distlock.benchmarks.report.JdbcMeasurements.ContendedRounds;
import dev.distlock.benchmarks.workload.CommitsWorkload;
import dev.distlock.benchmarks.workload.ContendedResult;
import dev.distlock.benchmarks.workload.HeldConnectionsWorkload;

/**
 * Renders the Markdown results of a JDBC run: provenance, machine and load, per database
 * its version and commit durability, the targets with their ratios and verdicts, then the
 * tables (each measured round's figure beside the median the targets use).
 *
 * @author distlock
 * @since 0.1.0
 */
public final class JdbcReport {

	private final Machine machine;

	private final String settings;

	/**
	 * Create a report.
	 * @param machine the machine the run measured on
	 * @param settings the run's phases, described
	 */
	public JdbcReport(Machine machine, String settings) {
		this.machine = machine;
		this.settings = settings;
	}

	/**
	 * Return the uncontended target of a database, as a ratio to the best peer: 1.2x on
	 * PostgreSQL, 1.0x elsewhere (issue 36).
	 * @param database the database, as the results name it
	 * @return the lowest ratio that passes
	 */
	static double uncontendedTarget(String database) {
		return "PostgreSQL".equals(database) ? 1.2 : 1.0;
	}

	/**
	 * Render the results.
	 * @param commit the commit measured
	 * @param started when the run started
	 * @param finished when it finished
	 * @param loadAverages the machine's load average (1 min) at the start and end of the
	 * run
	 * @param databases what was measured, per database
	 * @param skipped the databases that did not answer
	 * @return the Markdown
	 */
	public String render(String commit, Instant started, Instant finished, String loadAverages,
			List<JdbcMeasurements> databases, List<String> skipped) {
		StringBuilder out = new StringBuilder();
		Duration duration = Duration.between(started, finished);
		out.append("# distlock JDBC benchmark results\n\n");
		out.append("Run finished ").append(finished).append(".\n\n");
		out.append("Provenance: commit ")
			.append(commit)
			.append("; date ")
			.append(started.toString(), 0, 10)
			.append("; duration ")
			.append(duration.toMinutes())
			.append(" min ")
			.append(duration.toSecondsPart())
			.append(" s; machine ")
			.append(this.machine.cores())
			.append("-core ")
			.append(this.machine.cpu())
			.append(", ")
			.append(this.machine.memoryGib())
			.append(" GiB, ")
			.append(this.machine.jdk())
			.append(", databases on loopback.\n\n");
		out.append("| Machine | |\n|---|---|\n");
		out.append("| OS | ").append(this.machine.os()).append(" |\n");
		out.append("| JVM options (every JVM) | `").append(String.join(" ", this.machine.jvmArgs())).append("` |\n");
		out.append("| Load average (1 min) at start / end | ")
			.append(loadAverages)
			.append(" (other work on the machine shows here) |\n");
		out.append("| Phases | ").append(this.settings).append(" |\n");
		out.append("| Pools | HikariCP, ")
			.append(JdbcContender.POOL_SIZE)
			.append(" connections per library and process |\n");
		for (String database : skipped) {
			out.append("| ").append(database).append(" | skipped: did not answer on 127.0.0.1 |\n");
		}
		for (JdbcMeasurements measured : databases) {
			out.append("\n## ").append(measured.database).append(" (").append(measured.version).append(")\n\n");
			out.append("Server: ")
				.append(measured.version)
				.append(", `")
				.append(measured.durability)
				.append("`; load average (1 min) at start / end of its runs: ")
				.append(measured.loadAverages)
				.append(".\n\n");
			targets(out, measured);
			uncontended(out, "Uncontended acquire+release, 1 thread", measured.uncontendedSingle);
			uncontended(out, "Uncontended acquire+release, 16 threads", measured.uncontendedMulti);
			commits(out, measured.commits);
			contended(out, measured.contended);
			held(out, measured.held);
		}
		return out.toString();
	}

	private static void targets(StringBuilder out, JdbcMeasurements measured) {
		out.append("### Targets\n\n| Target | distlock | Reference | Verdict | Note |\n|---|---|---|---|---|\n");
		ContendedRounds ours = measured.contended.getOrDefault(JdbcContender.DISTLOCK, Outcome.failed("not run"))
			.value();
		ContendedRounds registry = measured.contended
			.getOrDefault(JdbcContender.SPRING_INTEGRATION, Outcome.failed("not run"))
			.value();
		if (ours != null && registry != null) {
			double ratio = ours.opsPerSecond() / Math.max(registry.opsPerSecond(), 1e-9);
			boolean lowerWait = ours.p99WaitNanos() < registry.p99WaitNanos();
			row(out, "Contended, 4 processes x 4 threads: throughput >= 2x JdbcLockRegistry with a lower p99 wait",
					Format.ops(ours.opsPerSecond()) + " ops/s, p99 wait " + Format.millis(ours.p99WaitNanos()) + " ms",
					Format.ops(registry.opsPerSecond())
							+ " ops/s, p99 wait " + Format.millis(registry.p99WaitNanos()) + " ms",
					ratio >= 2 && lowerWait,
					Format.ratio(ratio) + " JdbcLockRegistry (medians of the rounds); p99 wait "
							+ (lowerWait ? "lower" : "not lower") + "; cross-process hand-offs: distlock "
							+ Format.percent(ours.crossProcessShare()) + ", JdbcLockRegistry "
							+ Format.percent(registry.crossProcessShare()));
		}
		else {
			out.append("| Contended: throughput >= 2x JdbcLockRegistry with a lower p99 wait | | | NOT MEASURED | |\n");
		}
		double target = uncontendedTarget(measured.database);
		uncontendedTarget(out, "Uncontended, 1 thread: >= " + Format.ratio(target) + " the best peer",
				measured.uncontendedSingle, target);
		uncontendedTarget(out, "Uncontended, 16 threads: >= " + Format.ratio(target) + " the best peer",
				measured.uncontendedMulti, target);
		HeldConnectionsWorkload.Result held = measured.held
			.getOrDefault(JdbcContender.DISTLOCK, Outcome.failed("not run"))
			.value();
		if (held != null) {
			row(out, "0 connections held per held lock",
					Format.hundredths(held.perLock()) + " per lock (" + held.locks() + " locks held)", "0",
					held.perLock() == 0, "pool connections borrowed while held: " + held.poolActive()
							+ "; server connections added: " + held.serverAdded());
		}
		long violations = measured.contended.values()
			.stream()
			.map(Outcome::value)
			.filter(Objects::nonNull)
			.mapToLong(ContendedRounds::violations)
			.sum();
		row(out, "Mutual exclusion in every contended run: 0 violations", violations + " violations", "0",
				violations == 0, "lost counter updates plus overlapping holds, all libraries, every round");
		out.append('\n');
	}

	private static void uncontendedTarget(StringBuilder out, String target,
			Map<JdbcContender, Outcome<JdbcMeasurements.Uncontended>> results, double threshold) {
		JdbcMeasurements.Uncontended ours = results.getOrDefault(JdbcContender.DISTLOCK, Outcome.failed("not run"))
			.value();
		JdbcContender best = null;
		double bestOps = 0;
		for (Map.Entry<JdbcContender, Outcome<JdbcMeasurements.Uncontended>> entry : results.entrySet()) {
			JdbcMeasurements.Uncontended value = entry.getValue().value();
			if (entry.getKey() != JdbcContender.DISTLOCK && value != null && value.opsPerSecond() > bestOps) {
				best = entry.getKey();
				bestOps = value.opsPerSecond();
			}
		}
		if (ours == null || best == null) {
			out.append("| ").append(target).append(" | | | NOT MEASURED | |\n");
			return;
		}
		double ratio = ours.opsPerSecond() / bestOps;
		row(out, target, Format.ops(ours.opsPerSecond()) + " ops/s",
				Format.ops(bestOps) + " ops/s (" + best.label() + ")", ratio >= threshold,
				Format.ratio(ratio) + " the best peer (median of the rounds)");
	}

	private static void row(StringBuilder out, String target, String ours, String reference, boolean pass,
			String note) {
		out.append("| ")
			.append(target)
			.append(" | ")
			.append(ours)
			.append(" | ")
			.append(reference)
			.append(" | ")
			.append(pass ? "**PASS**" : "**MISS**")
			.append(" | ")
			.append(note)
			.append(" |\n");
	}

	private static void uncontended(StringBuilder out, String title,
			Map<JdbcContender, Outcome<JdbcMeasurements.Uncontended>> results) {
		out.append("### ")
			.append(title)
			.append("\n\n| Library | ops/s (median) | each round, ops/s | p50 us | p99 us |\n|---|---|---|---|---|\n");
		results.forEach((contender, outcome) -> out.append("| ")
			.append(contender.label())
			.append(" | ")
			.append(outcome.format((value) -> Format.ops(value.opsPerSecond()) + " | "
					+ value.roundOpsPerSecond().stream().map(Format::ops).collect(Collectors.joining(" / ")) + " | "
					+ Format.micros(value.latency().p50Nanos()) + " | " + Format.micros(value.latency().p99Nanos())))
			.append(" |\n"));
		out.append('\n');
	}

	private static void commits(StringBuilder out, Map<JdbcContender, Outcome<CommitsWorkload.Result>> results) {
		out.append("### Commits per uncontended acquire+release\n\n");
		out.append("Counted by the server between two readings taken with nothing connected to the run's database, "
				+ "one thread on a key the library used before (the registry deletes its row at each release); the library's connecting and closing count too. "
				+ "PostgreSQL: `xact_commit` of the run's database (read-only transactions count). "
				+ "MariaDB: `Com_commit` (COMMIT statements) and `Handler_commit` (storage engine commits, "
				+ "autocommitted statements included), server-wide, so other clients' commits count too.\n\n");
		out.append("| Library | acquire+release pairs | commits per pair |\n|---|---|---|\n");
		results.forEach((contender, outcome) -> out.append("| ")
			.append(contender.label())
			.append(" | ")
			.append(outcome.format((value) -> value.operations() + " | " + value.perOperation()))
			.append(" |\n"));
		out.append('\n');
	}

	private static void contended(StringBuilder out, Map<JdbcContender, Outcome<ContendedRounds>> results) {
		out.append("### Contended: one key, 4 processes x 4 threads\n\n");
		out.append("One row per round, in the order of the rounds (each round takes the libraries in a rotated "
				+ "order); the targets use the medians.\n\n");
		out.append("| Library | round | ops/s | wait p50 us | wait p99 us | cross-process hand-offs | violations | "
				+ "timed out |\n|---|---|---|---|---|---|---|---|\n");
		results.forEach((contender, outcome) -> {
			ContendedRounds rounds = outcome.value();
			if (rounds == null) {
				out.append("| ")
					.append(contender.label())
					.append(" | | ")
					.append(outcome.format(String::valueOf))
					.append(" | | | | | |\n");
				return;
			}
			for (int i = 0; i < rounds.rounds().size(); i++) {
				ContendedResult value = rounds.rounds().get(i);
				out.append("| ")
					.append(contender.label())
					.append(" | ")
					.append(i + 1)
					.append(" | ")
					.append(Format.ops(value.opsPerSecond()))
					.append(" | ")
					.append(Format.micros(value.acquireWait().p50Nanos()))
					.append(" | ")
					.append(Format.micros(value.acquireWait().p99Nanos()))
					.append(" | ")
					.append(Format.percent(value.crossProcessShare()))
					.append(" | ")
					.append(value.violations())
					.append(" | ")
					.append(value.timeouts())
					.append(" |\n");
			}
		});
		out.append('\n');
	}

	private static void held(StringBuilder out, Map<JdbcContender, Outcome<HeldConnectionsWorkload.Result>> results) {
		out.append("### Connections held while locks are held\n\n");
		out.append("| Library | locks held | pool connections borrowed | server connections added | per lock |\n"
				+ "|---|---|---|---|---|\n");
		results.forEach((contender, outcome) -> out.append("| ")
			.append(contender.label())
			.append(" | ")
			.append(outcome.format((value) -> value.locks() + " | " + value.poolActive() + " | " + value.serverAdded()
					+ " | " + Format.hundredths(value.perLock())))
			.append(" |\n"));
		out.append('\n');
	}

}
