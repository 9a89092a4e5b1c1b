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
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link CommitCounters}.
 *
 * @author distlock
 * @since 0.1.0
 */
class CommitCountersTests {

	@Test
	void readsMariaDbsGlobalStatusRows() {
		CommitCounters counters = CommitCounters
			.of(List.of(List.of("Com_commit", "12"), List.of("Handler_commit", " 3400\n")));
		assertThat(counters.values()).containsExactly(Map.entry("Com_commit", 12L), Map.entry("Handler_commit", 3400L));
	}

	@Test
	void dividesTheGrowthSinceAnEarlierReadingByTheOperations() {
		CommitCounters before = CommitCounters
			.of(List.of(List.of("Com_commit", "12"), List.of("Handler_commit", "3400")));
		CommitCounters after = CommitCounters
			.of(List.of(List.of("Com_commit", "12"), List.of("Handler_commit", "4405")));
		assertThat(after.since(before).perOperation(500)).isEqualTo("Com_commit 0.00, Handler_commit 2.01");
	}

	@Test
	void countsACounterTheEarlierReadingLackedFromZero() {
		CommitCounters after = CommitCounters.of(List.of(List.of("xact_commit", "1000")));
		assertThat(after.since(CommitCounters.of(List.of())).perOperation(500)).isEqualTo("xact_commit 2.00");
	}

	@Test
	void saysWhenTheDatabaseExposesNoCounter() {
		assertThat(CommitCounters.of(List.of()).perOperation(10)).isEqualTo("not exposed");
	}

}
