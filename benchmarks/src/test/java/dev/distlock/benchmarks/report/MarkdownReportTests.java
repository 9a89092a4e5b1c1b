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
import java.util.TreeMap;

import dev.distlock.benchmarks.RunSettings;
import dev.distlock.benchmarks.contender.Contender;
import dev.distlock.benchmarks.workload.AsyncWaitersResult;
import dev.distlock.benchmarks.workload.ClusterRenewalResult;
import dev.distlock.benchmarks.workload.ClusterRenewalResult.Round;
import dev.distlock.benchmarks.workload.ContendedResult;
import dev.distlock.benchmarks.workload.Latency;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link MarkdownReport}: the tables of the asynchronous-waiters and Cluster
 * renewal workloads, and the contended section.
 *
 * @author distlock
 * @since 0.1.0
 */
class MarkdownReportTests {

	@Test
	void showsTheAsynchronousWaitersFiguresRelativeToTheBaseline() {
		AsyncWaitersResult result = new AsyncWaitersResult(10_000, 40, 42, 43, 41, 120_000_000L, 124_500_000L,
				850_000_000L, 300_000_000L, 1_250_000_000L, new Latency(10_000, 600_000_000L, 1_200_000_000L), 0, 0, 0,
				new TreeMap<>(Map.of("distlock-waiter-callback-*", 2)));
		assertThat(MarkdownReport.asyncWaitersTable(result).lines()).contains("| threads before | 40 |",
				"| threads added while all wait | 2 |", "| threads added, peak while starting | 3 |",
				"| threads added, peak while being granted | 1 |",
				"| threads alive after the grants that were not before | distlock-waiter-callback-* x2 |",
				"| heap before (MB) | 120.0 |", "| heap added while waiting (MB, approx.) | 4.5 |",
				"| heap per waiter (bytes, approx.) | 450 |", "| first call to all waiting (ms) | 850.0 |",
				"| holder's releases complete (ms) | 300.0 |",
				"| grant p50 / p99 after the first release (ms) | 600.0 / 1200.0 |",
				"| all granted after the first release (ms) | 1250.0 |",
				"| failed / held after release / lock keys left | 0 / 0 / 0 |");
	}

	@Test
	void showsEachClusterRenewalRoundAgainstTheIntervalAndTheScriptsPerMaster() {
		ClusterRenewalResult result = new ClusterRenewalResult(10_000, 3, Duration.ofSeconds(1),
				List.of(new Round(20, 10_000, 10_000, 0, 0, Duration.ofMillis(125)),
						new Round(20, 10_000, 9_998, 1, 1, Duration.ofMillis(250))),
				List.of(6_000L, 6_100L, 5_900L));
		assertThat(MarkdownReport.clusterRenewalTable(result).lines()).contains(
				"| 1 | 20 | 10000 | 10000 | 0 | 0 | 125.0 | 0.13x |",
				"| 2 | 20 | 10000 | 9998 | 1 | 1 | 250.0 | 0.25x |",
				"Scripts per master over the window: master 1 6000, master 2 6100, master 3 5900 (9,000 per round, "
						+ "all masters).");
		assertThat(MarkdownReport.clusterRenewalTable(result)).startsWith("10,000 locks, renewal interval 1000 ms.");
	}

	@Test
	void writesTheProvenanceLineTheDocumentationCheckReads() {
		Measurements measurements = new Measurements();
		measurements.commit = "9bfe22a";
		measurements.started = Instant.parse("2026-11-25T19:03:18Z");
		String report = new MarkdownReport(new Machine("AMD EPYC", 2, 24, "Linux", "OpenJDK 17", List.of(), "7.0.15"),
				RunSettings.full())
			.render(measurements, Instant.parse("2026-11-25T19:12:37Z"));
		assertThat(report.lines()).contains("Provenance: commit 9bfe22a; date 2026-11-25; duration 9 min 19 s; "
				+ "machine AMD EPYC, 2 cores, 24 GiB, OpenJDK 17, Redis 7.0.15 on loopback.");
	}

	@Test
	void explainsBargingUnderTheContendedHeadingAndShowsEachLibrarysCrossProcessShareAndP99Wait() {
		Measurements measurements = new Measurements();
		measurements.contended.put(Contender.DISTLOCK, Outcome.success(contended(2500, 120_000, 0.22)));
		measurements.contended.put(Contender.REDISSON, Outcome.success(contended(1000, 300_000, 0.95)));
		String report = new MarkdownReport(new Machine("cpu", 2, 4, "Linux", "JDK", List.of(), "7.0"),
				RunSettings.full())
			.render(measurements, Instant.EPOCH);
		assertThat(report).contains("A high throughput with a low share of cross-process hand-offs means barging: a "
				+ "process re-takes its own lock while the other processes wait; their cost shows in the wait p99.");
		assertThat(report.lines())
			.anyMatch((line) -> line.startsWith("| distlock | 2,500 | 60.0 | 120.0 |") && line.contains("| 22% |"));
		assertThat(report.lines()).anyMatch(
				(line) -> line.startsWith("| Redisson 4.7.0 | 1,000 | 150.0 | 300.0 |") && line.contains("| 95% |"));
		assertThat(report).contains("cross-process hand-offs: distlock 22%, Redisson 95%; p99 wait: distlock 120.0 us, "
				+ "Redisson 300.0 us");
	}

	private static ContendedResult contended(double opsPerSecond, long p99Wait, double crossProcessShare) {
		int holds = (int) Math.round(opsPerSecond);
		return new ContendedResult(4, 4, holds, opsPerSecond, new Latency(holds, p99Wait / 2, p99Wait),
				new Latency(holds, 300, 600), new Latency(holds, 300, 600), crossProcessShare, 0, 0, 0, 0, 0, 0,
				Map.of("evalsha", 2.0));
	}

}
