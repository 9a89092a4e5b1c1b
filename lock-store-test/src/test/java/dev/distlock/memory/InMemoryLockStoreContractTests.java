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

import dev.distlock.store.LockStore;
import dev.distlock.test.TestLockStore;
import dev.distlock.store.test.LockStoreContractTests;

/**
 * The lock contract on the in-memory store ({@link InMemoryLockStore}, through the kit's
 * {@link TestLockStore}, which adds only the controls the hooks need): the fast run of
 * the suite, and the proof that a backend needs nothing but the {@link LockStore}
 * methods. Every client shares one store, as they would share one backend.
 *
 * @author distlock
 */
class InMemoryLockStoreContractTests extends LockStoreContractTests {

	private final TestLockStore store = new TestLockStore();

	@Override
	protected boolean fairWakeUpsCarryGrants() {
		return true;
	}

	@Override
	protected LockStore newStore() {
		return this.store;
	}

	@Override
	protected boolean isLocked(String key) {
		return this.store.isLocked(key);
	}

	@Override
	protected void takeOver(String key) {
		this.store.takeOver(key, "someone-else");
	}

	@Override
	protected void expire(String key) {
		this.store.expire(key);
	}

	@Override
	protected boolean canBeMadeUnreachable() {
		return true;
	}

	@Override
	protected void setUnreachable(boolean unreachable) {
		this.store.setUnreachable(unreachable);
	}

}
