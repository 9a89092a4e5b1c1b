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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link HoldTimeline}: the checks that report broken mutual exclusion and the
 * hand-off latencies.
 *
 * @author distlock
 * @since 0.1.0
 */
class HoldTimelineTests {

	@Test
	void countsNoOverlapWhenHoldsFollowEachOther() {
		HoldTimeline timeline = new HoldTimeline(
				List.of(events(new long[] { 0, 10, 20 }, new long[] { 5, 30, 40 }), events(new long[] { 1, 50, 60 })));
		assertThat(timeline.overlaps()).isZero();
		assertThat(timeline.holds()).isEqualTo(3);
	}

	@Test
	void countsAHoldThatBeginsBeforeAnEarlierOneEnded() {
		HoldTimeline timeline = new HoldTimeline(List.of(events(new long[] { 0, 10, 100 }),
				events(new long[] { 0, 50, 60 }, new long[] { 0, 200, 210 })));
		assertThat(timeline.overlaps()).isEqualTo(1);
	}

	@Test
	void measuresHandoffsOnlyToHoldersThatWereAlreadyWaiting() {
		HoldTimeline timeline = new HoldTimeline(List.of(events(new long[] { 0, 10, 20 }, new long[] { 100, 110, 120 }),
				events(new long[] { 15, 27, 40 })));
		Latency handoffs = timeline.handoffs(false);
		assertThat(handoffs.samples()).isEqualTo(1);
		assertThat(handoffs.p50Nanos()).isEqualTo(7);
	}

	@Test
	void separatesHandoffsToAnotherProcess() {
		HoldTimeline timeline = new HoldTimeline(List.of(events(new long[] { 0, 10, 20 }, new long[] { 15, 22, 30 }),
				events(new long[] { 25, 40, 50 })));
		assertThat(timeline.handoffs(false).samples()).isEqualTo(2);
		assertThat(timeline.handoffs(true).samples()).isEqualTo(1);
		assertThat(timeline.handoffs(true).p50Nanos()).isEqualTo(10);
		assertThat(timeline.crossProcessShare()).isEqualTo(0.5);
	}

	@Test
	void takesWaitsFromAskingToHolding() {
		HoldTimeline timeline = new HoldTimeline(List.of(events(new long[] { 0, 10, 20 }, new long[] { 5, 30, 40 })));
		assertThat(timeline.waits().p50Nanos()).isEqualTo(10);
		assertThat(timeline.waits().p99Nanos()).isEqualTo(25);
	}

	@Test
	void findsNoOvertakenHoldWhenGrantsFollowTheOrderOfAsking() {
		HoldTimeline timeline = new HoldTimeline(List.of(events(new long[] { 0, 10, 20 }, new long[] { 12, 40, 50 }),
				events(new long[] { 5, 21, 30 }, new long[] { 25, 51, 60 })));
		assertThat(timeline.overtaken(0)).isZero();
	}

	@Test
	void countsAHoldGrantedAfterOneThatAskedLaterInAnotherProcess() {
		HoldTimeline timeline = new HoldTimeline(
				List.of(events(new long[] { 0, 40, 50 }), events(new long[] { 5, 10, 20 }, new long[] { 30, 60, 70 })));
		assertThat(timeline.overtaken(0)).isEqualTo(1);
	}

	@Test
	void countsOvertakingWithinOneProcessToo() {
		HoldTimeline timeline = new HoldTimeline(List.of(events(new long[] { 0, 40, 50 }, new long[] { 5, 10, 20 })));
		assertThat(timeline.overtaken(0)).isEqualTo(1);
	}

	@Test
	void countsEveryHoldOvertakenByTheSameLaterCaller() {
		HoldTimeline timeline = new HoldTimeline(
				List.of(events(new long[] { 0, 30, 40 }, new long[] { 1, 41, 50 }), events(new long[] { 20, 21, 29 })));
		assertThat(timeline.overtaken(0)).isEqualTo(2);
	}

	@Test
	void ignoresOvertakingWithinTheTolerance() {
		HoldTimeline timeline = new HoldTimeline(List.of(events(new long[] { 0, 40, 50 }),
				events(new long[] { 5, 10, 20 }, new long[] { 100, 101, 110 })));
		assertThat(timeline.overtaken(5)).isZero();
		assertThat(timeline.overtaken(4)).isEqualTo(1);
	}

	@Test
	void measuresTheLargestMarginByWhichALaterCallerOvertook() {
		HoldTimeline timeline = new HoldTimeline(List.of(events(new long[] { 0, 40, 50 }, new long[] { 2, 51, 60 }),
				events(new long[] { 5, 10, 20 }, new long[] { 9, 21, 30 })));
		assertThat(timeline.largestOvertaking()).isEqualTo(9);
		assertThat(new HoldTimeline(List.of(events(new long[] { 0, 10, 20 }))).largestOvertaking()).isZero();
	}

	private static HoldEvents events(long[]... holds) {
		long[] requested = new long[holds.length];
		long[] acquired = new long[holds.length];
		long[] releasing = new long[holds.length];
		for (int i = 0; i < holds.length; i++) {
			requested[i] = holds[i][0];
			acquired[i] = holds[i][1];
			releasing[i] = holds[i][2];
		}
		return new HoldEvents(holds.length, 0, requested, acquired, releasing);
	}

}
