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

package dev.distlock.sample.load;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The table of a hot-item run: one row per configuration, then the ratio of the orders
 * per second of 8 segments to those of 1 segment.
 *
 * @param results the result of each configuration, in run order
 * @author distlock
 * @since 0.1.0
 */
public record HotItemTable(List<HotItemResult> results) {

	private static final String HEADER = String.format(
			"| %-28s | %9s | %8s | %8s | %6s | %8s | %10s | %6s | %8s | %8s | %13s | %5s |%n", "configuration",
			"orders/s", "p50 ms", "p99 ms", "orders", "sold-out", "false s-o", "left", "stranded", "oversold",
			"Redis cmd/ord", "other");

	/**
	 * Create a table.
	 * @param results the result of each configuration
	 */
	public HotItemTable {
		results = List.copyOf(results);
	}

	/**
	 * Return how many times the orders per second of 1 locked segment the given number of
	 * segments reached in this run.
	 * @param segments the number of segments
	 * @return the ratio, empty unless both configurations ran
	 */
	public Optional<Double> speedUp(int segments) {
		Optional<HotItemResult> one = find(HotItemConfiguration.segments(1));
		Optional<HotItemResult> many = find(HotItemConfiguration.segments(segments));
		if (one.isEmpty() || many.isEmpty() || one.get().ordersPerSecond() == 0) {
			return Optional.empty();
		}
		return Optional.of(many.get().ordersPerSecond() / one.get().ordersPerSecond());
	}

	private Optional<HotItemResult> find(HotItemConfiguration configuration) {
		return this.results.stream().filter((result) -> result.configuration().equals(configuration)).findFirst();
	}

	/**
	 * Render the table as plain text, followed by the 8-to-1 segment line when both ran.
	 * @return the table
	 */
	public String table() {
		StringBuilder table = new StringBuilder(HEADER);
		table.append(HEADER.replaceAll("[^|\\n]", "-"));
		for (HotItemResult result : this.results) {
			table.append(
					String.format("| %-28s | %9.1f | %8s | %8s | %6d | %8d | %10d | %6d | %8d | %8d | %13s | %5d |%n",
							result.configuration().name(), result.ordersPerSecond(), millis(result.latency(50)),
							millis(result.latency(99)), result.ordersCreated(), result.soldOuts(),
							result.falseSoldOuts(), result.finalStock(), result.stranded(), result.oversold(),
							perOrder(result.storeRequestsPerOrder()), result.otherFailures()));
		}
		speedUp(8).ifPresent((ratio) -> table
			.append(String.format("8 segments: %.1fx the orders/s of 1 segment in the same run%n", ratio)));
		return table.toString();
	}

	private static String millis(Duration duration) {
		return String.format("%.1f", duration.toNanos() / 1e6);
	}

	private static String perOrder(@Nullable Double value) {
		return (value != null) ? String.format("%.1f", value) : "n/a";
	}

}
