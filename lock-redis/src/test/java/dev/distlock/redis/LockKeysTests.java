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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link LockKeys}.
 *
 * @author distlock
 */
class LockKeysTests {

	@ParameterizedTest
	@ValueSource(strings = { "order:42", "a{b}c", "}{", "{", "}", "user:{7}:cart", "a\\}", "ünïcödé" })
	void everyKeyOfOneLockSharesAHashSlot(String name) {
		LockKeys keys = LockKeys.of("lock:", name);
		int slot = ClusterSlotHashUtil.calculateSlot(keys.lockKey());
		assertThat(ClusterSlotHashUtil.calculateSlot(keys.fenceKey())).isEqualTo(slot);
		assertThat(ClusterSlotHashUtil.calculateSlot(keys.channel())).isEqualTo(slot);
	}

	@Test
	void differentLocksSpreadOverSlots() {
		assertThat(ClusterSlotHashUtil.calculateSlot(LockKeys.of("lock:", "order:1").lockKey()))
			.isNotEqualTo(ClusterSlotHashUtil.calculateSlot(LockKeys.of("lock:", "order:2").lockKey()));
	}

	@Test
	void namesKeysWithPrefixAndHashTag() {
		LockKeys keys = LockKeys.of("app:lock:", "order:42");
		assertThat(keys.lockKey()).isEqualTo("app:lock:{order:42}");
		assertThat(keys.fenceKey()).isEqualTo("app:lock:{order:42}:fence");
		assertThat(keys.channel()).isEqualTo("app:lock:{order:42}:released");
	}

	@Test
	void escapesBracesSoTheHashTagIsTheWholeKey() {
		assertThat(LockKeys.of("lock:", "}{").lockKey()).isEqualTo("lock:{\\)\\(}");
		assertThat(LockKeys.of("lock:", "a\\b").lockKey()).isEqualTo("lock:{a\\\\b}");
	}

	@Test
	void differentKeysNeverShareNames() {
		assertThat(LockKeys.of("lock:", "a}b").lockKey()).isNotEqualTo(LockKeys.of("lock:", "a\\)b").lockKey());
		assertThat(LockKeys.of("lock:", "a{b").lockKey()).isNotEqualTo(LockKeys.of("lock:", "a\\(b").lockKey());
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "\t" })
	void rejectsBlankKeys(String name) {
		assertThatIllegalArgumentException().isThrownBy(() -> LockKeys.of("lock:", name))
			.withMessageContaining("Lock key must not be null or blank");
	}

}
