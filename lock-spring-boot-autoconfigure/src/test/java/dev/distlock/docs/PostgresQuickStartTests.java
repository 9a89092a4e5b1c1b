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

package dev.distlock.docs;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import dev.distlock.testing.BackendVersions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The README's quick start on PostgreSQL: an application with exactly the README's
 * properties (its own table name aside, as other tests share the database) creates the
 * lock table, holds the lock of a first call as the row the README's {@code psql} query
 * shows, and refuses a second call with the README's message. Skipped, with the reason,
 * when no PostgreSQL answers at the README's URL.
 *
 * @author distlock
 */
class PostgresQuickStartTests {

	private final ReadmeQuickStart quickStart = ReadmeQuickStart.of("postgresql");

	private final String table = "distlock_qs_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	@Test
	void theReadmesPropertiesCreateTheTableAndLockAndTheReadmesQueryShowsTheHeldRow() {
		Map<String, String> properties = this.quickStart.properties();
		assertThat(properties).containsEntry("distlock.jdbc.initialize-schema", "always");
		assumeTrue(answers(properties), () -> "No PostgreSQL answers at " + properties.get("spring.datasource.url"));
		QuickStartApplication
			.runner("dev.distlock.jdbc", QuickStartApplication.DATA_SOURCE, properties,
					Map.of("distlock.jdbc.table-name", this.table))
			.run((context) -> QuickStartOrders.seeTheLockWork(context, this.quickStart, () -> {
				JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
				assertThat(jdbc.queryForList(query())).extracting((row) -> row.get("lock_key"))
					.containsExactly("order:1");
			}));
	}

	/**
	 * Return the README's {@code psql} query on this test's table, its first column the
	 * lock key.
	 */
	private String query() {
		String command = this.quickStart.check();
		assertThat(command).startsWith("psql ").contains(" -c \"").endsWith("\"");
		String sql = command.substring(command.indexOf(" -c \"") + 5, command.length() - 1);
		assertThat(sql).startsWith("SELECT lock_key").contains("distlock_lock");
		return sql.replace("distlock_lock", this.table);
	}

	@AfterEach
	void dropTable() throws SQLException {
		Map<String, String> properties = this.quickStart.properties();
		if (!answers(properties)) {
			return;
		}
		try (Connection connection = connect(properties); Statement statement = connection.createStatement()) {
			statement.execute("DROP TABLE IF EXISTS " + this.table);
			statement.execute("DROP SEQUENCE IF EXISTS " + this.table + "_fence_seq");
		}
	}

	private static boolean answers(Map<String, String> properties) {
		try (Connection connection = connect(properties)) {
			BackendVersions.record(connection);
			return connection.isValid(2);
		}
		catch (SQLException ex) {
			return false;
		}
	}

	private static Connection connect(Map<String, String> properties) throws SQLException {
		DriverManager.setLoginTimeout(2);
		return DriverManager.getConnection(properties.get("spring.datasource.url"),
				properties.get("spring.datasource.username"), properties.get("spring.datasource.password"));
	}

}
