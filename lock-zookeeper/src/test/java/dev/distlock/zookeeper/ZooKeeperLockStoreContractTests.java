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

package dev.distlock.zookeeper;

import dev.distlock.store.LockStore;
import dev.distlock.store.test.LockStoreContractTests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The whole contract kit, both levels, on {@link ZooKeeperLockStore} over a three-server
 * ensemble started in-process: each store has a client and a session of its own, as
 * application instances would. The fixed-lease cases are skipped by the SPI's own rule
 * (the store implements {@code SessionLeaseExtension}), as are the groups of the
 * extensions the store does not implement.
 *
 * @author distlock
 */
class ZooKeeperLockStoreContractTests extends LockStoreContractTests {

	private static TestEnsemble ensemble;

	@BeforeAll
	static void startEnsemble() throws Exception {
		ensemble = new TestEnsemble();
	}

	@AfterAll
	static void stopEnsemble() throws Exception {
		ensemble.close();
	}

	@Override
	@AfterEach
	protected void closeClients() {
		super.closeClients();
		ensemble.closeClients();
	}

	@Override
	protected LockStore newStore() {
		return ensemble.newStore();
	}

	@Override
	protected boolean isLocked(String key) {
		return ensemble.isLocked(key);
	}

	@Override
	protected void takeOver(String key) {
		ensemble.giveToForeignOwner(key);
	}

	@Override
	protected void expire(String key) {
		ensemble.deleteGrants(key);
	}

}
