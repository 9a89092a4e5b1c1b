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
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The updates of the lock table's rows on PostgreSQL, counted by the server's table
 * statistics: with no index on {@code expires_at} (schema version 3), which every acquire
 * and release writes, all of them are HOT updates, which add no index entries; with that
 * index (version 2) none can be.
 * <p>
 * A backend publishes its table statistics at the end of a transaction at most once a
 * second, and when it exits: the test closes the store's pool, then waits for the counts.
 *
 * @author distlock
 */
class JdbcLockStorePostgresHotUpdateTests {

	private static final String TABLE = "distlock_hot_lock";

	private static final int PAIRS = 50;

	/**
	 * The updates of a new key's first release and of {@link #PAIRS} acquires and
	 * releases after it: its first acquire inserts the row.
	 */
	private static final int UPDATES = 1 + 2 * PAIRS;

	private static final Duration LEASE = Duration.ofSeconds(30);

	@Test
	void uncontendedAcquiresAndReleasesOfAKeyWithARowAreHotUpdates() throws Exception {
		TestDatabase.POSTGRESQL.assumeAvailable();
		newTable(false);
		Updates updates = acquireAndRelease();
		assertThat(updates.hot()).as("HOT updates of %d", updates.all()).isEqualTo(updates.all());
	}

	@Test
	void withTheIndexOfSchemaVersionTwoTheyAreNot() throws Exception {
		TestDatabase.POSTGRESQL.assumeAvailable();
		newTable(true);
		Updates updates = acquireAndRelease();
		assertThat(updates.hot()).as("HOT updates of %d", updates.all()).isLessThan(updates.all() / 2);
	}

	/**
	 * Create the table anew, so that its statistics start at zero, with the index of
	 * version 2 or without.
	 */
	private static void newTable(boolean withIndex) throws Exception {
		try (HikariDataSource pool = TestDatabase.POSTGRESQL.pool(1)) {
			execute(pool, "DROP TABLE IF EXISTS " + TABLE);
			JdbcLockSchema.initialize(pool, TABLE);
			if (withIndex) {
				execute(pool, "CREATE INDEX " + TABLE + "_expires_idx ON " + TABLE + " (expires_at)");
			}
		}
	}

	/**
	 * Take and release a new key, then {@link #PAIRS} times more, close the store and its
	 * pool, and return the table's update counts once they show all {@link #UPDATES}.
	 */
	private static Updates acquireAndRelease() throws Exception {
		try (HikariDataSource pool = TestDatabase.POSTGRESQL.pool(4)) {
			try (JdbcLockStore store = new JdbcLockStore(pool,
					JdbcLockStoreSettings.builder().tableName(TABLE).build())) {
				for (int i = 0; i <= PAIRS; i++) {
					assertThat(JdbcLockStoreTests.join(store.tryAcquire("hot", "owner:" + i, LEASE)).acquired())
						.isTrue();
					assertThat(JdbcLockStoreTests.join(store.release("hot", "owner:" + i))).isTrue();
				}
			}
		}
		try (HikariDataSource pool = TestDatabase.POSTGRESQL.pool(1)) {
			return await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(200))
				.until(() -> updates(pool), (updates) -> updates.all() >= UPDATES);
		}
	}

	private static Updates updates(HikariDataSource pool) throws Exception {
		try (Connection connection = pool.getConnection();
				Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery("SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables "
						+ "WHERE relid = to_regclass('" + TABLE + "')")) {
			return rows.next() ? new Updates(rows.getLong(1), rows.getLong(2)) : new Updates(0, 0);
		}
	}

	private static void execute(HikariDataSource pool, String sql) throws Exception {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

	private record Updates(long all, long hot) {
	}

}
