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

package dev.distlock.autoconfigure;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Properties;
import java.util.UUID;

import javax.sql.DataSource;

import dev.distlock.testing.BackendVersions;
import org.h2.jdbcx.JdbcDataSource;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.util.ClassUtils;

/**
 * A fresh database for one test of the JDBC store's auto-configuration: an H2 in-memory
 * database (embedded), or a new schema on the PostgreSQL or a new database on the MariaDB
 * that answers on 127.0.0.1 (not embedded), dropped again when closed.
 *
 * @author distlock
 */
public abstract class JdbcTestDatabase implements AutoCloseable {

	private static final String POSTGRES_URL = "jdbc:postgresql://127.0.0.1:5432/test";

	private static final String MARIADB_URL = "jdbc:mariadb://127.0.0.1:3306/";

	public final String name = "distlock_ac_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	/**
	 * Return a {@code DataSource} of this database, a new one per call, each opening its
	 * own connections.
	 * @return the data source
	 */
	public abstract DataSource dataSource();

	/**
	 * Return the JDBC URL of this database.
	 * @return the URL
	 */
	public abstract String url();

	/**
	 * Return whether this is an embedded database, as Spring Boot tells them apart.
	 * @return whether it is embedded
	 */
	public abstract boolean embedded();

	@Override
	public void close() throws SQLException {
	}

	/**
	 * Return whether a table exists in this database.
	 * @param table the table name
	 * @return whether it exists
	 * @throws SQLException if the database fails
	 */
	public boolean hasTable(String table) throws SQLException {
		try (Connection connection = dataSource().getConnection()) {
			for (String candidate : new String[] { table, table.toUpperCase(Locale.ROOT) }) {
				try (ResultSet tables = connection.getMetaData()
					.getTables(connection.getCatalog(), connection.getSchema(), candidate, null)) {
					if (tables.next()) {
						return true;
					}
				}
			}
			return false;
		}
	}

	/**
	 * Run one statement in this database.
	 * @param sql the statement
	 * @throws SQLException if the database fails
	 */
	public void update(String sql) throws SQLException {
		try (Connection connection = dataSource().getConnection(); Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

	/**
	 * Return how many rows a table has.
	 * @param table the table name
	 * @return the number of rows
	 * @throws SQLException if the database fails
	 */
	public long rows(String table) throws SQLException {
		try (Connection connection = dataSource().getConnection();
				Statement statement = connection.createStatement();
				ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
			count.next();
			return count.getLong(1);
		}
	}

	public static JdbcTestDatabase h2() {
		H2 h2 = new H2();
		try (Connection connection = h2.dataSource().getConnection()) {
			recordVersion(connection);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("H2 in memory does not answer", ex);
		}
		return h2;
	}

	/**
	 * Create a schema on the PostgreSQL at 127.0.0.1:5432.
	 * @return the database, or {@code null} if PostgreSQL does not answer
	 */
	public static @Nullable JdbcTestDatabase postgres() {
		return answers(POSTGRES_URL, "postgres") ? new Postgres() : null;
	}

	/**
	 * Create a database on the MariaDB at 127.0.0.1:3306.
	 * @return the database, or {@code null} if MariaDB does not answer
	 */
	public static @Nullable JdbcTestDatabase mariadb() {
		return answers(MARIADB_URL, "root") ? new MariaDb() : null;
	}

	private static boolean answers(String url, String user) {
		try (Connection connection = DriverManager.getConnection(url, credentials(url, user))) {
			recordVersion(connection);
			return connection.isValid(2);
		}
		catch (SQLException ex) {
			return false;
		}
	}

	/**
	 * Record the database's version with the test harness, when it is on the class path:
	 * the JDBC starter runs these tests without it, as it has no Redis.
	 */
	private static void recordVersion(Connection connection) {
		if (ClassUtils.isPresent("dev.distlock.testing.BackendVersions", JdbcTestDatabase.class.getClassLoader())) {
			Harness.record(connection);
		}
	}

	private static Properties credentials(String url, String user) {
		Properties properties = new Properties();
		properties.setProperty("user", user);
		properties.setProperty("password", "");
		// MariaDB reads milliseconds, PostgreSQL seconds
		properties.setProperty("connectTimeout", url.startsWith("jdbc:mariadb:") ? "2000" : "2");
		return properties;
	}

	private static void execute(String url, String user, String sql) {
		try (Connection connection = DriverManager.getConnection(url, credentials(url, user));
				Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not run " + sql, ex);
		}
	}

	private static final class H2 extends JdbcTestDatabase {

		@Override
		public DataSource dataSource() {
			JdbcDataSource dataSource = new JdbcDataSource();
			dataSource.setURL(url());
			return dataSource;
		}

		@Override
		public String url() {
			return "jdbc:h2:mem:" + this.name + ";DB_CLOSE_DELAY=-1";
		}

		@Override
		public boolean embedded() {
			return true;
		}

		@Override
		public void close() throws SQLException {
			try (Connection connection = dataSource().getConnection();
					Statement statement = connection.createStatement()) {
				statement.execute("SHUTDOWN");
			}
		}

		@Override
		public String toString() {
			return "H2";
		}

	}

	private static final class Postgres extends JdbcTestDatabase {

		Postgres() {
			execute(POSTGRES_URL, "postgres", "CREATE SCHEMA " + this.name);
		}

		@Override
		public DataSource dataSource() {
			return new DriverManagerDataSource(url(), "postgres", "");
		}

		@Override
		public String url() {
			return POSTGRES_URL + "?currentSchema=" + this.name;
		}

		@Override
		public boolean embedded() {
			return false;
		}

		@Override
		public void close() {
			execute(POSTGRES_URL, "postgres", "DROP SCHEMA " + this.name + " CASCADE");
		}

		@Override
		public String toString() {
			return "PostgreSQL";
		}

	}

	private static final class MariaDb extends JdbcTestDatabase {

		MariaDb() {
			execute(MARIADB_URL, "root", "CREATE DATABASE " + this.name);
		}

		@Override
		public DataSource dataSource() {
			return new DriverManagerDataSource(url(), "root", "");
		}

		@Override
		public String url() {
			return MARIADB_URL + this.name;
		}

		@Override
		public boolean embedded() {
			return false;
		}

		@Override
		public void close() {
			execute(MARIADB_URL, "root", "DROP DATABASE " + this.name);
		}

		@Override
		public String toString() {
			return "MariaDB";
		}

	}

	/**
	 * The harness's part, loaded only when the harness is present.
	 */
	private static final class Harness {

		static void record(Connection connection) {
			BackendVersions.record(connection);
		}

	}

}
