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

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The migration of the lock table to schema version 3, which dropped the index on
 * {@code expires_at}, on each database: the shipped script, run as a user's migration
 * tool would, and {@link JdbcLockSchema#initialize} bring a table of version 2 (or 1) to
 * version 3, and run again change nothing; the store works on a table that keeps the
 * index.
 *
 * @author distlock
 */
class JdbcLockSchemaMigrationTests {

	private static final Duration LEASE = Duration.ofSeconds(30);

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void theMigrationScriptDropsTheIndexOfATableOfVersionTwoAndRunsTwice(TestDatabase database) throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(4)) {
			String table = "distlock_migration_script_lock";
			versionTwo(pool, table);
			List<String> migration = JdbcLockSchema.statements(migration(JdbcDialect.detect(pool), table));
			for (int run = 1; run <= 2; run++) {
				try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
					for (String sql : migration) {
						statement.execute(sql);
					}
				}
				assertThat(indexes(pool, table)).as("run %d", run).doesNotContain(table + "_expires_idx");
			}
			assertCurrentAndWorking(pool, table);
		}
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void initializeDropsTheIndexOfATableOfVersionTwoAndRunsAgainUnchanged(TestDatabase database) throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(4)) {
			String table = "distlock_version_two_lock";
			versionTwo(pool, table);
			// A table that the application's own migrations manage keeps working with the
			// index
			assertCurrentAndWorking(pool, table);
			assertThat(indexes(pool, table)).contains(table + "_expires_idx");
			JdbcLockSchema.initialize(pool, table);
			assertThat(indexes(pool, table)).doesNotContain(table + "_expires_idx");
			List<String> after = indexes(pool, table);
			JdbcLockSchema.initialize(pool, table);
			assertThat(indexes(pool, table)).isEqualTo(after);
			assertCurrentAndWorking(pool, table);
		}
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void initializeBringsATableOfVersionOneToTheCurrentVersion(TestDatabase database) throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(4)) {
			String table = "distlock_version_one_index_lock";
			versionTwo(pool, table);
			// Version 1 had every column but waiters_until, and the index
			execute(pool, "ALTER TABLE " + table + " DROP COLUMN waiters_until");
			JdbcLockSchema.initialize(pool, table);
			assertThat(indexes(pool, table)).doesNotContain(table + "_expires_idx");
			assertCurrentAndWorking(pool, table);
		}
	}

	/**
	 * Leave a table of schema version 2 named {@code table}: the current one with the
	 * index version 3 dropped.
	 */
	private static void versionTwo(HikariDataSource pool, String table) throws Exception {
		JdbcLockSchema.initialize(pool, table);
		assertThat(indexes(pool, table)).doesNotContain(table + "_expires_idx");
		execute(pool, "CREATE INDEX " + table + "_expires_idx ON " + table + " (expires_at)");
		assertThat(indexes(pool, table)).contains(table + "_expires_idx");
	}

	private static void assertCurrentAndWorking(HikariDataSource pool, String table) throws Exception {
		try (Connection connection = pool.getConnection()) {
			assertThat(JdbcLockSchema.missing(connection, JdbcDialect.detect(pool), table)).isEmpty();
		}
		try (JdbcLockStore store = new JdbcLockStore(pool, JdbcLockStoreSettings.builder().tableName(table).build())) {
			assertThat(JdbcLockStoreTests.join(store.tryAcquire("migrated", "owner", LEASE)).acquired()).isTrue();
			assertThat(JdbcLockStoreTests.join(store.release("migrated", "owner"))).isTrue();
		}
	}

	private static String migration(JdbcDialect dialect, String table) throws IOException {
		String resource = JdbcLockSchema.migrationResource(dialect, 3);
		try (InputStream in = JdbcLockSchema.class.getResourceAsStream(resource)) {
			assertThat(in).as(resource).isNotNull();
			return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("distlock_lock", table);
		}
	}

	/**
	 * Return the names, in lower case, of the indexes of {@code table}.
	 */
	private static List<String> indexes(HikariDataSource pool, String table) throws Exception {
		List<String> names = new ArrayList<>();
		try (Connection connection = pool.getConnection()) {
			DatabaseMetaData metaData = connection.getMetaData();
			String name = metaData.storesUpperCaseIdentifiers() ? table.toUpperCase(Locale.ROOT) : table;
			try (ResultSet rows = metaData.getIndexInfo(connection.getCatalog(), null, name, false, false)) {
				while (rows.next()) {
					String index = rows.getString("INDEX_NAME");
					if (index != null && !names.contains(index.toLowerCase(Locale.ROOT))) {
						names.add(index.toLowerCase(Locale.ROOT));
					}
				}
			}
		}
		return names;
	}

	private static void execute(HikariDataSource pool, String sql) throws Exception {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

}
