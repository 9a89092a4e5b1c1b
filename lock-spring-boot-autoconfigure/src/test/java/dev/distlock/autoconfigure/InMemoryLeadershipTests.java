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

package dev.distlock.autoconfigure;

import dev.distlock.memory.InMemoryLockStore;
import org.junit.jupiter.api.AfterEach;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@link LeadershipScenarios Leadership} on the in-memory store: both instances share one
 * {@link InMemoryLockStore}, as two applications in one JVM would.
 *
 * @author distlock
 */
class InMemoryLeadershipTests extends LeadershipScenarios {

	private final InMemoryLockStore store = new InMemoryLockStore();

	@AfterEach
	void closeStore() {
		this.store.close();
	}

	@Override
	ApplicationContextRunner onStore(ApplicationContextRunner runner) {
		return runner.withBean(CutOffLockStore.class, () -> new CutOffLockStore(this.store, false));
	}

}
