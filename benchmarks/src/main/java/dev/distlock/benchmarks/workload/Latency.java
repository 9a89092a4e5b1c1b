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

package dev.distlock.benchmarks.workload;

import java.util.Arrays;

/**
 * Percentiles of latency samples.
 *
 * @param samples how many samples there were
 * @param p50Nanos the median in nanoseconds
 * @param p99Nanos the 99th percentile in nanoseconds
 * @author distlock
 * @since 0.1.0
 */
public record Latency(int samples, long p50Nanos, long p99Nanos) {

	/**
	 * Summarise samples (nearest-rank percentiles).
	 * @param nanos the samples in nanoseconds, sorted in place
	 * @return the summary, zero when there are no samples
	 */
	public static Latency of(long[] nanos) {
		if (nanos.length == 0) {
			return new Latency(0, 0, 0);
		}
		Arrays.sort(nanos);
		return new Latency(nanos.length, percentile(nanos, 0.50), percentile(nanos, 0.99));
	}

	private static long percentile(long[] sorted, double fraction) {
		int rank = (int) Math.ceil(fraction * sorted.length);
		return sorted[Math.max(0, rank - 1)];
	}

}
