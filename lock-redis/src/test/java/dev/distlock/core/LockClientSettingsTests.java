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

package dev.distlock.core;

import dev.distlock.redis.RedisLockStore;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link LockClientSettings} and the key prefix of {@link RedisLockStore}.
 *
 * @author distlock
 */
class LockClientSettingsTests {

	@Test
	void defaultsMatchTheDocumentation() {
		LockClientSettings settings = LockClientSettings.defaults();
		assertThat(settings.closeTimeout()).isEqualTo(Duration.ofSeconds(5));
		assertThat(settings.renewalBatchSize()).isEqualTo(500);
		assertThat(settings.watchdogLease()).isEqualTo(Duration.ofSeconds(30));
		assertThat(settings.renewalInterval()).isEqualTo(Duration.ofSeconds(10));
		assertThat(settings.fairGrantTimeout()).isEqualTo(Duration.ofSeconds(2));
		assertThat(settings.cohortHandOffs()).isEqualTo(3);
		assertThat(settings.maxKeyLength()).isEqualTo(512);
		assertThat(settings.maxKeys()).isEqualTo(64);
		assertThat(settings.uncontendedFastPath()).isTrue();
	}

	@Test
	void keepsTheKeyLimitsWhenAnotherSettingChanges() {
		LockClientSettings settings = LockClientSettings.defaults().withMaxKeyLength(100).withMaxKeys(3);
		LockClientSettings changed = settings.withWatchdogLease(Duration.ofSeconds(9)).withCohortHandOffs(0);
		assertThat(changed.maxKeyLength()).isEqualTo(100);
		assertThat(changed.maxKeys()).isEqualTo(3);
	}

	@Test
	void switchesTheUncontendedFastPathAloneAndKeepsItWhenAnotherSettingChanges() {
		LockClientSettings off = LockClientSettings.defaults().withUncontendedFastPath(false);
		assertThat(off.uncontendedFastPath()).isFalse();
		assertThat(off.withUncontendedFastPath(true)).isEqualTo(LockClientSettings.defaults());
		assertThat(
				off.withWatchdogLease(Duration.ofSeconds(9)).withMaxHold(Duration.ofMinutes(1)).uncontendedFastPath())
			.isFalse();
	}

	@Test
	void fiveSettingsConstructorUsesTheDefaultKeyLimits() {
		LockClientSettings settings = new LockClientSettings(Duration.ofSeconds(30), Duration.ofSeconds(5), 500,
				Duration.ofSeconds(2), 3);
		assertThat(settings).isEqualTo(LockClientSettings.defaults());
	}

	@Test
	void rejectsNonPositiveKeyLimits() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockClientSettings.defaults().withMaxKeyLength(0))
			.withMessageContaining("'maxKeyLength'");
		assertThatIllegalArgumentException().isThrownBy(() -> LockClientSettings.defaults().withMaxKeys(0))
			.withMessageContaining("'maxKeys'");
	}

	@Test
	void rejectsNegativeCohortHandOffs() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockClientSettings.defaults().withCohortHandOffs(-1))
			.withMessageContaining("'cohortHandOffs'")
			.withMessageContaining("-1");
	}

	@Test
	void rejectsTooShortFairGrantTimeout() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LockClientSettings.defaults().withFairGrantTimeout(Duration.ofMillis(5)))
			.withMessageContaining("'fairGrantTimeout'")
			.withMessageContaining("PT0.005S");
	}

	@Test
	void rejectsHashTagBracesInThePrefix() {
		StringRedisTemplate redis = new StringRedisTemplate(new LettuceConnectionFactory());
		assertThatIllegalArgumentException().isThrownBy(() -> new RedisLockStore(redis, "a{b}:"))
			.withMessageContaining("'keyPrefix'")
			.withMessageContaining("a{b}:");
	}

	@Test
	void rejectsTooShortWatchdogLease() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LockClientSettings.defaults().withWatchdogLease(Duration.ofMillis(5)))
			.withMessageContaining("'watchdogLease'");
	}

	@Test
	void rejectsNonPositiveBatchSize() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockClientSettings.defaults().withRenewalBatchSize(0))
			.withMessageContaining("'renewalBatchSize'");
	}

}
