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

package dev.distlock.annotation;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The segment keys of an item, and the item keys that could make two items share one.
 *
 * @author distlock
 */
class SegmentKeysTests {

	@Test
	void namesEachSegmentAfterItsItem() {
		assertThat(SegmentKeys.of("stock:42", 3)).containsExactly("stock:42#0", "stock:42#1", "stock:42#2");
	}

	@Test
	void refusesAnItemKeyHoldingTheSeparator() {
		assertThatIllegalArgumentException().isThrownBy(() -> SegmentKeys.of("stock:4#2", 2))
			.withMessageContaining("must not contain '#'")
			.withMessageContaining("stock:4#2");
	}

}
