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

package dev.distlock.benchmarks;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Commit counters a database server exposes ({@code xact_commit} of PostgreSQL's
 * {@code pg_stat_database}, MariaDB's {@code Com_commit} and {@code Handler_commit}), as
 * read at one time, or the difference of two readings.
 *
 * @param values each counter's value, by name
 * @author distlock
 * @since 0.1.0
 */
public record CommitCounters(Map<String, Long> values) {

	/**
	 * Read counters from the rows of a query: each row a counter's name, then its value.
	 * @param rows the rows
	 * @return the counters
	 * @throws NumberFormatException if a value is not a whole number
	 */
	public static CommitCounters of(List<List<String>> rows) {
		Map<String, Long> values = new TreeMap<>();
		for (List<String> row : rows) {
			values.put(row.get(0), Long.parseLong(row.get(1).strip()));
		}
		return new CommitCounters(values);
	}

	/**
	 * Return how much each counter grew since an earlier reading; a counter the earlier
	 * reading lacks counts from 0.
	 * @param earlier the earlier reading
	 * @return the growth of each counter
	 */
	public CommitCounters since(CommitCounters earlier) {
		Map<String, Long> growth = new TreeMap<>();
		this.values.forEach((name, value) -> growth.put(name, value - earlier.values.getOrDefault(name, 0L)));
		return new CommitCounters(growth);
	}

	/**
	 * Describe the counters divided by a number of operations, such as
	 * {@code Com_commit 0.00, Handler_commit 2.01}.
	 * @param operations the operations the counters grew by
	 * @return the description, or {@code not exposed} when there is no counter
	 */
	public String perOperation(long operations) {
		if (this.values.isEmpty()) {
			return "not exposed";
		}
		return this.values.entrySet()
			.stream()
			.map((entry) -> entry.getKey() + " "
					+ String.format(Locale.ROOT, "%.2f", entry.getValue() / (double) Math.max(operations, 1)))
			.collect(Collectors.joining(", "));
	}

}
