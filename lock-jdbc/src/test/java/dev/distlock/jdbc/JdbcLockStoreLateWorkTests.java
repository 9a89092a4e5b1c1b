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
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.LockBackendException;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.LockStore.Subscription;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Work of a {@link JdbcLockStore} that outlives its caller or its round: an acquisition
 * granted after its caller gave up is released at once, the poller runs on the store's
 * executor rather than its timer, and a cleanup round goes on while its batches come back
 * full, warning when the rows of ended locks pile up.
 *
 * @author distlock
 */
@ExtendWith(OutputCaptureExtension.class)
class JdbcLockStoreLateWorkTests {

	private static final String TABLE = "distlock_late_work_lock";

	private static final Duration LEASE = Duration.ofSeconds(30);

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = { "POSTGRESQL", "MARIADB" })
	void anAcquisitionGrantedAfterItsCallerGaveUpIsReleasedAtOnce(TestDatabase database) throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(4)) {
			JdbcLockSchema.initialize(pool, TABLE);
			// The stage gives up after 1.05 s; the statement's own timeout is 2 s
			JdbcLockStoreSettings settings = JdbcLockStoreSettings.builder()
				.tableName(TABLE)
				.commandTimeout(Duration.ofMillis(1050))
				.build();
			try (JdbcLockStore store = new JdbcLockStore(pool, settings)) {
				String key = "late:" + UUID.randomUUID();
				JdbcLockStoreTests.join(store.tryAcquire(key, "earlier", LEASE));
				JdbcLockStoreTests.join(store.release(key, "earlier"));
				try (Connection blocker = pool.getConnection()) {
					blocker.setAutoCommit(false);
					lockRow(blocker, key);
					CompletableFuture<Attempt> late = store.tryAcquire(key, "late", LEASE).toCompletableFuture();
					await().atMost(5, TimeUnit.SECONDS).until(late::isDone);
					assertThat(late).isCompletedExceptionally();
					assertThat(late.handle((attempt, failure) -> failure.getCause()).join())
						.isInstanceOf(LockBackendException.class);
					// The acquisition still waits for the row; it gets it now
					blocker.commit();
				}
				// Granted after its stage failed, and released at once, long before its
				// lease: the row is the late owner's, released
				await().atMost(5, TimeUnit.SECONDS).until(() -> "late released".equals(rowOf(pool, key)));
				assertThat(JdbcLockStoreTests.join(store.tryAcquire(key, "next", LEASE)).acquired()).isTrue();
				JdbcLockStoreTests.join(store.release(key, "next"));
			}
		}
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = { "MARIADB", "H2" })
	void thePollerRunsOnTheStoresExecutorNotItsTimer(TestDatabase database) throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(4)) {
			JdbcLockSchema.initialize(pool, TABLE);
			try (JdbcLockStore holder = new JdbcLockStore(pool,
					JdbcLockStoreSettings.builder().tableName(TABLE).build());
					JdbcLockStore waiter = new JdbcLockStore(pool,
							JdbcLockStoreSettings.builder().tableName(TABLE).build())) {
				String key = "poll:" + UUID.randomUUID();
				JdbcLockStoreTests.join(holder.tryAcquire(key, "holder", LEASE));
				AtomicReference<String> heardOn = new AtomicReference<>();
				Subscription subscription = waiter.onRelease(key,
						() -> heardOn.compareAndSet(null, Thread.currentThread().getName()));
				JdbcLockStoreTests.join(holder.release(key, "holder"));
				await().atMost(5, TimeUnit.SECONDS).until(() -> heardOn.get() != null);
				subscription.close();
				assertThat(heardOn.get()).startsWith("distlock-jdbc-").doesNotContain("timer");
			}
		}
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void aCleanupRoundGoesOnWhileBatchesComeBackFullAndWarnsWhenEndedRowsPileUp(TestDatabase database,
			CapturedOutput output) throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(4)) {
			String table = "distlock_backlog_lock";
			JdbcLockSchema.initialize(pool, table);
			execute(pool, "DELETE FROM " + table);
			String now = JdbcDialect.detect(pool).nowMillis();
			int rows = 2 * (LockTableCleanup.STATEMENTS_BEFORE_WARNING + 2) + 1;
			for (int i = 0; i < rows; i++) {
				execute(pool, "INSERT INTO " + table + " (" + LockStatements.COLUMNS + ") VALUES ('ended:" + i
						+ "', 'gone:" + i + "', FALSE, " + now + " - 120000, " + (i + 1) + ")");
			}
			try (JdbcLockStore store = new JdbcLockStore(pool,
					JdbcLockStoreSettings.builder().tableName(table).cleanupBatchSize(2).build())) {
				// Past the old ceiling of ten statements a round
				assertThat(JdbcLockStoreTests.join(store.cleanUp())).isEqualTo(rows);
				assertThat(output).contains("The JDBC lock store deleted " + rows + " rows of ended locks in "
						+ (rows / 2 + 1) + " statements");
				assertThat(output).contains("distlock.jdbc.cleanup-batch-size");
				assertThat(JdbcLockStoreTests.join(store.cleanUp())).isZero();
			}
		}
	}

	private static void lockRow(Connection connection, String key) throws Exception {
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT lock_key FROM " + TABLE + " WHERE lock_key = ? FOR UPDATE")) {
			statement.setString(1, key);
			statement.executeQuery().close();
		}
	}

	private static String rowOf(HikariDataSource pool, String key) throws Exception {
		try (Connection connection = pool.getConnection();
				PreparedStatement statement = connection
					.prepareStatement("SELECT owner_token, released FROM " + TABLE + " WHERE lock_key = ?")) {
			statement.setString(1, key);
			try (ResultSet rows = statement.executeQuery()) {
				return rows.next() ? rows.getString(1) + (rows.getBoolean(2) ? " released" : " held") : "none";
			}
		}
	}

	private static void execute(HikariDataSource pool, String sql) throws Exception {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

}
