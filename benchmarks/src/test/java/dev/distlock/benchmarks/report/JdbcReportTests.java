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

import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.distlock.benchmarks.CommitCounters;
import dev.distlock.benchmarks.contender.JdbcContender;
import dev.distlock.benchmarks.report.JdbcMeasurements.ContendedRounds;
import dev.distlock.benchmarks.report.JdbcMeasurements.Uncontended;
import dev.distlock.benchmarks.workload.CommitsWorkload;
import dev.distlock.benchmarks.workload.ContendedResult;
import dev.distlock.benchmarks.workload.HeldConnectionsWorkload;
import dev.distlock.benchmarks.workload.Latency;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link JdbcReport}: the provenance line, what it records of the server and
 * the load, the per-database thresholds, the rounds and the commits per operation.
 *
 * @author distlock
 * @since 0.1.0
 */
class JdbcReportTests {

	private static final Instant STARTED = Instant.parse("2026-11-28T16:00:00Z");

	@Test
	void writesTheProvenanceLineTheDocumentationCheckReadsAndTheLoadAverage() {
		String report = render(measurements("PostgreSQL", 1300, 1000));
		assertThat(report.lines()).contains("Provenance: commit 1b7fe4f; date 2026-11-28; duration 12 min 5 s; "
				+ "machine 2-core AMD EPYC, 24 GiB, OpenJDK 17, databases on loopback.");
		assertThat(report.lines()).contains(
				"| Load average (1 min) at start / end | 0.50 / 1.25 (other work on the " + "machine shows here) |");
	}

	@Test
	void recordsEachServersVersionDurabilityAndLoad() {
		String report = render(measurements("PostgreSQL", 1300, 1000));
		assertThat(report.lines()).contains("Server: PostgreSQL 15.20, `synchronous_commit = on`; load average "
				+ "(1 min) at start / end of its runs: 0.50 / 0.75.");
	}

	@Test
	void holdsPostgreSqlToOnePointTwoTimesTheBestPeer() {
		assertThat(render(measurements("PostgreSQL", 1150, 1000)).lines()).anyMatch((line) -> line
			.startsWith("| Uncontended, 1 thread: >= 1.20x the best peer | 1,150 ops/s | 1,000 ops/s (ShedLock")
				&& line.contains("**MISS** | 1.15x the best peer"));
		assertThat(render(measurements("PostgreSQL", 1200, 1000)).lines())
			.anyMatch((line) -> line.startsWith("| Uncontended, 16 threads: >= 1.20x the best peer")
					&& line.contains("**PASS**"));
	}

	@Test
	void holdsMariaDbToTheBestPeer() {
		assertThat(render(measurements("MariaDB", 1000, 1000)).lines())
			.anyMatch((line) -> line.startsWith("| Uncontended, 1 thread: >= 1.00x the best peer")
					&& line.contains("**PASS**"));
		assertThat(render(measurements("MariaDB", 990, 1000)).lines())
			.anyMatch((line) -> line.startsWith("| Uncontended, 1 thread: >= 1.00x the best peer")
					&& line.contains("**MISS**"));
	}

	@Test
	void showsEveryRoundAndComparesTheMediansOfTheContendedRounds() {
		String report = render(measurements("MariaDB", 1000, 1000));
		assertThat(report.lines()).contains("| distlock JDBC | 1,000 | 900 / 1,000 / 1,100 | 500.0 | 2000.0 |");
		assertThat(report.lines()).contains("| distlock JDBC | 1 | 300 | 1000.0 | 40000.0 | 20% | 0 | 0 |",
				"| distlock JDBC | 3 | 100 | 1000.0 | 90000.0 | 20% | 0 | 0 |",
				"| Spring Integration 7.1.0 JdbcLockRegistry | 2 | 100 | 1000.0 | 200000.0 | 50% | 0 | 0 |");
		// medians: distlock 200 ops/s, p99 60 ms; the registry 100 ops/s, p99 200 ms
		assertThat(report.lines()).anyMatch((line) -> line.startsWith("| Contended, 4 processes x 4 threads")
				&& line.contains("| 200 ops/s, p99 wait 60.0 ms | 100 ops/s, p99 wait 200.0 ms | **PASS** | 2.00x"));
	}

	@Test
	void showsTheCommitsPerOperationEachCounterCounted() {
		String report = render(measurements("MariaDB", 1000, 1000));
		assertThat(report.lines())
			.contains("| ShedLock 7.2.0 JdbcTemplateLockProvider | 500 | Com_commit 2.00, Handler_commit 4.00 |");
	}

	@Test
	void countsTheViolationsOfEveryRound() {
		JdbcMeasurements measured = measurements("MariaDB", 1000, 1000);
		measured.contended.put(JdbcContender.SHEDLOCK, Outcome.success(
				new ContendedRounds(List.of(contended(100, 1_000_000, 0.5, 1), contended(100, 1_000_000, 0.5, 2)))));
		assertThat(render(measured).lines()).anyMatch((line) -> line
			.startsWith("| Mutual exclusion in every contended run: 0 violations | 3 violations | 0 | **MISS**"));
	}

	private static String render(JdbcMeasurements measured) {
		Machine machine = new Machine("AMD EPYC", 2, 24, "Linux", "OpenJDK 17", List.of("-Xmx1g"), "n/a");
		return new JdbcReport(machine, "phases").render("1b7fe4f", STARTED, STARTED.plusSeconds(725), "0.50 / 1.25",
				List.of(measured), List.of());
	}

	private static JdbcMeasurements measurements(String database, double distlockOps, double peerOps) {
		JdbcMeasurements measured = new JdbcMeasurements();
		measured.database = database;
		measured.version = "PostgreSQL".equals(database) ? "PostgreSQL 15.20" : "MariaDB 10.11.19";
		measured.durability = "PostgreSQL".equals(database) ? "synchronous_commit = on"
				: "innodb_flush_log_at_trx_commit = 1";
		measured.loadAverages = "0.50 / 0.75";
		for (Map<JdbcContender, Outcome<Uncontended>> results : List.of(measured.uncontendedSingle,
				measured.uncontendedMulti)) {
			results.put(JdbcContender.DISTLOCK, uncontended(distlockOps));
			results.put(JdbcContender.SHEDLOCK, uncontended(peerOps));
			results.put(JdbcContender.SPRING_INTEGRATION, uncontended(peerOps / 2));
		}
		measured.contended.put(JdbcContender.DISTLOCK,
				Outcome.success(new ContendedRounds(List.of(contended(300, 40_000_000, 0.2, 0),
						contended(200, 60_000_000, 0.2, 0), contended(100, 90_000_000, 0.2, 0)))));
		measured.contended.put(JdbcContender.SPRING_INTEGRATION,
				Outcome.success(new ContendedRounds(List.of(contended(90, 300_000_000, 0.5, 0),
						contended(100, 200_000_000, 0.5, 0), contended(110, 100_000_000, 0.5, 0)))));
		measured.commits.put(JdbcContender.SHEDLOCK, Outcome.success(new CommitsWorkload.Result(500,
				CommitCounters.of(List.of(List.of("Com_commit", "1000"), List.of("Handler_commit", "2000"))))));
		measured.held.put(JdbcContender.DISTLOCK, Outcome.success(new HeldConnectionsWorkload.Result(50, 0, 0)));
		return measured;
	}

	private static Outcome<Uncontended> uncontended(double ops) {
		return Outcome
			.success(new Uncontended(ops, new Latency(100, 500_000, 2_000_000), List.of(ops * 0.9, ops, ops * 1.1)));
	}

	private static ContendedResult contended(double ops, long p99Wait, double crossProcessShare, long lostUpdates) {
		Latency latency = new Latency(100, 1_000_000, p99Wait);
		return new ContendedResult(4, 4, (long) ops, ops, latency, latency, latency, crossProcessShare, lostUpdates, 0,
				0, 0, 0, 0, Map.of());
	}

}
