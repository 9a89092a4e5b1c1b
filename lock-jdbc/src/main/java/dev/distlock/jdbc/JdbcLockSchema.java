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
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The lock table's schema: an idempotent DDL script per {@link JdbcDialect}, shipped in
 * the jar next to this class ({@code schema-postgresql.sql}, {@code schema-mysql.sql},
 * {@code schema-h2.sql}, written for the default table {@code distlock_lock}), and
 * {@link #initialize} to run the right one. Two instances may initialise one database at
 * once: on PostgreSQL the script runs in one transaction under an advisory lock, on MySQL
 * and MariaDB under a named lock; H2 has neither, and two of its {@code IF NOT EXISTS}
 * statements racing for one object can fail, so there a failed run is run again.
 * <p>
 * The scripts create the table of the current {@link #VERSION schema version}. Each later
 * version ships, per database, an idempotent migration from the version before it
 * ({@code migration/<version>/migration-postgresql.sql} and so on, next to the scripts);
 * {@link #initialize} runs those an existing table may need after the script, so it also
 * upgrades an older table, and {@link #check} names the migrations a table without the
 * store's columns needs. A table of version 2 works as one of version 3, only slower: the
 * index version 3 dropped is no matter of correctness, so {@link #check} accepts it.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class JdbcLockSchema {

	/**
	 * The schema version of the shipped scripts: version 2 added the column
	 * {@code waiters_until}, version 3 dropped the index on {@code expires_at}.
	 */
	public static final int VERSION = 3;

	/**
	 * The column that version 2 added.
	 */
	static final String WAITERS_COLUMN = "waiters_until";

	/**
	 * The first version whose table has the same columns as the version before (version 3
	 * dropped an index): its migration and every later one run on every existing table,
	 * each idempotent.
	 */
	private static final int FIRST_VERSION_WITHOUT_NEW_COLUMNS = 3;

	private static final String DEFAULT_TABLE_NAME = JdbcLockStoreSettings.DEFAULT_TABLE_NAME;

	private static final int MYSQL_LOCK_SECONDS = 30;

	private static final int H2_ATTEMPTS = 3;

	private JdbcLockSchema() {
	}

	/**
	 * Create the lock table and (where the dialect has one) its sequence, if missing, in
	 * the database behind {@code dataSource}, and bring a table of an older schema
	 * version to the current one (every migration is idempotent; version 3's drops the
	 * index on {@code expires_at} of a table of version 2).
	 * @param dataSource the database
	 * @param tableName the lock table's name
	 * @throws IllegalArgumentException if the table name is not valid
	 * @throws IllegalStateException if the database is not supported or a statement
	 * failed
	 */
	public static void initialize(DataSource dataSource, String tableName) {
		Assert.notNull(dataSource, "'dataSource' must not be null");
		JdbcLockStoreSettings.validTableName(tableName);
		JdbcDialect dialect = JdbcDialect.detect(dataSource);
		List<String> statements = new ArrayList<>(statements(script(dialect, tableName)));
		try (Connection connection = dataSource.getConnection()) {
			for (int version = firstMigration(missing(connection, dialect, tableName)); version <= VERSION; version++) {
				statements.addAll(statements(read(migrationResource(dialect, version), tableName)));
			}
			switch (dialect) {
				case POSTGRESQL -> runLockedInTransaction(connection, tableName, statements);
				case MYSQL -> runUnderNamedLock(connection, tableName, statements);
				case H2 -> runRetried(connection, statements);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not create the lock table '" + tableName + "': " + ex.getMessage(),
					ex);
		}
	}

	/**
	 * Return the first migration a table may need, given what is {@code missing} of it:
	 * none for a missing table (the script creates it at the current version), version
	 * 2's for one without the column version 2 added, and otherwise those of the versions
	 * that added no column, which its columns cannot tell apart.
	 */
	private static int firstMigration(List<String> missing) {
		if (missing.stream().anyMatch((what) -> what.startsWith("no table"))) {
			return VERSION + 1;
		}
		return missing.contains("no column '" + WAITERS_COLUMN + "'") ? 2 : FIRST_VERSION_WITHOUT_NEW_COLUMNS;
	}

	/**
	 * Fail unless the lock table (and, where the dialect has one, its sequence) exists in
	 * the database behind {@code dataSource} with the store's columns.
	 * @param dataSource the database
	 * @param tableName the lock table's name
	 * @param orElse how else the table can be created, the end of the message
	 * @throws IllegalStateException naming what is missing, the script that creates it
	 * and {@code orElse}, or if the database cannot be asked
	 */
	public static void check(DataSource dataSource, String tableName, String orElse) {
		Assert.notNull(dataSource, "'dataSource' must not be null");
		JdbcLockStoreSettings.validTableName(tableName);
		JdbcDialect dialect = JdbcDialect.detect(dataSource);
		List<String> missing;
		try (Connection connection = dataSource.getConnection()) {
			missing = missing(connection, dialect, tableName);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not check the lock table '" + tableName + "': " + ex.getMessage(),
					ex);
		}
		if (!missing.isEmpty()) {
			throw new IllegalStateException(missingMessage(dialect, tableName, missing) + ", " + orElse);
		}
	}

	/**
	 * Return the message of a check that found objects missing, up to the ways of
	 * creating them.
	 */
	static String missingMessage(JdbcDialect dialect, String tableName, List<String> missing) {
		String renamed = tableName.equals(DEFAULT_TABLE_NAME) ? ""
				: " (table name " + DEFAULT_TABLE_NAME + " replaced by " + tableName + ")";
		if (missing.size() == 1 && missing.get(0).startsWith("no column")) {
			// Only version 1 lacks a column
			return "The JDBC lock store finds " + missing.get(0) + " in the lock table '" + tableName
					+ "', which is of an older schema version: upgrade it to version 2 with the script "
					+ location(migrationResource(dialect, 2)) + migrationsAfterVersionTwo(dialect) + renamed;
		}
		return "The JDBC lock store finds " + String.join(" and ", missing)
				+ " in the database: create the lock table with the script " + scriptLocation(dialect) + renamed;
	}

	/**
	 * Return the part of the message naming the migrations after version 2's: ", then to
	 * version 3 with the script ..." and so on.
	 */
	private static String migrationsAfterVersionTwo(JdbcDialect dialect) {
		StringBuilder migrations = new StringBuilder();
		for (int version = 3; version <= VERSION; version++) {
			migrations.append(", then to version ")
				.append(version)
				.append(" with the script ")
				.append(location(migrationResource(dialect, version)));
		}
		return migrations.toString();
	}

	/**
	 * Return the classpath location of the schema script of {@code dialect}.
	 * @param dialect the database's dialect
	 * @return the location, {@code classpath:dev/distlock/jdbc/schema-postgresql.sql} for
	 * example
	 */
	public static String scriptLocation(JdbcDialect dialect) {
		Assert.notNull(dialect, "'dialect' must not be null");
		return location(dialect.scriptResource());
	}

	private static String location(String resource) {
		return "classpath:" + JdbcLockSchema.class.getPackageName().replace('.', '/') + "/" + resource;
	}

	/**
	 * Return the resource, next to this class, of the migration of {@code dialect} to
	 * schema {@code version} from the version before.
	 */
	static String migrationResource(JdbcDialect dialect, int version) {
		return "migration/" + version + "/" + dialect.scriptResource().replace("schema-", "migration-");
	}

	/**
	 * Return what is missing of the lock table on {@code connection} ("no table 'x'", "no
	 * column 'waiters_until'" of a table of schema version 1, "no sequence
	 * 'x_fence_seq'"), or nothing. A statement that failed is rolled back on a connection
	 * not in auto-commit mode.
	 */
	static List<String> missing(Connection connection, JdbcDialect dialect, String tableName) throws SQLException {
		boolean autoCommit = connection.getAutoCommit();
		try {
			List<String> missing = new ArrayList<>();
			if (!answers(connection, "SELECT lock_key, owner_token, released, expires_at, fencing_token FROM "
					+ tableName + " WHERE 1 = 0", null, autoCommit)) {
				missing.add("no table '" + tableName + "'");
			}
			else if (!answers(connection, "SELECT " + WAITERS_COLUMN + " FROM " + tableName + " WHERE 1 = 0", null,
					autoCommit)) {
				missing.add("no column '" + WAITERS_COLUMN + "'");
			}
			String sequence = tableName + "_fence_seq";
			String sequenceQuery = switch (dialect) {
				case POSTGRESQL -> "SELECT 1 WHERE to_regclass(?) IS NOT NULL";
				case H2 -> "SELECT 1 FROM INFORMATION_SCHEMA.SEQUENCES WHERE UPPER(SEQUENCE_NAME) = UPPER(?)";
				case MYSQL -> null;
			};
			if (sequenceQuery != null && !answers(connection, sequenceQuery, sequence, autoCommit)) {
				missing.add("no sequence '" + sequence + "'");
			}
			return missing;
		}
		finally {
			if (!autoCommit) {
				connection.rollback();
			}
		}
	}

	/**
	 * Run a query and return whether it ran and (when bound to {@code parameter})
	 * returned a row; a query of a missing table or column (SQL state class 42) answers
	 * {@code false}.
	 */
	private static boolean answers(Connection connection, String query, @Nullable String parameter, boolean autoCommit)
			throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(query)) {
			if (parameter == null) {
				statement.executeQuery().close();
				return true;
			}
			statement.setString(1, parameter);
			try (ResultSet rows = statement.executeQuery()) {
				return rows.next();
			}
		}
		catch (SQLException ex) {
			if (ex.getSQLState() == null || !ex.getSQLState().startsWith("42")) {
				throw ex;
			}
			if (!autoCommit) {
				connection.rollback();
			}
			return false;
		}
	}

	/**
	 * Return the DDL script of {@code dialect} for the table {@code tableName}: the
	 * shipped script with the default table name replaced.
	 * @param dialect the database's dialect
	 * @param tableName the lock table's name
	 * @return the script
	 * @throws IllegalArgumentException if the table name is not valid
	 */
	public static String script(JdbcDialect dialect, String tableName) {
		Assert.notNull(dialect, "'dialect' must not be null");
		JdbcLockStoreSettings.validTableName(tableName);
		return read(dialect.scriptResource(), tableName);
	}

	private static String read(String resource, String tableName) {
		try (InputStream in = JdbcLockSchema.class.getResourceAsStream(resource)) {
			Assert.state(in != null, () -> "Missing schema script " + resource);
			return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace(DEFAULT_TABLE_NAME, tableName);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not read " + resource, ex);
		}
	}

	/**
	 * Split a script into its statements: comment lines dropped, statements ending with a
	 * semicolon.
	 */
	static List<String> statements(String script) {
		List<String> statements = new ArrayList<>();
		StringBuilder statement = new StringBuilder();
		for (String line : script.split("\n")) {
			if (line.strip().startsWith("--")) {
				continue;
			}
			statement.append(line).append('\n');
			if (line.strip().endsWith(";")) {
				String sql = statement.toString().strip();
				statements.add(sql.substring(0, sql.length() - 1));
				statement.setLength(0);
			}
		}
		Assert.state(statement.toString().isBlank(), "The schema script ends without a semicolon");
		return statements;
	}

	private static void runLockedInTransaction(Connection connection, String tableName, List<String> statements)
			throws SQLException {
		boolean autoCommit = connection.getAutoCommit();
		connection.setAutoCommit(false);
		try {
			try (PreparedStatement lock = connection.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?))")) {
				lock.setString(1, "distlock:" + tableName);
				lock.execute();
			}
			run(connection, statements);
			connection.commit();
		}
		catch (SQLException ex) {
			connection.rollback();
			throw ex;
		}
		finally {
			connection.setAutoCommit(autoCommit);
		}
	}

	private static void runUnderNamedLock(Connection connection, String tableName, List<String> statements)
			throws SQLException {
		String name = "distlock:" + tableName;
		try (PreparedStatement lock = connection.prepareStatement("SELECT GET_LOCK(?, ?)")) {
			lock.setString(1, name);
			lock.setInt(2, MYSQL_LOCK_SECONDS);
			lock.execute();
		}
		try {
			run(connection, statements);
		}
		finally {
			try (PreparedStatement unlock = connection.prepareStatement("SELECT RELEASE_LOCK(?)")) {
				unlock.setString(1, name);
				unlock.execute();
			}
		}
	}

	/**
	 * Run the idempotent script again when a run fails: the failure of a statement that
	 * raced another instance's creation of the same object goes away once that object
	 * exists.
	 */
	private static void runRetried(Connection connection, List<String> statements) throws SQLException {
		for (int attempt = 1;; attempt++) {
			try {
				run(connection, statements);
				return;
			}
			catch (SQLException ex) {
				if (attempt == H2_ATTEMPTS) {
					throw ex;
				}
			}
		}
	}

	private static void run(Connection connection, List<String> statements) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			for (String sql : statements) {
				statement.execute(sql);
			}
		}
	}

}
