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

import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Outcome of a {@link Burst}.
 *
 * @param instances the base URIs of the instances
 * @param users how many users ordered
 * @param requestsPerUser how many concurrent orders each user sent
 * @param voucherId the voucher ordered
 * @param stock the initial stock
 * @param statuses number of responses per HTTP status
 * @param rejections number of non-201 responses per status and problem {@code code}
 * @param failures requests that got no response at all
 * @param ordersCreated orders in the database after the burst
 * @param duplicates orders beyond the first one of a user
 * @param finalStock stock after the burst
 * @param lowestStock lowest stock seen during and after the burst
 * @param latencyNanos latency of every request
 * @param elapsed time from the first request to the last response
 * @author distlock
 * @since 0.1.0
 */
public record BurstResult(List<URI> instances, int users, int requestsPerUser, long voucherId, int stock,
		Map<Integer, Long> statuses, Map<String, Long> rejections, long failures, int ordersCreated, int duplicates,
		int finalStock, int lowestStock, long[] latencyNanos, Duration elapsed) {

	/**
	 * Return how many requests were sent.
	 * @return the number of requests
	 */
	public int requests() {
		return this.users * this.requestsPerUser;
	}

	/**
	 * Return how many responses had the given status.
	 * @param status the HTTP status
	 * @return the number of responses
	 */
	public long count(int status) {
		return this.statuses.getOrDefault(status, 0L);
	}

	/**
	 * Return how many requests failed on the server side: 5xx responses and requests
	 * without a response.
	 * @return the number of server errors
	 */
	public long serverErrors() {
		return this.failures + this.statuses.entrySet()
			.stream()
			.filter((entry) -> entry.getKey() >= 500)
			.mapToLong(Map.Entry::getValue)
			.sum();
	}

	/**
	 * Return a latency percentile.
	 * @param percentile the percentile, for example {@code 99}
	 * @return the latency
	 */
	public Duration latency(double percentile) {
		long[] sorted = this.latencyNanos.clone();
		Arrays.sort(sorted);
		int index = (int) Math.ceil(percentile / 100 * sorted.length) - 1;
		return Duration.ofNanos(sorted[Math.max(0, Math.min(index, sorted.length - 1))]);
	}

	/**
	 * Render the result as a plain-text table.
	 * @return the table
	 */
	public String table() {
		StringBuilder table = new StringBuilder();
		row(table, "instances", this.instances.stream().map(URI::toString).collect(Collectors.joining(", ")));
		row(table, "requests", this.requests() + " (" + this.users + " users x " + this.requestsPerUser
				+ " concurrent duplicates, voucher " + this.voucherId + " with stock " + this.stock + ")");
		row(table, "201 created", this.count(201));
		row(table, "409 conflict", this.count(409));
		row(table, "429 busy", this.count(429));
		this.rejections.forEach((code, count) -> row(table, "  " + code, count));
		long other = this.requests() - this.failures - this.count(201) - this.count(409) - this.count(429);
		row(table, "other / no response", other + " / " + this.failures);
		row(table, "5xx + no response", this.serverErrors());
		row(table, "orders created", this.ordersCreated);
		row(table, "duplicates", this.duplicates);
		row(table, "stock left (lowest)", this.finalStock + " (" + this.lowestStock + ")");
		row(table, "latency p50", millis(latency(50)));
		row(table, "latency p99", millis(latency(99)));
		row(table, "latency max", millis(latency(100)));
		row(table, "elapsed", millis(this.elapsed)
				+ String.format(" (%.0f requests/s)", this.requests() / Math.max(this.elapsed.toNanos() / 1e9, 1e-9)));
		return table.toString();
	}

	private static void row(StringBuilder table, String name, Object value) {
		table.append(String.format("| %-22s | %-72s |%n", name, value));
	}

	private static String millis(Duration duration) {
		return String.format("%.1f ms", duration.toNanos() / 1e6);
	}

}
