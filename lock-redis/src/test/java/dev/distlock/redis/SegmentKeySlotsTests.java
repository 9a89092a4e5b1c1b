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

package dev.distlock.redis;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The segment keys of one item ({@code item#0} to {@code item#7}, as the advice's
 * {@code SegmentKeys} builds them) on a Redis Cluster: each is a hash tag of its own, so
 * siblings never share one hash slot because of the item's key, braces in it included,
 * and they spread over the slots.
 *
 * @author distlock
 */
class SegmentKeySlotsTests {

	@ParameterizedTest
	@ValueSource(strings = { "stock:42", "stock:{hot}", "{voucher}:7" })
	void theSegmentsOfOneItemHashToSlotsOfTheirOwn(String item) {
		List<String> segments = segments(item, 8);
		Set<Integer> slots = segments.stream()
			.map((segment) -> SlotHash.getSlot(LockKeys.of("distlock:", segment).lockKey()))
			.collect(Collectors.toSet());
		assertThat(slots).as("slots of the 8 segments of %s", item).hasSize(8);
	}

	@Test
	void everyNameOfOneSegmentStaysInTheSegmentsSlot() {
		LockKeys keys = LockKeys.of("distlock:", segments("stock:{hot}", 8).get(3));
		int slot = SlotHash.getSlot(keys.lockKey());
		assertThat(keys.all()).allMatch((name) -> SlotHash.getSlot(name) == slot);
	}

	private static List<String> segments(String item, int count) {
		return IntStream.range(0, count).mapToObj((segment) -> item + "#" + segment).toList();
	}

}
