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

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.distlock.benchmarks.workload.ClusterRenewalResult.Round;
import dev.distlock.core.RenewalBatch;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ClusterRenewalResult} and the grouping of renewal batches into rounds
 * in {@link ClusterRenewalWorkload}.
 *
 * @author distlock
 * @since 0.1.0
 */
class ClusterRenewalResultTests {

	private static final Duration INTERVAL = Duration.ofSeconds(1);

	private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

	@Test
	void worstRoundIsTheSlowestRoundAgainstTheInterval() {
		ClusterRenewalResult result = result(round(20, 0, 0, 120), round(20, 0, 0, 250), round(20, 0, 0, 90));
		assertThat(result.worstRound()).isEqualTo(Duration.ofMillis(250));
		assertThat(result.worstRatio()).isEqualTo(0.25);
		assertThat(result.ratio(Duration.ofMillis(90))).isEqualTo(0.09);
	}

	@Test
	void countsLostAndUnrenewedLeasesOverAllRounds() {
		ClusterRenewalResult result = result(round(20, 3, 0, 100), round(20, 0, 5, 100), round(20, 1, 1, 100));
		assertThat(result.lostOrFailed()).isEqualTo(10);
	}

	@Test
	void dividesTheScriptsOfAllMastersByTheRounds() {
		ClusterRenewalResult result = new ClusterRenewalResult(10_000, 3, INTERVAL,
				List.of(round(20, 0, 0, 100), round(20, 0, 0, 100), round(20, 0, 0, 100)), List.of(100L, 200L, 300L));
		assertThat(result.scripts()).isEqualTo(600);
		assertThat(result.scriptsPerRound()).isEqualTo(200);
		assertThat(new ClusterRenewalResult(1, 3, INTERVAL, List.of(), List.of(5L)).scriptsPerRound()).isZero();
		assertThat(new ClusterRenewalResult(1, 3, INTERVAL, List.of(), List.of(5L)).worstRound()).isZero();
	}

	@Test
	void groupsBatchesSentTogetherIntoOneRoundWhoseDurationIsTheLongestBatch() {
		List<RenewalBatch> batches = List.of(batch(0, 40, 500, 0), batch(0, 95, 500, 0), batch(1_000, 30, 500, 0),
				batch(2, 60, 500, 2), batch(1_001, 80, 500, 0));
		List<Round> rounds = ClusterRenewalWorkload.rounds(batches, INTERVAL);
		assertThat(rounds).containsExactly(new Round(3, 1_500, 1_498, 2, 0, Duration.ofMillis(95)),
				new Round(2, 1_000, 1_000, 0, 0, Duration.ofMillis(80)));
	}

	@Test
	void keepsOnlyRoundsThatAskedForEveryLease() {
		List<Round> rounds = List.of(new Round(1, 500, 500, 0, 0, Duration.ZERO),
				new Round(2, 1_000, 1_000, 0, 0, Duration.ZERO), new Round(2, 1_000, 999, 1, 0, Duration.ZERO));
		assertThat(ClusterRenewalWorkload.completeRounds(rounds, 1_000)).containsExactly(rounds.get(1), rounds.get(2));
	}

	private static ClusterRenewalResult result(Round... rounds) {
		return new ClusterRenewalResult(10_000, 3, INTERVAL, List.of(rounds), List.of(1L, 2L, 3L));
	}

	private static Round round(int batches, int lost, int failed, long millis) {
		int leases = batches * 500;
		return new Round(batches, leases, leases - lost - failed, lost, failed, Duration.ofMillis(millis));
	}

	private static RenewalBatch batch(long startMillis, long durationMillis, int leases, int lost) {
		Duration duration = Duration.ofMillis(durationMillis);
		return new RenewalBatch(leases, leases - lost, lost, 0, duration, T0.plusMillis(startMillis).plus(duration),
				null);
	}

}
