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
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.InspectionExtension.KeyState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the {@link JdbcLockStore} promises beyond the contract kit, on each database: keys
 * compared byte for byte, fencing tokens that keep rising after a row's deletion and in a
 * new store, the cleanup of rows of locks that ended long ago in bounded batches, and a
 * schema that two instances can create at once.
 *
 * @author distlock
 */
class JdbcLockStoreTests {

	private static final String TABLE = "distlock_store_lock";

	private static final Duration LEASE = Duration.ofSeconds(30);

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void keysCompareByteForByte(TestDatabase database) throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(4); JdbcLockStore store = store(pool)) {
			String tag = UUID.randomUUID().toString();
			List<String> keys = List.of("Order:1:" + tag, "order:1:" + tag, "order:1:" + tag + " ", "ordre:1:é:" + tag,
					"ordre:1:e\u0301:" + tag);
			for (String key : keys) {
				assertThat(join(store.tryAcquire(key, "owner:" + key.hashCode(), LEASE)).acquired()).as(key).isTrue();
			}
			for (String key : keys) {
				assertThat(join(store.inspect(key)).ownerToken()).isEqualTo("owner:" + key.hashCode());
				assertThat(join(store.release(key, "owner:" + key.hashCode()))).isTrue();
			}
		}
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void fencingTokensRiseAcrossReleasesRowDeletionAndANewStore(TestDatabase database) throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(4)) {
			String key = "fencing:" + UUID.randomUUID();
			long first;
			long second;
			try (JdbcLockStore store = store(pool)) {
				first = join(store.tryAcquire(key, "owner:1", LEASE)).fencingToken();
				join(store.release(key, "owner:1"));
				second = join(store.tryAcquire(key, "owner:2", LEASE)).fencingToken();
				join(store.release(key, "owner:2"));
			}
			// The cleanup deletes a row whose lease ended long ago: as it would
			execute(pool, "DELETE FROM " + TABLE + " WHERE lock_key = '" + key + "'");
			try (JdbcLockStore store = store(pool)) {
				long third = join(store.tryAcquire(key, "owner:3", LEASE)).fencingToken();
				assertThat(first).isPositive();
				assertThat(second).isGreaterThan(first);
				assertThat(third).isGreaterThan(second);
				join(store.release(key, "owner:3"));
			}
		}
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void theCleanupDeletesRowsThatEndedLongAgoInBoundedBatchesAndKeepsTheOthers(TestDatabase database)
			throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(4)) {
			String table = "distlock_cleanup_lock";
			JdbcLockSchema.initialize(pool, table);
			execute(pool, "DELETE FROM " + table);
			String now = JdbcDialect.detect(pool).nowMillis();
			for (int i = 0; i < 7; i++) {
				execute(pool, "INSERT INTO " + table + " (" + LockStatements.COLUMNS + ") VALUES ('crashed:" + i
						+ "', 'gone:" + i + "', FALSE, " + now + " - 120000, " + (i + 1) + ")");
			}
			try (JdbcLockStore store = new JdbcLockStore(pool,
					JdbcLockStoreSettings.builder().tableName(table).cleanupBatchSize(3).build())) {
				join(store.tryAcquire("live", "owner:1", LEASE));
				join(store.tryAcquire("released", "owner:2", LEASE));
				join(store.release("released", "owner:2"));
				assertThat(join(store.cleanUp())).isEqualTo(7);
				assertThat(join(store.inspect("live")).ownerToken()).isEqualTo("owner:1");
				// A row released just now stays, with its fencing token
				assertThat(join(store.inspect("released")).lastFencingToken()).isPositive();
				assertThat(join(store.inspect("crashed:0")).lastFencingToken()).isZero();
				assertThat(join(store.cleanUp())).isZero();
			}
		}
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void instancesCreateTheSchemaAtOnce(TestDatabase database) throws Exception {
		database.assumeAvailable();
		ExecutorService instancesStarting = Executors.newFixedThreadPool(4);
		try (HikariDataSource pool = database.pool(4)) {
			String table = "distlock_schema_lock";
			for (int round = 0; round < 10; round++) {
				execute(pool, "DROP TABLE IF EXISTS " + table);
				if (JdbcDialect.detect(pool).hasSequence()) {
					execute(pool, "DROP SEQUENCE IF EXISTS " + table + "_fence_seq");
				}
				CyclicBarrier together = new CyclicBarrier(4);
				CompletableFuture<?>[] instances = new CompletableFuture<?>[4];
				for (int i = 0; i < instances.length; i++) {
					instances[i] = CompletableFuture.runAsync(() -> {
						await(together);
						JdbcLockSchema.initialize(pool, table);
					}, instancesStarting);
				}
				CompletableFuture.allOf(instances).get(30, TimeUnit.SECONDS);
			}
			JdbcLockSchema.initialize(pool, table);
			try (JdbcLockStore store = new JdbcLockStore(pool,
					JdbcLockStoreSettings.builder().tableName(table).build())) {
				Attempt attempt = join(store.tryAcquire("schema", "owner:1", LEASE));
				assertThat(attempt.acquired()).isTrue();
				KeyState state = join(store.inspect("schema"));
				assertThat(state.lastFencingToken()).isEqualTo(attempt.fencingToken());
			}
		}
		finally {
			instancesStarting.shutdownNow();
		}
	}

	private static JdbcLockStore store(HikariDataSource pool) {
		JdbcLockSchema.initialize(pool, TABLE);
		return new JdbcLockStore(pool, JdbcLockStoreSettings.builder().tableName(TABLE).build());
	}

	static void execute(javax.sql.DataSource dataSource, String sql) throws SQLException {
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

	private static void await(CyclicBarrier barrier) {
		try {
			barrier.await(10, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	static <T> T join(CompletionStage<T> stage) {
		return stage.toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).join();
	}

}
