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
import java.util.stream.LongStream;

import dev.distlock.sample.load.HotItemResult.Answer;
import dev.distlock.sample.load.HotItemResult.Outcome;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Figures and table of a hot-item run from known inputs: {@link HotItemResult},
 * {@link HotItemTable}, the configurations and the command's arguments.
 *
 * @author distlock
 */
class HotItemResultTests {

	private final HotItemResult baseline = result(HotItemConfiguration.BASELINE, 100, 10, 0, 0, 0, 4500L);

	private final HotItemResult oneSegment = result(HotItemConfiguration.segments(1), 100, 10, 0, 0, 2, 6000L);

	private final HotItemResult eightSegments = new HotItemResult(HotItemConfiguration.segments(8), 100, 110, 100, 10,
			0, 0, 0, millis(LongStream.rangeClosed(1, 100)), Duration.ofMillis(250), 7000L);

	@Test
	void figuresOfOneConfiguration() {
		assertThat(this.oneSegment.ordersPerSecond()).isEqualTo(100.0);
		assertThat(this.oneSegment.latency(50)).isEqualTo(Duration.ofMillis(50));
		assertThat(this.oneSegment.latency(99)).isEqualTo(Duration.ofMillis(99));
		assertThat(this.oneSegment.storeRequestsPerOrder()).isEqualTo(60.0);
		assertThat(this.oneSegment.oversold()).isZero();
		assertThat(this.oneSegment.stranded()).isZero();
		assertThat(this.eightSegments.ordersPerSecond()).isEqualTo(400.0);
	}

	@Test
	void overSoldCountsOrdersBeyondTheStockAndANegativeStockStrandedTheStockLeftWhileSomeoneGotSoldOut() {
		HotItemResult oversold = new HotItemResult(HotItemConfiguration.BASELINE, 100, 110, 103, 7, 0, -1, 0,
				new long[0], Duration.ofSeconds(1), null);
		assertThat(oversold.oversold()).isEqualTo(4);
		HotItemResult stranded = new HotItemResult(HotItemConfiguration.segments(4), 100, 110, 97, 13, 13, 3, 0,
				new long[0], Duration.ofSeconds(1), null);
		assertThat(stranded.stranded()).isEqualTo(3);
		assertThat(stranded.oversold()).isZero();
		HotItemResult notEnoughUsers = new HotItemResult(HotItemConfiguration.segments(4), 100, 90, 90, 0, 0, 10, 0,
				new long[0], Duration.ofSeconds(1), null);
		assertThat(notEnoughUsers.stranded()).isZero();
		assertThat(notEnoughUsers.storeRequestsPerOrder()).isNull();
		assertThat(notEnoughUsers.latency(99)).isZero();
	}

	@Test
	void aSoldOutIsFalseWhenAnOrderSentAfterItsAnswerSucceededOrWhenStockIsLeft() {
		List<Answer> answers = List.of(new Answer(0, 10, Outcome.CREATED), new Answer(1, 5, Outcome.SOLD_OUT),
				new Answer(2, 20, Outcome.SOLD_OUT), new Answer(6, 30, Outcome.CREATED),
				new Answer(7, 8, Outcome.OTHER), new Answer(25, 26, Outcome.SOLD_OUT));
		// sold-out answered at 5: the order sent at 6 then succeeded; answered at 20 and
		// 26:
		// no order sent after them succeeded
		assertThat(HotItemResult.falseSoldOuts(answers, 0)).isOne();
		assertThat(HotItemResult.falseSoldOuts(answers, 2)).isEqualTo(3);
		assertThat(HotItemResult.falseSoldOuts(List.of(new Answer(0, 1, Outcome.SOLD_OUT)), 0)).isZero();
	}

	@Test
	void tableHasARowPerConfigurationAndTheRatioOf8To1Segments() {
		HotItemTable table = new HotItemTable(List.of(this.baseline, this.oneSegment, this.eightSegments));
		assertThat(table.speedUp(8)).hasValue(4.0);
		assertThat(table.speedUp(16)).isEmpty();
		String text = table.table();
		assertThat(text.lines()).hasSize(6);
		assertThat(text.lines().toList().get(0)).contains("orders/s", "p50 ms", "p99 ms", "false s-o", "stranded",
				"oversold", "Redis cmd/ord");
		assertThat(text)
			.containsPattern("\\| no lock \\(conditional UPDATE\\) +\\| +100\\.0 \\| +50\\.0 \\| +99\\.0 \\| "
					+ "+100 \\| +10 \\| +0 \\| +0 \\| +0 \\| +0 \\| +45\\.0 \\|")
			.containsPattern("\\| 1 segment +\\| +100\\.0 \\| .* \\| +60\\.0 \\| +2 \\|")
			.containsPattern("\\| 8 segments +\\| +400\\.0 \\| +50\\.0 \\| +99\\.0 \\| .* \\| +70\\.0 \\| +0 \\|")
			.endsWith(String.format("8 segments: 4.0x the orders/s of 1 segment in the same run%n"));
		HotItemResult uncounted = new HotItemResult(HotItemConfiguration.segments(2), 100, 110, 100, 10, 0, 0, 0,
				millis(LongStream.of(1)), Duration.ofSeconds(1), null);
		assertThat(new HotItemTable(List.of(uncounted)).table()).contains("n/a").doesNotContain("8 segments:");
	}

	@Test
	void configurationsAreTheBaselineThenLockedSegments() {
		assertThat(HotItemCommand.configurations(List.of(1, 8))).containsExactly(HotItemConfiguration.BASELINE,
				new HotItemConfiguration(1, true), new HotItemConfiguration(8, true));
		assertThat(HotItemConfiguration.BASELINE.name()).isEqualTo("no lock (conditional UPDATE)");
		assertThat(HotItemConfiguration.segments(1).name()).isEqualTo("1 segment");
		assertThatIllegalArgumentException().isThrownBy(() -> new HotItemConfiguration(2, false));
		assertThatIllegalArgumentException().isThrownBy(() -> HotItemConfiguration.segments(65));
	}

	@Test
	void readsTheCommandsProcessedFromInfoStats() {
		assertThat(RedisCommandCounter.parse("# Stats\r\ntotal_connections_received:3\r\n"
				+ "total_commands_processed:12345\r\ninstantaneous_ops_per_sec:0\r\n"))
			.isEqualTo(12345);
	}

	@Test
	void hotItemModeRejectsUnknownArgumentsAndBadNumbers() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BurstCommand.main(new String[] { "--hot-item", "--per-user=2" }))
			.withMessageContaining("Unknown argument '--per-user=2'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BurstCommand.main(new String[] { "--hot-item", "--segments=1,many" }))
			.withMessageContaining("'--segments=many' needs a whole number");
	}

	private static HotItemResult result(HotItemConfiguration configuration, int orders, int soldOuts, int left,
			int falseSoldOuts, int other, long commands) {
		return new HotItemResult(configuration, orders + left, orders + soldOuts, orders, soldOuts, falseSoldOuts, left,
				other, millis(LongStream.rangeClosed(1, 100)), Duration.ofSeconds(1), commands);
	}

	private static long[] millis(LongStream values) {
		return values.map((value) -> Duration.ofMillis(value).toNanos()).toArray();
	}

}
