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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.distlock.benchmarks.workload.AsyncWaitersResult;
import dev.distlock.benchmarks.workload.ClusterRenewalResult;
import dev.distlock.benchmarks.workload.ClusterRenewalResult.Round;
import dev.distlock.benchmarks.workload.Latency;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link MarkdownReport}'s table of the asynchronous-waiters workload.
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

}
