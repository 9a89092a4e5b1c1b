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

package dev.distlock.memory;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The in-memory store's grants keep nothing of a key once its grant is gone, while its
 * fencing tokens still rise per key.
 *
 * @author distlock
 */
class InMemoryGrantsTests {

	private final InMemoryGrants grants = new InMemoryGrants();

	@Test
	void keepsNothingOfAKeyOnceItsGrantIsGone() {
		for (int i = 0; i < 10_000; i++) {
			this.grants.grant("order:" + i, "token", Duration.ofMinutes(1));
			this.grants.remove("order:" + i);
		}
		assertThat(this.grants.keysKept()).isZero();
	}

	@Test
	void fencingTokensRisePerKeyAcrossReleasesAndOtherKeys() {
		long first = this.grants.grant("a", "one", Duration.ofMinutes(1));
		this.grants.remove("a");
		this.grants.grant("b", "two", Duration.ofMinutes(1));
		long second = this.grants.grant("a", "three", Duration.ofMinutes(1));
		assertThat(second).isGreaterThan(first);
		assertThat(this.grants.lastFence("a")).isEqualTo(second);
	}

	@Test
	void anExtensionKeepsTheGrantsFencingToken() {
		long fence = this.grants.grant("a", "one", Duration.ofMinutes(1));
		this.grants.extend("a", "one", Duration.ofMinutes(2));
		assertThat(this.grants.lastFence("a")).isEqualTo(fence);
	}

	@Test
	void aFreeKeyHasNoFencingToken() {
		this.grants.grant("a", "one", Duration.ofMinutes(1));
		this.grants.remove("a");
		assertThat(this.grants.lastFence("a")).isZero();
	}

}
