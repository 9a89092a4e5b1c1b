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

import dev.distlock.annotation.DistributedLock;
import dev.distlock.store.FairQueueExtension;
import dev.distlock.store.ForwardingLockStore;
import dev.distlock.jdbc.JdbcLockSchema;
import dev.distlock.jdbc.JdbcLockStore;
import dev.distlock.jdbc.JdbcLockStoreSettings;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;

import static dev.distlock.autoconfigure.DecoratedStoreStartup.assertStartupFails;

/**
 * An application that puts a decorator ({@link ForwardingLockStore}) over the JDBC store
 * keeps its startup refusal of a fair lock, which the store does not have.
 *
 * @author distlock
 */
class JdbcDecoratedStoreStartupTests {

	@Test
	void aDecoratedJdbcStoreStillRefusesAFairLock() {
		EmbeddedDatabase database = new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
			.generateUniqueName(true)
			.build();
		try {
			JdbcLockSchema.initialize(database, "distlock_decorated_lock");
			assertStartupFails(
					() -> new ForwardingLockStore(new JdbcLockStore(database,
							JdbcLockStoreSettings.builder().tableName("distlock_decorated_lock").build())),
					FairService.class, "@DistributedLock(fair = true)", FairQueueExtension.class);
		}
		finally {
			database.shutdown();
		}
	}

	static class FairService {

		@DistributedLock(key = "'order'", fair = true)
		public void place() {
		}

	}

}
