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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Latency}.
 *
 * @author distlock
 * @since 0.1.0
 */
class LatencyTests {

	@Test
	void takesNearestRankPercentilesOfUnsortedSamples() {
		long[] samples = new long[100];
		for (int i = 0; i < samples.length; i++) {
			samples[i] = 100 - i;
		}
		Latency latency = Latency.of(samples);
		assertThat(latency.samples()).isEqualTo(100);
		assertThat(latency.p50Nanos()).isEqualTo(50);
		assertThat(latency.p99Nanos()).isEqualTo(99);
	}

	@Test
	void isZeroWithoutSamples() {
		assertThat(Latency.of(new long[0])).isEqualTo(new Latency(0, 0, 0));
	}

}
