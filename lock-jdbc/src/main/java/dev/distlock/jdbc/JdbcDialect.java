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
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.function.BiFunction;

import javax.sql.DataSource;

import org.springframework.util.Assert;

/**
 * The databases the {@link JdbcLockStore} runs on: each names its schema script, the SQL
 * of its clock, and the statements object that holds the store's SQL for it with the
 * binding of each statement (a new database is a new constant and a new statements
 * class).
 *
 * @author distlock
 * @since 0.1.0
 */
public enum JdbcDialect {

	/**
	 * PostgreSQL: fencing tokens from a sequence, {@code LISTEN}/{@code NOTIFY} for
	 * releases, {@code FOR SHARE} for the ownership check in the caller's transaction.
	 */
	POSTGRESQL("postgresql", "FLOOR(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT", true,
			PostgresStatements::new),

	/**
	 * MySQL and MariaDB: fencing tokens by the rule "one more than the last, and at least
	 * the database's clock in microseconds", releases found by polling,
	 * {@code LOCK IN SHARE MODE} for the ownership check in the caller's transaction.
	 */
	MYSQL("mysql", "(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)) DIV 1000)", false,
			MySqlStatements::new),

	/**
	 * H2: fencing tokens from a sequence, releases found by polling, {@code FOR UPDATE}
	 * for the ownership check in the caller's transaction (H2 has no shared row lock).
	 */
	H2("h2", "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000 AS BIGINT)", true, H2Statements::new);

	private final String scriptName;

	private final String nowMillis;

	private final boolean hasSequence;

	private final BiFunction<String, Duration, LockStatements> statements;

	JdbcDialect(String scriptName, String nowMillis, boolean hasSequence,
			BiFunction<String, Duration, LockStatements> statements) {
		this.scriptName = scriptName;
		this.nowMillis = nowMillis;
		this.hasSequence = hasSequence;
		this.statements = statements;
	}

	/**
	 * Return the dialect of the database behind {@code dataSource}, asking its
	 * connection's metadata once.
	 * @param dataSource the database
	 * @return its dialect
	 * @throws IllegalStateException if the database cannot be reached or is none of the
	 * supported ones (naming the product it is)
	 */
	public static JdbcDialect detect(DataSource dataSource) {
		Assert.notNull(dataSource, "'dataSource' must not be null");
		try (Connection connection = dataSource.getConnection()) {
			DatabaseMetaData metaData = connection.getMetaData();
			return of(metaData.getDatabaseProductName());
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not detect the database of the JDBC lock store: " + ex.getMessage(),
					ex);
		}
	}

	/**
	 * Return the dialect of a database product, as JDBC metadata names it.
	 * @param productName the product name
	 * @return its dialect
	 * @throws IllegalStateException if the product is none of the supported ones
	 */
	static JdbcDialect of(String productName) {
		String name = productName.toLowerCase(Locale.ROOT);
		if (name.contains("postgresql")) {
			return POSTGRESQL;
		}
		if (name.contains("mysql") || name.contains("mariadb")) {
			return MYSQL;
		}
		if (name.equals("h2")) {
			return H2;
		}
		throw new IllegalStateException("The JDBC lock store does not support " + productName
				+ ": it runs on PostgreSQL, MySQL, MariaDB and H2");
	}

	/**
	 * Return the resource name of this dialect's schema script.
	 * @return the script's name inside the jar
	 */
	String scriptResource() {
		return "schema-" + this.scriptName + ".sql";
	}

	/**
	 * Return the SQL of the database's clock in milliseconds since the epoch.
	 * @return the expression
	 */
	String nowMillis() {
		return this.nowMillis;
	}

	/**
	 * Return the statements of a store on this database.
	 * @param table the lock table's name
	 * @param commandTimeout the longest a statement may take
	 * @return the statements
	 */
	LockStatements statements(String table, Duration commandTimeout) {
		return this.statements.apply(table, commandTimeout);
	}

	/**
	 * Return whether fencing tokens come from a sequence.
	 * @return whether the dialect has sequences
	 */
	boolean hasSequence() {
		return this.hasSequence;
	}

}
