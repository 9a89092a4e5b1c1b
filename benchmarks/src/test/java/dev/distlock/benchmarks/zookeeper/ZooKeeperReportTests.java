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

import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import dev.distlock.benchmarks.report.Outcome;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ZooKeeperReport}: the provenance line, the verdicts on the medians of
 * the rounds, a scenario the store refuses, and each round's figures with the requests
 * per grant and the load.
 *
 * @author distlock
 * @since 0.1.0
 */
class ZooKeeperReportTests {

	private static final Instant STARTED = Instant.parse("2026-11-28T16:00:00Z");

	@Test
	void writesTheProvenanceLineTheDocumentationCheckReads() {
		assertThat(render(results()).lines()).first().isEqualTo("# ZooKeeper benchmark results");
		assertThat(render(results()).lines())
			.contains("Provenance: commit 1b7fe4f; date 2026-11-28; duration 9 min 30 s; machine 2 CPUs, Java 17.0.15, "
					+ "load average at start / end 0.40 / 1.10");
	}

	@Test
	void comparesTheMediansOfTheRoundsAndAsksTheContendedScenarioForALowerP99Wait() {
		Map<ZooKeeperScenario, Map<ZooKeeperContender, Outcome<List<ZooKeeperFigure>>>> results = results();
		results.put(ZooKeeperScenario.CONTENDED, libraries(figures(300, 200, 400, 50), figures(100, 150, 50, 40)));
		List<String> lines = render(results).lines().toList();
		assertThat(lines).contains("| Uncontended, 1 thread | 150 | 100 | 1.50x | 2.0 / 2.0 | 2.00 / 2.00 | >= 1.0x "
				+ "Curator's InterProcessMutex | **PASS** |");
		// 3x the throughput, but a p99 wait of 50 ms against 40 ms
		assertThat(lines).contains("| Contended, 4 processes x 4 threads, one key | 300 | 100 | 3.00x | 50.0 / 40.0 | "
				+ "2.00 / 2.00 | >= 1.5x Curator's InterProcessMutex with a lower p99 wait | **MISS** |");
	}

	@Test
	void reportsAScenarioTheStoreRefusesWithItsMessage() {
		Map<ZooKeeperScenario, Map<ZooKeeperContender, Outcome<List<ZooKeeperFigure>>>> results = results();
		Map<ZooKeeperContender, Outcome<List<ZooKeeperFigure>>> fair = new EnumMap<>(ZooKeeperContender.class);
		fair.put(ZooKeeperContender.DISTLOCK,
				Outcome.notApplicable("refused by the store: ZooKeeperLockStore cannot grant fair locks"));
		fair.put(ZooKeeperContender.CURATOR, Outcome.success(figures(100, 100, 100, 10)));
		results.put(ZooKeeperScenario.FAIR_CONTENDED, fair);
		List<String> lines = render(results).lines().toList();
		assertThat(lines).contains("| Fair contended, 4 processes x 4 threads, one key | n/a: refused by the store: "
				+ "ZooKeeperLockStore cannot grant fair locks | 100 | | | | >= 1.0x Curator's InterProcessMutex | **NOT MEASURED** |");
		assertThat(lines).contains("| Fair contended, 4 processes x 4 threads, one key | | distlock | n/a: refused by "
				+ "the store: ZooKeeperLockStore cannot grant fair locks | | | |");
	}

	@Test
	void showsEveryRoundWithItsRequestsPerGrantAndLoad() {
		assertThat(render(results()).lines()).contains(
				"| Uncontended, 1 thread | 1 | distlock | 100 | 2.0 | 2.00 | 0.40 / 0.50 |",
				"| Uncontended, 1 thread | 3 | Curator | 100 | 2.0 | 2.00 | 0.40 / 0.50 |");
	}

	private static String render(
			Map<ZooKeeperScenario, Map<ZooKeeperContender, Outcome<List<ZooKeeperFigure>>>> results) {
		return new ZooKeeperReport("2 CPUs, Java 17.0.15", "3 rounds").render("1b7fe4f", STARTED,
				STARTED.plusSeconds(570), "0.40 / 1.10", results);
	}

	private static Map<ZooKeeperScenario, Map<ZooKeeperContender, Outcome<List<ZooKeeperFigure>>>> results() {
		Map<ZooKeeperScenario, Map<ZooKeeperContender, Outcome<List<ZooKeeperFigure>>>> results = new EnumMap<>(
				ZooKeeperScenario.class);
		results.put(ZooKeeperScenario.UNCONTENDED_1, libraries(figures(100, 150, 200, 2), figures(100, 100, 100, 2)));
		return results;
	}

	private static Map<ZooKeeperContender, Outcome<List<ZooKeeperFigure>>> libraries(List<ZooKeeperFigure> distlock,
			List<ZooKeeperFigure> curator) {
		Map<ZooKeeperContender, Outcome<List<ZooKeeperFigure>>> libraries = new EnumMap<>(ZooKeeperContender.class);
		libraries.put(ZooKeeperContender.DISTLOCK, Outcome.success(distlock));
		libraries.put(ZooKeeperContender.CURATOR, Outcome.success(curator));
		return libraries;
	}

	private static List<ZooKeeperFigure> figures(double first, double second, double third, double p99WaitMillis) {
		return List.of(new ZooKeeperFigure(first, p99WaitMillis, 2, "0.40 / 0.50"),
				new ZooKeeperFigure(second, p99WaitMillis, 2, "0.40 / 0.50"),
				new ZooKeeperFigure(third, p99WaitMillis, 2, "0.40 / 0.50"));
	}

}
