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
package dev.distlock.docs;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.distlock.docs.MarkdownBlocks.Block;
import dev.distlock.docs.MarkdownBlocks.Kind;

/**
 * Checks that every measured figure of the documentation cites a committed results file
 * that records where it comes from, and that the figure is in that file.
 * <ul>
 * <li>A results file is a Markdown file named {@code results*.md} or
 * {@code *-results.md}. It has a line {@code Provenance: commit <hash>; date
 * <yyyy-mm-dd>; duration <time>; machine <description>}.</li>
 * <li>A measured figure is a number followed by {@code x} (a ratio), {@code ops/s},
 * {@code reads/s} or {@code round trips}, or a time with decimals ({@code 7.2 s},
 * {@code 1.1 ms}). In a block that cites a results file, a whole time ({@code 88 ms},
 * {@code 5 us}; not whole seconds, which are settings such as a lease) and a percentage
 * are measured figures too; elsewhere they are settings ({@code 30 ms}, {@code 1%}). Code
 * spans, code blocks and headings are not read. In a results file,
 * {@code 7169 / 19241 ms} is read as two times in milliseconds.</li>
 * <li>The block of a figure (paragraph, list item or table cell), or else the last
 * paragraph before it in its section, links one or more results files, and one of them
 * holds the figure: the same quantity in the same unit family (times convert between
 * {@code us}, {@code ms}, {@code s} and {@code min}), rounded to the figure's
 * decimals.</li>
 * </ul>
 *
 * @author distlock
 */
final class MeasuredFigures {

	private static final Pattern FIGURE = Pattern.compile(
			"(?<![\\w.])(\\d[\\d,]*(?:\\.\\d+)?)(?:\\s?(x|ops/s|reads/s|us|µs|ms|round trips|%)|\\s(s))(?![\\w/])");

	private static final Set<String> TIMES = Set.of("us", "µs", "ms", "s");

	private static final Pattern SHARED_UNIT = Pattern.compile(
			"(\\d[\\d,]*(?:\\.\\d+)?)\\s?(?:/|-|to)\\s?(\\d[\\d,]*(?:\\.\\d+)?)\\s?(ops/s|us|µs|ms|s|min)(?![\\w/])");

	private static final Pattern BARE_NUMBER = Pattern.compile("\\d[\\d,]*(?:\\.\\d+)?");

	private static final Pattern COLUMN_UNIT = Pattern
		.compile("(?:(in round trips)|\\b(ns|us|µs|ms|ops/s|reads/s|writes/s))$");

	private static final Pattern DECIMAL_SECONDS = Pattern.compile("\\d+\\.\\d+");

	private static final Pattern LINK = Pattern.compile("\\]\\(\\s*<?([^)\\s>#]+)[^)]*\\)");

	private static final Pattern RESULTS_FILE = Pattern.compile("(?:^|.*/)(?:results[^/]*|[^/]*-results)\\.md$");

	private static final Pattern PROVENANCE = Pattern.compile(
			"^Provenance: commit [0-9a-f]{7,40}; date \\d{4}-\\d{2}-\\d{2}; duration [^;]*\\d[^;]*; machine \\S.*$",
			Pattern.MULTILINE);

	private static final Pattern NUMBER_WITH_UNIT = Pattern
		.compile("(?<![\\w.])(\\d[\\d,]*(?:\\.\\d+)?)\\s?(x|ops/s|reads/s|ns|us|µs|ms|s|min|round trips|%)(?![\\w/])");

	private MeasuredFigures() {
	}

	/**
	 * Return the figures without a citation or not found in the file they cite, and the
	 * cited results files without their provenance.
	 * @param root the directory the files' names in the problems are relative to
	 * @param pages the pages
	 * @return one line per problem, empty when none
	 */
	static List<String> problems(Path root, List<Path> pages) {
		List<String> problems = new ArrayList<>();
		Set<Path> cited = new LinkedHashSet<>();
		for (Path page : pages) {
			String name = root.relativize(page).toString();
			List<String> lines = MarkdownBlocks.read(page);
			List<Path> introduction = List.of();
			int section = 0;
			for (Block block : blocksWithSections(lines)) {
				if (block == null) {
					introduction = List.of();
					section++;
					continue;
				}
				List<Path> links = resultsLinks(page, block.text()).stream().distinct().toList();
				cited.addAll(links);
				List<Path> sources = links.isEmpty() ? introduction : links;
				Matcher figure = FIGURE.matcher(withoutCode(block.text()));
				while (figure.find()) {
					String number = figure.group(1);
					String unit = (figure.group(2) != null) ? figure.group(2) : figure.group(3);
					boolean always = !TIMES.contains(unit) && !"%".equals(unit)
							|| DECIMAL_SECONDS.matcher(number).matches();
					if (sources.isEmpty() && !always || "s".equals(unit) && !always) {
						continue;
					}
					if (sources.isEmpty()) {
						problems.add(name + ":" + block.line() + ": " + figure.group() + " cites no results file");
					}
					else if (sources.stream().noneMatch((source) -> holds(read(source), number, unit))) {
						problems.add(name + ":" + block.line() + ": " + figure.group() + " is not in "
								+ sources.stream().map((source) -> root.relativize(source).toString()).toList());
					}
				}
				if (block.kind() == Kind.PARAGRAPH) {
					introduction = links.isEmpty() ? introduction : links;
				}
			}
		}
		for (Path file : cited) {
			if (!PROVENANCE.matcher(read(file)).find()) {
				problems.add(root.relativize(file) + ": no line 'Provenance: commit <hash>; date <yyyy-mm-dd>; "
						+ "duration <time>; machine <description>'");
			}
		}
		return problems;
	}

	/**
	 * Return the blocks of a page, with {@code null} where a heading starts a section.
	 */
	private static List<Block> blocksWithSections(List<String> lines) {
		List<Block> blocks = new ArrayList<>();
		int from = 0;
		for (int i = 0; i <= lines.size(); i++) {
			if (i == lines.size() || lines.get(i).startsWith("#")) {
				List<String> part = new ArrayList<>(lines.size());
				for (int j = 0; j < lines.size(); j++) {
					part.add((j >= from && j < i) ? lines.get(j) : "");
				}
				blocks.addAll(MarkdownBlocks.of(part));
				blocks.add(null);
				from = i + 1;
			}
		}
		return blocks;
	}

	private static List<Path> resultsLinks(Path page, String text) {
		List<Path> links = new ArrayList<>();
		Matcher link = LINK.matcher(text);
		while (link.find()) {
			String target = link.group(1);
			if (RESULTS_FILE.matcher(target).matches() && !target.contains("://")) {
				Path file = page.getParent().resolve(target).normalize();
				if (Files.isRegularFile(file)) {
					links.add(file);
				}
			}
		}
		return links;
	}

	/**
	 * Return whether the text holds the figure: a number of the same unit family that
	 * rounds to it.
	 * @param text the results file's text
	 * @param number the figure's number, as written
	 * @param unit its unit
	 * @return whether the text holds it
	 */
	static boolean holds(String text, String number, String unit) {
		BigDecimal figure = new BigDecimal(number.replace(",", ""));
		int scale = Math.max(figure.scale(), 0);
		String withUnits = SHARED_UNIT.matcher(withColumnUnits(text)).replaceAll("$1 $3 / $2 $3");
		Matcher candidate = NUMBER_WITH_UNIT.matcher(withUnits);
		while (candidate.find()) {
			BigDecimal value = inUnit(new BigDecimal(candidate.group(1).replace(",", "")), candidate.group(2), unit);
			if (value != null && value.setScale(scale, RoundingMode.HALF_UP).compareTo(figure) == 0) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Return the text with the unit of a table column ({@code | wait p99 us |}) written
	 * after each bare number of that column.
	 */
	static String withColumnUnits(String text) {
		StringBuilder result = new StringBuilder();
		List<String> units = null;
		for (String line : text.split("\n", -1)) {
			if (!line.startsWith("|")) {
				units = null;
				result.append(line).append('\n');
				continue;
			}
			List<String> cells = List.of(line.substring(1).split("\\|", -1));
			if (units == null) {
				units = cells.stream().map(MeasuredFigures::columnUnit).toList();
				result.append(line).append('\n');
				continue;
			}
			StringBuilder row = new StringBuilder("|");
			for (int i = 0; i < cells.size(); i++) {
				String cell = cells.get(i);
				String unit = (i < units.size()) ? units.get(i) : "";
				row.append(!unit.isEmpty() && BARE_NUMBER.matcher(cell.strip()).matches()
						? " " + cell.strip() + " " + unit + " " : cell);
				if (i < cells.size() - 1) {
					row.append('|');
				}
			}
			result.append(row).append('\n');
		}
		return result.toString();
	}

	private static String columnUnit(String header) {
		Matcher unit = COLUMN_UNIT.matcher(header.strip());
		if (!unit.find()) {
			return "";
		}
		return (unit.group(1) != null) ? "round trips" : unit.group(2);
	}

	private static BigDecimal inUnit(BigDecimal value, String from, String to) {
		BigDecimal fromMicros = micros(from);
		BigDecimal toMicros = micros(to);
		if (fromMicros != null && toMicros != null) {
			return value.multiply(fromMicros).divide(toMicros, 6, RoundingMode.HALF_UP);
		}
		return from.equals(to) ? value : null;
	}

	private static BigDecimal micros(String unit) {
		return switch (unit.toLowerCase(Locale.ROOT)) {
			case "ns" -> new BigDecimal("0.001");
			case "us", "µs" -> BigDecimal.ONE;
			case "ms" -> BigDecimal.valueOf(1_000);
			case "s" -> BigDecimal.valueOf(1_000_000);
			case "min" -> BigDecimal.valueOf(60_000_000);
			default -> null;
		};
	}

	private static String withoutCode(String text) {
		return text.replaceAll("`[^`]*`", "code");
	}

	private static String read(Path file) {
		return String.join("\n", MarkdownBlocks.read(file));
	}

}
