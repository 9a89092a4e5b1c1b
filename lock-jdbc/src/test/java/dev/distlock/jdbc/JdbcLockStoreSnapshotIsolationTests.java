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

package dev.distlock.jdbc;

import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionException;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.LockBackendException;
import dev.distlock.store.LockStore.Renewal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The before-commit ownership check inside a PostgreSQL transaction above READ COMMITTED:
 * a renewal committed after the transaction's snapshot makes the check's row lock fail
 * with a serialization failure, so the transaction fails closed. A transaction longer
 * than one renewal interval always meets such a renewal. At READ COMMITTED the same check
 * answers that the caller still owns the lock.
 *
 * @author distlock
 */
class JdbcLockStoreSnapshotIsolationTests {

	private static final String TABLE = "distlock_snapshot_lock";

	private static final Duration LEASE = Duration.ofSeconds(30);

	@ParameterizedTest
	@ValueSource(ints = { TransactionDefinition.ISOLATION_READ_COMMITTED,
			TransactionDefinition.ISOLATION_REPEATABLE_READ, TransactionDefinition.ISOLATION_SERIALIZABLE })
	void aRenewalCommittedDuringATransactionFailsTheCheckAboveReadCommitted(int isolation) {
		TestDatabase database = TestDatabase.POSTGRESQL;
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(4)) {
			JdbcLockSchema.initialize(pool, TABLE);
			try (JdbcLockStore store = new JdbcLockStore(pool,
					JdbcLockStoreSettings.builder().tableName(TABLE).build())) {
				String key = "snapshot:" + UUID.randomUUID();
				assertThat(JdbcLockStoreTests.join(store.tryAcquire(key, "owner", LEASE)).acquired()).isTrue();
				TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(pool));
				transaction.setIsolationLevel(isolation);
				Object outcome = transaction.execute((status) -> {
					// The transaction's snapshot is taken by its first statement
					try (Statement statement = DataSourceUtils.getConnection(pool).createStatement()) {
						statement.execute("SELECT 1");
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
					// The watchdog renews once per renewal interval, on a connection of
					// its
					// own
					JdbcLockStoreTests.join(store.renew(List.of(new Renewal(key, "owner")), LEASE));
					try {
						return store.isOwner(key, "owner").toCompletableFuture().join();
					}
					catch (CompletionException ex) {
						status.setRollbackOnly();
						return ex.getCause();
					}
				});
				if (isolation == TransactionDefinition.ISOLATION_READ_COMMITTED) {
					assertThat(outcome).isEqualTo(true);
				}
				else {
					assertThat(outcome).isInstanceOf(LockBackendException.class);
					assertThat(((Throwable) outcome)).rootCause().hasMessageContaining("could not serialize access");
				}
				JdbcLockStoreTests.join(store.release(key, "owner"));
			}
		}
	}

}
