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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AsyncWaitersWorkload}'s naming of the threads started during a run.
 *
 * @author distlock
 * @since 0.1.0
 */
class AsyncWaitersWorkloadTests {

	private static final String HOLDER = "0a1b2c3d-1111-4111-8111-111111111111";

	private static final String WAITER = "9f8e7d6c-2222-4222-8222-222222222222";

	@Test
	void dropsTheTrailingNumberOfAPoolThread() {
		assertThat(AsyncWaitersWorkload.threadName("distlock-redis-command-12", HOLDER, WAITER))
			.isEqualTo("distlock-redis-command-*");
	}

	@Test
	void namesTheClientWhoseIdTheThreadCarries() {
		assertThat(AsyncWaitersWorkload.threadName("distlock-0a1b2c3d-callback-3", HOLDER, WAITER))
			.isEqualTo("distlock-holder-callback-*");
		assertThat(AsyncWaitersWorkload.threadName("distlock-9f8e7d6c-timer-1", HOLDER, WAITER))
			.isEqualTo("distlock-waiter-timer-*");
	}

	@Test
	void leavesOtherNamesAsTheyAre() {
		assertThat(AsyncWaitersWorkload.threadName("lettuce-nioEventLoop-4-2", HOLDER, WAITER))
			.isEqualTo("lettuce-nioEventLoop-4-*");
		assertThat(AsyncWaitersWorkload.threadName("Common-Cleaner", HOLDER, WAITER)).isEqualTo("Common-Cleaner");
	}

}
