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

package dev.distlock.benchmarks.loss;

import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The percentiles of the loss benchmark: nearest rank, so that with few samples the p99
 * is the slowest one.
 *
 * @author distlock
 */
class LossBenchmarkMainTests {

	@Test
	void percentilesAreTheNearestRank() {
		long[] hundred = LongStream.rangeClosed(1, 100).toArray();
		assertThat(LossBenchmarkMain.percentile(hundred, 50)).isEqualTo(50);
		assertThat(LossBenchmarkMain.percentile(hundred, 99)).isEqualTo(99);
	}

	@Test
	void theP99OfFewSamplesIsTheSlowest() {
		long[] fifteen = LongStream.rangeClosed(1, 15).toArray();
		assertThat(LossBenchmarkMain.percentile(fifteen, 99)).isEqualTo(15);
		assertThat(LossBenchmarkMain.percentile(fifteen, 50)).isEqualTo(8);
	}

}
