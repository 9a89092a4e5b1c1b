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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ReportCharts}.
 *
 * @author distlock
 */
class ReportChartsTests {

	private static final String REPORT = """
			# distlock benchmark results

			## Uncontended acquire+release, 1 thread

			| Library | ops/s | p50 us | p99 us |
			|---|---|---|---|
			| distlock | 1,485 | 538.1 | 2416.7 |
			| floor | 1,592 | 492.6 | 2443.9 |

			## Contended: one key, 4 JVM processes x 4 threads

			Some text.

			| Library | ops/s | wait p50 us | wait p99 us | violations |
			|---|---|---|---|---|
			| distlock | 400 | 34804.8 | 119761.0 | 0 |
			| Redisson | failed: timeout | - | - | - |
			| lock4j | 363 | 802.2 | 722025.2 | 0 |
			""";

	@Test
	void drawsTheThroughputAndWaitChartsOfTheReportsTables() throws Exception {
		Map<String, String> charts = ReportCharts.render(REPORT);
		assertThat(charts).containsOnlyKeys("throughput-uncontended-1-thread.svg", "throughput-contended.svg",
				"wait-contended.svg");
		List<Element> uncontended = SvgBarChartTests.bars(parse(charts.get("throughput-uncontended-1-thread.svg")));
		assertThat(uncontended).extracting((bar) -> bar.getAttribute("data-value")).containsExactly("1485", "1592");
		List<Element> waits = SvgBarChartTests.bars(parse(charts.get("wait-contended.svg")));
		assertThat(waits).extracting((bar) -> Math.round(Double.parseDouble(bar.getAttribute("data-value")) * 10))
			.containsExactly(348L, 1198L, 8L, 7220L);
		assertThat(SvgBarChartTests.bars(parse(charts.get("throughput-contended.svg")))).hasSize(2);
	}

	@Test
	void writesTheChartsOfTheCommittedResults(@TempDir Path dir) throws IOException {
		Path results = Path.of("results/benchmark-results.md");
		List<Path> written = ReportCharts.write(Files.readString(results), dir);
		assertThat(written).extracting((path) -> path.getFileName().toString())
			.containsExactly("throughput-uncontended-1-thread.svg", "throughput-uncontended-16-threads.svg",
					"throughput-contended.svg", "wait-contended.svg");
		for (Path chart : written) {
			assertThat(Files.readString(chart)).contains("distlock").endsWith("</svg>\n");
			assertThat(Path.of("results").resolve(chart.getFileName())).as("committed chart")
				.hasSameTextualContentAs(chart);
		}
	}

	private static Document parse(String svg) throws Exception {
		return SvgBarChartTests.parse(svg);
	}

}
