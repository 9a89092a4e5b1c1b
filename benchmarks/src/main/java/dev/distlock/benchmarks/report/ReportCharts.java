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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Draws the charts of a run from its Markdown report: throughput by library for each
 * throughput scenario, and the contended wait-time percentiles. Working from the report
 * lets the charts of a committed run be drawn again without running the benchmarks:
 * {@code java -cp benchmarks/target/classes dev.distlock.benchmarks.report.ReportCharts
 * benchmarks/results/benchmark-results.md benchmarks/results}.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class ReportCharts {

	private static final String LIBRARY = "Library";

	private ReportCharts() {
	}

	/**
	 * Write the charts of a report as SVG files next to it.
	 * @param args the report and the directory to write to
	 * @throws IOException if the report cannot be read or a chart cannot be written
	 */
	public static void main(String[] args) throws IOException {
		if (args.length != 2) {
			throw new IllegalArgumentException("Usage: ReportCharts <benchmark-results.md> <output directory>");
		}
		for (Path written : write(Files.readString(Path.of(args[0])), Path.of(args[1]))) {
			System.out.println("wrote " + written);
		}
	}

	/**
	 * Write the charts of a report.
	 * @param markdown the report
	 * @param directory the directory to write the SVG files to
	 * @return the files written
	 * @throws IOException if a chart cannot be written
	 */
	public static List<Path> write(String markdown, Path directory) throws IOException {
		Files.createDirectories(directory);
		List<Path> written = new ArrayList<>();
		for (Map.Entry<String, String> chart : render(markdown).entrySet()) {
			written.add(Files.writeString(directory.resolve(chart.getKey()), chart.getValue()));
		}
		return written;
	}

	/**
	 * Draw the charts of a report. A chart whose table the report lacks is left out, and
	 * so is a library whose figure is not a number (a failed run).
	 * @param markdown the report
	 * @return file name to SVG document
	 */
	public static Map<String, String> render(String markdown) {
		List<String> lines = Arrays.asList(markdown.split("\n"));
		Map<String, String> charts = new LinkedHashMap<>();
		throughput(lines, "## Uncontended acquire+release, 1 thread", "Uncontended acquire+release, 1 thread")
			.ifPresent((chart) -> charts.put("throughput-uncontended-1-thread.svg", chart));
		throughput(lines, "## Uncontended acquire+release, 16 threads",
				"Uncontended acquire+release, 16 threads on distinct keys")
			.ifPresent((chart) -> charts.put("throughput-uncontended-16-threads.svg", chart));
		throughput(lines, "## Contended: one key", "Contended: one key, 4 processes x 4 threads")
			.ifPresent((chart) -> charts.put("throughput-contended.svg", chart));
		List<Map<String, String>> contended = table(lines, "## Contended: one key");
		if (!contended.isEmpty()) {
			SvgBarChart chart = new SvgBarChart("Contended: wait from asking to holding (lower is better)", "ms",
					List.of("p50", "p99"));
			for (Map<String, String> row : contended) {
				Double p50 = number(row.get("wait p50 us"));
				Double p99 = number(row.get("wait p99 us"));
				if (p50 != null && p99 != null) {
					chart.row(row.get(LIBRARY), p50 / 1000, p99 / 1000);
				}
			}
			charts.put("wait-contended.svg", chart.render());
		}
		return charts;
	}

	private static Optional<String> throughput(List<String> lines, String heading, String title) {
		List<Map<String, String>> rows = table(lines, heading);
		if (rows.isEmpty()) {
			return Optional.empty();
		}
		SvgBarChart chart = new SvgBarChart(title + " (higher is better)", "ops/s", List.of("throughput"));
		for (Map<String, String> row : rows) {
			Double value = number(row.get("ops/s"));
			if (value != null) {
				chart.row(row.get(LIBRARY), value);
			}
		}
		return Optional.of(chart.render());
	}

	/**
	 * Return the rows of the first table with a {@code Library} column after the heading
	 * that starts with the given text, as column name to cell.
	 */
	static List<Map<String, String>> table(List<String> lines, String heading) {
		List<Map<String, String>> rows = new ArrayList<>();
		int i = 0;
		while (i < lines.size() && !lines.get(i).startsWith(heading)) {
			i++;
		}
		while (i < lines.size() && !lines.get(i).startsWith("| " + LIBRARY + " |")) {
			i++;
		}
		if (i >= lines.size()) {
			return rows;
		}
		List<String> header = cells(lines.get(i));
		for (i += 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
			List<String> cells = cells(lines.get(i));
			Map<String, String> row = new LinkedHashMap<>();
			for (int column = 0; column < header.size() && column < cells.size(); column++) {
				row.put(header.get(column), cells.get(column));
			}
			rows.add(row);
		}
		return rows;
	}

	private static List<String> cells(String line) {
		String inner = line.strip();
		inner = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length());
		return Arrays.stream(inner.split("\\|", -1)).map(String::strip).toList();
	}

	private static Double number(String cell) {
		if (cell == null) {
			return null;
		}
		try {
			return Double.parseDouble(cell.replace(",", ""));
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

}
