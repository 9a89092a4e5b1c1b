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

import dev.distlock.core.LockClientSettings;
import org.junit.jupiter.api.Tag;

/**
 * The lock contract on a standalone Redis with the engine's uncontended fast path off
 * ({@link LockClientSettings#withUncontendedFastPath(boolean)}): every acquisition goes
 * through the acquisition machinery from its start, with the same outcomes.
 *
 * @author distlock
 */
@Tag("slow")
class RedisStandaloneWithoutFastPathContractTests extends RedisStandaloneLockStoreContractTests {

	@Override
	protected LockClientSettings clientSettings(LockClientSettings settings) {
		return settings.withUncontendedFastPath(false);
	}

}
