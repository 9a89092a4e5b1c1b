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

import java.util.List;

/**
 * Outcome of the uncontended workload.
 *
 * @param threads how many threads ran
 * @param opsPerSecond acquire+release pairs per second, all threads together, over all
 * measured rounds
 * @param latency latency of one acquire+release pair
 * @param roundOpsPerSecond acquire+release pairs per second in each measured round, in
 * the order of the rounds
 * @param cpuNanosPerOp the client's CPU time per acquire+release pair: the process CPU
 * time of the measured windows divided by the pairs that began in them, {@code NaN} when
 * not measured
 * @author distlock
 * @since 0.1.0
 */
public record Throughput(int threads, double opsPerSecond, Latency latency, List<Double> roundOpsPerSecond,
		double cpuNanosPerOp) {

	/**
	 * Create an outcome without a CPU measurement.
	 * @param threads how many threads ran
	 * @param opsPerSecond acquire+release pairs per second
	 * @param latency latency of one acquire+release pair
	 * @param roundOpsPerSecond acquire+release pairs per second in each measured round
	 */
	public Throughput(int threads, double opsPerSecond, Latency latency, List<Double> roundOpsPerSecond) {
		this(threads, opsPerSecond, latency, roundOpsPerSecond, Double.NaN);
	}

}
