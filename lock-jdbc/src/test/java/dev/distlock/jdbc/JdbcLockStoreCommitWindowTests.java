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

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.LockLostException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockHold;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The commit window: a locked method's transaction commits while its lock expires and
 * another instance takes it over at that very moment. The before-commit ownership check
 * (what {@code @DistributedLock} registers around {@code @Transactional}: the hold's
 * {@link LockHold#confirmOwnership()} in {@code beforeCommit}) runs on the transaction's
 * own connection and locks the lock's row, so the takeover waits for the commit: the
 * other instance never holds the lock while the first one's work is still to commit. A
 * slow flush after the check (150 ms) widens the window; the control run, whose store is
 * on another {@code DataSource} than the transaction, shows the same scenario does lose.
 *
 * @author distlock
 */
class JdbcLockStoreCommitWindowTests {

	private static final String TABLE = "distlock_cw_lock";

	private static final String LEDGER = "distlock_cw_ledger";

	private static final Duration LEASE = Duration.ofMillis(400);

	private static final Duration SLOW_FLUSH = Duration.ofMillis(150);

	@ParameterizedTest
	@EnumSource(names = { "POSTGRESQL", "MARIADB" })
	void noTransactionCommitsAfterItsLockWasTakenOver(TestDatabase database) throws Exception {
		database.assumeAvailable();
		try (HikariDataSource application = database.pool(4); HikariDataSource other = database.pool(4)) {
			Outcomes outcomes = run(application, application, other, 40);
			System.out.println(database + ", the check on the transaction's connection: " + outcomes);
			assertThat(outcomes.committedAfterLoss).as("committed after the lock was lost, of %s", outcomes).isZero();
			assertThat(outcomes.committed).as("committed in time, of %s", outcomes).isPositive();
			assertThat(outcomes.rolledBack).as("rolled back because the lock was lost, of %s", outcomes).isPositive();
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "POSTGRESQL", "MARIADB" })
	void aCheckOutsideTheTransactionLetsTheSameScenarioCommitAfterLoss(TestDatabase database) throws Exception {
		database.assumeAvailable();
		try (HikariDataSource application = database.pool(4);
				HikariDataSource storesOwn = database.pool(4);
				HikariDataSource other = database.pool(4)) {
			Outcomes outcomes = run(application, storesOwn, other, 16);
			System.out.println(database + ", the check outside the transaction: " + outcomes);
			assertThat(outcomes.committedAfterLoss).as("committed after the lock was lost, of %s", outcomes)
				.isPositive();
		}
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void aReadOnlyTransactionHasItsOwnershipConfirmedOutsideIt(TestDatabase database) throws Exception {
		database.assumeAvailable();
		try (HikariDataSource application = database.pool(4)) {
			JdbcLockSchema.initialize(application, TABLE);
			execute(application, "CREATE TABLE IF NOT EXISTS " + LEDGER + " (run_id VARCHAR(64) PRIMARY KEY)");
			TransactionTemplate readOnly = new TransactionTemplate(new DataSourceTransactionManager(application));
			readOnly.setReadOnly(true);
			try (JdbcLockStore store = new JdbcLockStore(application,
					JdbcLockStoreSettings.builder().tableName(TABLE).build());
					DefaultLockClient client = new DefaultLockClient(store)) {
				LockHold hold = client.acquire("read-only:" + UUID.randomUUID(), Duration.ZERO, null);
				// A locking read would fail in a read-only transaction of PostgreSQL
				readOnly.executeWithoutResult((status) -> {
					TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
						@Override
						public void beforeCommit(boolean readOnly) {
							hold.confirmOwnership();
						}
					});
					assertThat(exists(application, "no-such-run")).isFalse();
				});
				assertThat(hold.isValid()).isTrue();
				hold.release();
			}
		}
	}

	/**
	 * Run the scenario {@code runs} times: the transaction on {@code application}, the
	 * holder's store on {@code holderStoreDataSource}, the other instance on
	 * {@code other}.
	 */
	private Outcomes run(DataSource application, DataSource holderStoreDataSource, DataSource other, int runs)
			throws Exception {
		JdbcLockSchema.initialize(application, TABLE);
		execute(application, "CREATE TABLE IF NOT EXISTS " + LEDGER + " (run_id VARCHAR(64) PRIMARY KEY)");
		JdbcLockStoreSettings settings = JdbcLockStoreSettings.builder().tableName(TABLE).build();
		TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(application));
		Outcomes outcomes = new Outcomes();
		try (JdbcLockStore holderStore = new JdbcLockStore(holderStoreDataSource, settings);
				JdbcLockStore otherStore = new JdbcLockStore(other, settings);
				DefaultLockClient holder = new DefaultLockClient(holderStore)) {
			for (int i = 0; i < runs; i++) {
				String key = "commit-window:" + UUID.randomUUID();
				String runId = UUID.randomUUID().toString();
				LockHold hold = holder.acquire(key, Duration.ZERO, LEASE);
				CompletableFuture<Boolean> takeOver = CompletableFuture.supplyAsync(() -> Takeover
					.takeOverAndSeeCommit(otherStore, key, "other:" + runId, () -> exists(other, runId)));
				boolean committed = commit(transactions, application, hold, runId);
				boolean sawCommit = takeOver.get(10, TimeUnit.SECONDS);
				outcomes.record(committed, sawCommit);
				otherStore.release(key, "other:" + runId).toCompletableFuture().get(5, TimeUnit.SECONDS);
			}
		}
		return outcomes;
	}

	/**
	 * Insert the run's row in a transaction on the application's DataSource and commit
	 * near the end of the lease, with the ownership check and a slow flush before the
	 * commit; return whether it committed.
	 */
	private boolean commit(TransactionTemplate transactions, DataSource application, LockHold hold, String runId) {
		try {
			transactions.executeWithoutResult((status) -> {
				TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
					@Override
					public void beforeCommit(boolean readOnly) {
						hold.confirmOwnership();
					}
				});
				TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
					@Override
					public void beforeCommit(boolean readOnly) {
						sleep(SLOW_FLUSH.toMillis());
					}
				});
				Connection connection = DataSourceUtils.getConnection(application);
				try {
					execute(connection, "INSERT INTO " + LEDGER + " (run_id) VALUES ('" + runId + "')");
				}
				finally {
					DataSourceUtils.releaseConnection(connection, application);
				}
				long aroundTheEnd = LEASE.toMillis() - 60 + ThreadLocalRandom.current().nextLong(90);
				sleep(aroundTheEnd);
			});
			return true;
		}
		catch (LockLostException ex) {
			return false;
		}
	}

	private static boolean exists(DataSource dataSource, String runId) {
		try (Connection connection = dataSource.getConnection();
				PreparedStatement statement = connection
					.prepareStatement("SELECT 1 FROM " + LEDGER + " WHERE run_id = ?")) {
			statement.setString(1, runId);
			try (ResultSet rows = statement.executeQuery()) {
				return rows.next();
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static void execute(DataSource dataSource, String sql) throws SQLException {
		try (Connection connection = dataSource.getConnection()) {
			execute(connection, sql);
		}
	}

	private static void execute(Connection connection, String sql) {
		try (Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * What became of the runs.
	 */
	private static final class Outcomes {

		int committed;

		int rolledBack;

		int committedAfterLoss;

		void record(boolean committed, boolean sawCommit) {
			if (!committed) {
				this.rolledBack++;
			}
			else if (sawCommit) {
				this.committed++;
			}
			else {
				this.committedAfterLoss++;
			}
		}

		@Override
		public String toString() {
			return "%d committed in time, %d rolled back, %d committed after loss".formatted(this.committed,
					this.rolledBack, this.committedAfterLoss);
		}

	}

}
