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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.distlock.docs.MarkdownBlocks.Block;
import dev.distlock.docs.MarkdownBlocks.Kind;

/**
 * Compares the meters the documentation names with those an application registers and
 * Prometheus exports:
 * <ul>
 * <li>the table of the page's "Meters" section (first cell a code span
 * {@code distlock.*}, third cell the tag keys: the first code span of each
 * comma-separated part) lists exactly the registered {@code distlock.*} meters and, for
 * each, exactly its tag keys;</li>
 * <li>every {@code distlock.meter{tag=...}} of the README and docs/ names a registered
 * meter and one of its tags;</li>
 * <li>every Prometheus name of the README and docs/ ({@code distlock_*}, code blocks
 * included, {@code *} as a wildcard) matches a series of the scrape, and every
 * {@code distlock_*} series of the scrape matches a documented name.</li>
 * </ul>
 *
 * @author distlock
 */
final class DocumentedMeters {

	private static final Pattern METER_CELL = Pattern.compile("`(distlock\\.[a-z.-]+)`");

	private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");

	private static final Pattern METER_WITH_TAG = Pattern.compile("(distlock\\.[a-z.-]+)\\{([a-z_-]+)=");

	private static final Pattern PROMETHEUS_NAME = Pattern.compile("\\bdistlock_[a-z_*]+");

	/**
	 * Names of the JDBC store's table, index and sequence, which look like Prometheus
	 * names but are no meters.
	 */
	private static final Set<String> SCHEMA_NAMES = Set.of("distlock_lock", "distlock_lock_expires_idx",
			"distlock_lock_fence_seq");

	private static final Pattern SERIES = Pattern.compile("^(distlock_\\w+)[{ ]", Pattern.MULTILINE);

	private DocumentedMeters() {
	}

	/**
	 * Return the differences between the documented and the registered meters.
	 * @param root the directory the files' names in the problems are relative to
	 * @param pages the README and docs/ pages
	 * @param meterPage the page whose "Meters" table lists every meter
	 * @param tagKeys the tag keys of each registered {@code distlock.*} meter
	 * @param scrape the Prometheus scrape of the same registry
	 * @return one line per problem, empty when none
	 */
	static List<String> problems(Path root, List<Path> pages, Path meterPage, Map<String, Set<String>> tagKeys,
			String scrape) {
		List<String> problems = new ArrayList<>();
		Map<String, Set<String>> documented = meterTable(MarkdownBlocks.read(meterPage));
		String tablePage = root.relativize(meterPage).toString();
		for (String meter : union(documented.keySet(), tagKeys.keySet())) {
			if (!tagKeys.containsKey(meter)) {
				problems.add(tablePage + ": meter " + meter + " is documented but not registered");
			}
			else if (!documented.containsKey(meter)) {
				problems.add(tablePage + ": meter " + meter + " is registered but not in the Meters table");
			}
			else if (!documented.get(meter).equals(tagKeys.get(meter))) {
				problems.add(tablePage + ": meter " + meter + " is documented with the tags " + documented.get(meter)
						+ " but has " + tagKeys.get(meter));
			}
		}
		Set<String> series = new TreeSet<>();
		Matcher sample = SERIES.matcher(scrape);
		while (sample.find()) {
			series.add(sample.group(1));
		}
		Set<String> prometheusNames = new LinkedHashSet<>();
		for (Path page : pages) {
			String name = root.relativize(page).toString();
			List<String> lines = MarkdownBlocks.read(page);
			for (int i = 0; i < lines.size(); i++) {
				Matcher tagged = METER_WITH_TAG.matcher(lines.get(i));
				while (tagged.find()) {
					Set<String> keys = tagKeys.get(tagged.group(1));
					if (keys == null || !keys.contains(tagged.group(2))) {
						problems.add(name + ":" + (i + 1) + ": " + tagged.group() + " names no registered meter tag");
					}
				}
				Matcher prometheus = PROMETHEUS_NAME.matcher(lines.get(i));
				while (prometheus.find()) {
					String documentedName = prometheus.group();
					if (SCHEMA_NAMES.contains(documentedName)) {
						continue;
					}
					prometheusNames.add(documentedName);
					if (series.stream().noneMatch((exported) -> matches(documentedName, exported))) {
						problems.add(name + ":" + (i + 1) + ": " + documentedName + " is not exported to Prometheus");
					}
				}
			}
		}
		for (String exported : series) {
			if (prometheusNames.stream().noneMatch((documentedName) -> matches(documentedName, exported))) {
				problems.add("Prometheus series " + exported + " is not documented");
			}
		}
		return problems;
	}

	static Map<String, Set<String>> meterTable(List<String> lines) {
		Map<String, Set<String>> meters = new LinkedHashMap<>();
		List<String> row = new ArrayList<>();
		int rowLine = -1;
		for (Block block : MarkdownBlocks.of(lines)) {
			if (block.kind() != Kind.CELL) {
				continue;
			}
			if (block.line() != rowLine) {
				addMeter(meters, row);
				row = new ArrayList<>();
				rowLine = block.line();
			}
			row.add(block.text());
		}
		addMeter(meters, row);
		return meters;
	}

	private static void addMeter(Map<String, Set<String>> meters, List<String> row) {
		if (row.size() < 3) {
			return;
		}
		Matcher meter = METER_CELL.matcher(row.get(0));
		if (!meter.matches()) {
			return;
		}
		Set<String> keys = new TreeSet<>();
		for (String part : row.get(2).split(",")) {
			Matcher key = CODE_SPAN.matcher(part);
			if (key.find()) {
				keys.add(key.group(1));
			}
		}
		meters.put(meter.group(1), keys);
	}

	private static boolean matches(String documentedName, String exported) {
		return exported.matches(Pattern.quote(documentedName).replace("*", "\\E\\w*\\Q"));
	}

	private static Set<String> union(Set<String> first, Set<String> second) {
		Set<String> all = new TreeSet<>(first);
		all.addAll(second);
		return all;
	}

}
