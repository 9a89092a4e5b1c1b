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

package dev.distlock.benchmarks;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.jdbc.JdbcLockSchema;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * A database of the JDBC benchmarks: PostgreSQL or MariaDB on 127.0.0.1, in a database of
 * the run's own, holding the tables of every library (distlock's from its jar's script,
 * ShedLock's from its documentation, Spring Integration's from its jar) and the contended
 * workload's counter. It also reads what the results record of the server: its version,
 * its commit durability setting and its commit counters.
 *
 * @param label the name shown in the results
 * @param url the JDBC URL of the run's database
 * @param user the user
 * @param serverUrl the JDBC URL to create and drop it from, and to read the server's
 * counters from (outside the run's database, so that reading them counts no commit there)
 * @param integrationScript the Spring Integration schema script of the database
 * @author distlock
 * @since 0.1.0
 */
public record JdbcTarget(String label, String url, String user, String serverUrl, String integrationScript) {

	/** The table of the contended workload's counter. */
	public static final String COUNTER_TABLE = "bench_counter";

	private static final String DATABASE = "distlock_bench";

	private static final long POLL_MILLIS = 50;

	/**
	 * Return PostgreSQL at 127.0.0.1:5432, a database of its own (created from database
	 * {@code test}), so that its commit counter counts only the run's commits.
	 * @return the target, or {@code null} if PostgreSQL does not answer
	 */
	public static @Nullable JdbcTarget postgres() {
		JdbcTarget target = new JdbcTarget("PostgreSQL", "jdbc:postgresql://127.0.0.1:5432/" + DATABASE, "postgres",
				"jdbc:postgresql://127.0.0.1:5432/test", "org/springframework/integration/jdbc/schema-postgresql.sql");
		return target.answers() ? target : null;
	}

	/**
	 * Return MariaDB at 127.0.0.1:3306, a database of its own.
	 * @return the target, or {@code null} if MariaDB does not answer
	 */
	public static @Nullable JdbcTarget mariadb() {
		JdbcTarget target = new JdbcTarget("MariaDB", "jdbc:mariadb://127.0.0.1:3306/" + DATABASE, "root",
				"jdbc:mariadb://127.0.0.1:3306/", "org/springframework/integration/jdbc/schema-mysql.sql");
		return target.answers() ? target : null;
	}

	/**
	 * Return whether this is PostgreSQL.
	 * @return whether it is PostgreSQL
	 */
	public boolean isPostgres() {
		return this.url.startsWith("jdbc:postgresql:");
	}

	/**
	 * Drop and create the run's database with every library's table.
	 * @throws SQLException if the database fails
	 */
	public void recreate() throws SQLException {
		drop();
		execute(this.serverUrl, "CREATE DATABASE " + DATABASE);
		try (HikariDataSource dataSource = dataSource("setup", 2)) {
			JdbcLockSchema.initialize(dataSource, "distlock_lock");
			new ResourceDatabasePopulator(new ClassPathResource(this.integrationScript)).execute(dataSource);
			try (Connection connection = dataSource.getConnection();
					Statement statement = connection.createStatement()) {
				// ShedLock's documented table
				statement.execute("CREATE TABLE shedlock (name VARCHAR(64) NOT NULL PRIMARY KEY, lock_until "
						+ timestamp() + " NOT NULL, locked_at " + timestamp() + " NOT NULL, locked_by VARCHAR(255) "
						+ "NOT NULL)");
				statement.execute("CREATE TABLE " + COUNTER_TABLE + " (id INT PRIMARY KEY, counter BIGINT NOT NULL)");
				statement.execute("INSERT INTO " + COUNTER_TABLE + " VALUES (1, 0)");
			}
		}
	}

	/**
	 * Drop the run's database, closing what is still connected to it.
	 * @throws SQLException if the database fails
	 */
	public void drop() throws SQLException {
		execute(this.serverUrl, "DROP DATABASE IF EXISTS " + DATABASE + (isPostgres() ? " WITH (FORCE)" : ""));
	}

	/**
	 * Return a new HikariCP pool on the run's database.
	 * @param name the pool's name
	 * @param size its maximum size
	 * @return the pool
	 */
	public HikariDataSource dataSource(String name, int size) {
		HikariConfig config = new HikariConfig();
		config.setPoolName(name);
		config.setJdbcUrl(this.url);
		config.setUsername(this.user);
		config.setPassword("");
		config.setMaximumPoolSize(size);
		config.setMinimumIdle(0);
		return new HikariDataSource(config);
	}

	/**
	 * Return how many connections the database server has open from any client to the
	 * run's database, this query's own excluded.
	 * @param dataSource a data source of this target
	 * @return the number of connections
	 * @throws SQLException if the database fails
	 */
	public long serverConnections(DataSource dataSource) throws SQLException {
		String sql = isPostgres() ? "SELECT COUNT(*) - 1 FROM pg_stat_activity WHERE datname = current_database()"
				: "SELECT COUNT(*) - 1 FROM information_schema.PROCESSLIST WHERE DB = '" + DATABASE + "'";
		try (Connection connection = dataSource.getConnection();
				Statement statement = connection.createStatement();
				ResultSet count = statement.executeQuery(sql)) {
			count.next();
			return count.getLong(1);
		}
	}

	/**
	 * Return the counter of the contended workload.
	 * @param dataSource a data source of this target
	 * @return the counter
	 * @throws SQLException if the database fails
	 */
	public long counter(DataSource dataSource) throws SQLException {
		try (Connection connection = dataSource.getConnection();
				Statement statement = connection.createStatement();
				ResultSet counter = statement.executeQuery("SELECT counter FROM " + COUNTER_TABLE + " WHERE id = 1")) {
			counter.next();
			return counter.getLong(1);
		}
	}

	/**
	 * Return the server's version.
	 * @return the product name and version
	 * @throws SQLException if the database fails
	 */
	public String version() throws SQLException {
		try (Connection connection = DriverManager.getConnection(this.serverUrl, credentials())) {
			return connection.getMetaData().getDatabaseProductName() + " "
					+ connection.getMetaData().getDatabaseProductVersion();
		}
	}

	/**
	 * Return the server's setting that decides whether a commit waits for its flush:
	 * {@code synchronous_commit} on PostgreSQL, {@code innodb_flush_log_at_trx_commit} on
	 * MariaDB.
	 * @return the setting and its value, as {@code name = value}
	 * @throws SQLException if the database fails
	 */
	public String durability() throws SQLException {
		String name = isPostgres() ? "synchronous_commit" : "innodb_flush_log_at_trx_commit";
		return name + " = " + query(isPostgres() ? "SHOW synchronous_commit" : "SELECT @@" + name).get(0).get(0);
	}

	/**
	 * Return the server's commit counters that the run's commits add to: on PostgreSQL
	 * the run's database's {@code xact_commit} ({@code pg_stat_database}, which a
	 * connection adds to when it ends, at the latest), on MariaDB the server's
	 * {@code Com_commit} and {@code Handler_commit} ({@code SHOW GLOBAL STATUS}, every
	 * client's).
	 * @return the counters, by name
	 * @throws SQLException if the database fails
	 */
	public CommitCounters commitCounters() throws SQLException {
		return CommitCounters.of(query(isPostgres()
				? "SELECT 'xact_commit', xact_commit FROM pg_stat_database WHERE datname = '" + DATABASE + "'"
				: "SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_commit', 'Handler_commit')"));
	}

	/**
	 * Wait until no connection to the run's database is open any more, so that on
	 * PostgreSQL the commit counter holds every commit of the connections that closed.
	 * @param timeout how long to wait at most
	 * @throws SQLException if the database fails
	 * @throws InterruptedException if interrupted while waiting
	 */
	public void awaitNoConnections(Duration timeout) throws SQLException, InterruptedException {
		String sql = isPostgres() ? "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = '" + DATABASE + "'"
				: "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE DB = '" + DATABASE + "'";
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!"0".equals(query(sql).get(0).get(0)) && System.nanoTime() < deadline) {
			Thread.sleep(POLL_MILLIS);
		}
	}

	private List<List<String>> query(String sql) throws SQLException {
		try (Connection connection = DriverManager.getConnection(this.serverUrl, credentials());
				Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery(sql)) {
			List<List<String>> result = new ArrayList<>();
			while (rows.next()) {
				List<String> row = new ArrayList<>();
				for (int i = 1; i <= rows.getMetaData().getColumnCount(); i++) {
					row.add(String.valueOf(rows.getString(i)));
				}
				result.add(row);
			}
			return result;
		}
	}

	private String timestamp() {
		return isPostgres() ? "TIMESTAMP(3)" : "TIMESTAMP(3) NULL";
	}

	private boolean answers() {
		try (Connection connection = DriverManager.getConnection(this.serverUrl, credentials())) {
			return connection.isValid(2);
		}
		catch (SQLException ex) {
			return false;
		}
	}

	private void execute(String url, String sql) throws SQLException {
		try (Connection connection = DriverManager.getConnection(url, credentials());
				Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

	private Properties credentials() {
		Properties properties = new Properties();
		properties.setProperty("user", this.user);
		properties.setProperty("password", "");
		properties.setProperty("connectTimeout", isPostgres() ? "2" : "2000");
		return properties;
	}

}
