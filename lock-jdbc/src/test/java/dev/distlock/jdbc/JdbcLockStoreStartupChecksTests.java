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
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * What a {@link JdbcLockStore} checks when it is created: that its table (and sequence)
 * exists, naming the script that creates it, and that the table's key column holds the
 * longest key allowed.
 *
 * @author distlock
 */
class JdbcLockStoreStartupChecksTests {

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void aMissingTableFailsTheStoreNamingTheTableAndTheScript(TestDatabase database) {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(2)) {
			String table = "distlock_never_created";
			String script = JdbcLockSchema.scriptLocation(JdbcDialect.detect(pool));
			assertThat(script).startsWith("classpath:dev/distlock/jdbc/schema-");
			assertThat(JdbcLockStoreStartupChecksTests.class.getResource("/" + script.substring(10))).isNotNull();
			assertThatIllegalStateException()
				.isThrownBy(() -> new JdbcLockStore(pool, JdbcLockStoreSettings.builder().tableName(table).build()))
				.withMessageContaining("no table '" + table + "'")
				.withMessageContaining(script)
				.withMessageContaining("JdbcLockSchema.initialize");
		}
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = { "POSTGRESQL", "H2" })
	void aMissingSequenceFailsTheStoreNamingIt(TestDatabase database) throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(2)) {
			String table = "distlock_no_sequence_lock";
			JdbcLockSchema.initialize(pool, table);
			execute(pool, "DROP SEQUENCE " + table + "_fence_seq");
			try {
				assertThatIllegalStateException()
					.isThrownBy(() -> new JdbcLockStore(pool, JdbcLockStoreSettings.builder().tableName(table).build()))
					.withMessageContaining("no sequence '" + table + "_fence_seq'");
				try (Connection connection = pool.getConnection()) {
					assertThat(JdbcLockSchema.missing(connection, JdbcDialect.detect(pool), table))
						.isEqualTo(List.of("no sequence '" + table + "_fence_seq'"));
				}
			}
			finally {
				JdbcLockSchema.initialize(pool, table);
			}
		}
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void aLongestKeyAboveTheKeyColumnFailsTheStoreNamingTheSetting(TestDatabase database) {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(2)) {
			String table = "distlock_startup_lock";
			JdbcLockSchema.initialize(pool, table);
			assertThatIllegalArgumentException()
				.isThrownBy(() -> new JdbcLockStore(pool,
						JdbcLockStoreSettings.builder().tableName(table).maxKeyLength(1025).build()))
				.withMessageContaining("'maxKeyLength' must be at most 1024")
				.withMessageContaining(table);
			new JdbcLockStore(pool, JdbcLockStoreSettings.builder().tableName(table).maxKeyLength(1024).build())
				.close();
		}
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void aTableOfSchemaVersionOneFailsTheStoreNamingTheMigrationAndInitializeUpgradesIt(TestDatabase database)
			throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(2)) {
			String table = "distlock_version_one_lock";
			JdbcLockSchema.initialize(pool, table);
			// Version 1 had every column but waiters_until
			execute(pool, "ALTER TABLE " + table + " DROP COLUMN waiters_until");
			String migration = "classpath:dev/distlock/jdbc/"
					+ JdbcLockSchema.migrationResource(JdbcDialect.detect(pool), 2);
			assertThat(JdbcLockStoreStartupChecksTests.class.getResource("/" + migration.substring(10))).isNotNull();
			assertThatIllegalStateException()
				.isThrownBy(() -> new JdbcLockStore(pool, JdbcLockStoreSettings.builder().tableName(table).build()))
				.withMessageContaining("no column 'waiters_until'")
				.withMessageContaining("upgrade it to version 2 with the script " + migration)
				.withMessageContaining(", then to version 3 with the script " + migration.replace("/2/", "/3/"))
				.withMessageContaining("JdbcLockSchema.initialize");
			JdbcLockSchema.initialize(pool, table);
			try (Connection connection = pool.getConnection()) {
				assertThat(JdbcLockSchema.missing(connection, JdbcDialect.detect(pool), table)).isEmpty();
			}
			try (JdbcLockStore store = new JdbcLockStore(pool,
					JdbcLockStoreSettings.builder().tableName(table).build())) {
				assertThat(JdbcLockStoreTests.join(store.tryAcquire("upgraded", "owner", Duration.ofSeconds(5)))
					.acquired()).isTrue();
				assertThat(JdbcLockStoreTests.join(store.release("upgraded", "owner"))).isTrue();
			}
		}
	}

	private static void execute(HikariDataSource pool, String sql) throws Exception {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

}
