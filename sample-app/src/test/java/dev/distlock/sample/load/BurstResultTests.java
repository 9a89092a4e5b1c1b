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
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Figures and table of a {@link BurstResult}, and argument checks of the load command.
 *
 * @author distlock
 */
class BurstResultTests {

	private final BurstResult result = new BurstResult(List.of(URI.create("http://a:1"), URI.create("http://b:2")), 10,
			10, 7, 5, Map.of(201, 5L, 409, 30L, 429, 60L, 500, 3L), Map.of("409 sold-out", 30L, "429 busy", 60L), 2, 5,
			0, 0, 0, millis(LongStream.rangeClosed(1, 100)), Duration.ofSeconds(2));

	@Test
	void countsFiveHundredsAndMissingResponsesAsServerErrors() {
		assertThat(this.result.requests()).isEqualTo(100);
		assertThat(this.result.count(201)).isEqualTo(5);
		assertThat(this.result.count(404)).isZero();
		assertThat(this.result.serverErrors()).isEqualTo(5);
	}

	@Test
	void latencyPercentilesUseNearestRank() {
		assertThat(this.result.latency(50)).isEqualTo(Duration.ofMillis(50));
		assertThat(this.result.latency(99)).isEqualTo(Duration.ofMillis(99));
		assertThat(this.result.latency(100)).isEqualTo(Duration.ofMillis(100));
	}

	@Test
	void tableShowsEveryFigure() {
		assertThat(this.result.table()).contains("http://a:1, http://b:2")
			.containsPattern("201 created +\\| 5 ")
			.containsPattern("409 conflict +\\| 30 ")
			.containsPattern("429 busy +\\| 60 ")
			.containsPattern("5xx \\+ no response +\\| 5 ")
			.containsPattern("orders created +\\| 5 ")
			.containsPattern("duplicates +\\| 0 ")
			.contains("latency p50            | 50.0 ms")
			.contains("latency p99            | 99.0 ms");
	}

	@Test
	void loadCommandRejectsUnknownArgumentsAndBadNumbers() {
		assertThatIllegalArgumentException().isThrownBy(() -> BurstCommand.main(new String[] { "localhost:8080" }))
			.withMessageContaining("Unknown argument 'localhost:8080'");
		assertThatIllegalArgumentException().isThrownBy(() -> BurstCommand.main(new String[] { "--users=many" }))
			.withMessageContaining("'--users=many' needs a whole number");
	}

	@Test
	void burstRejectsEmptyOrNonPositiveSettings() {
		assertThatIllegalArgumentException().isThrownBy(() -> Burst.against(List.of(), 1, 1, 1, 1))
			.withMessageContaining("'clients'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Burst.against(List.of(URI.create("http://localhost:1")), 0, 1, 1, 1))
			.withMessageContaining("'users' must be at least 1");
	}

	private static long[] millis(LongStream values) {
		return values.map((value) -> Duration.ofMillis(value).toNanos()).toArray();
	}

}
