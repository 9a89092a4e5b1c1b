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
import java.util.Properties;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.jdbc.JdbcLockSchema;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * A database of the JDBC benchmarks: PostgreSQL or MariaDB on 127.0.0.1, in a schema or
 * database of the run's own, holding the tables of every library (distlock's from its
 * jar's script, ShedLock's from its documentation, Spring Integration's from its jar) and
 * the contended workload's counter.
 *
 * @param label the name shown in the results
 * @param url the JDBC URL of the run's schema or database
 * @param user the user
 * @param serverUrl the JDBC URL to create and drop it from
 * @param integrationScript the Spring Integration schema script of the database
 * @author distlock
 * @since 0.1.0
 */
public record JdbcTarget(String label, String url, String user, String serverUrl, String integrationScript) {

	/** The table of the contended workload's counter. */
	public static final String COUNTER_TABLE = "bench_counter";

	private static final String SCHEMA = "distlock_bench";

	/**
	 * Return PostgreSQL at 127.0.0.1:5432, database {@code test}, a schema of its own.
	 * @return the target, or {@code null} if PostgreSQL does not answer
	 */
	public static @Nullable JdbcTarget postgres() {
		JdbcTarget target = new JdbcTarget("PostgreSQL",
				"jdbc:postgresql://127.0.0.1:5432/test?currentSchema=" + SCHEMA, "postgres",
				"jdbc:postgresql://127.0.0.1:5432/test", "org/springframework/integration/jdbc/schema-postgresql.sql");
		return target.answers() ? target : null;
	}

	/**
	 * Return MariaDB at 127.0.0.1:3306, a database of its own.
	 * @return the target, or {@code null} if MariaDB does not answer
	 */
	public static @Nullable JdbcTarget mariadb() {
		JdbcTarget target = new JdbcTarget("MariaDB", "jdbc:mariadb://127.0.0.1:3306/" + SCHEMA, "root",
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
	 * Drop and create the run's schema or database with every library's table.
	 * @throws SQLException if the database fails
	 */
	public void recreate() throws SQLException {
		drop();
		execute(this.serverUrl, isPostgres() ? "CREATE SCHEMA " + SCHEMA : "CREATE DATABASE " + SCHEMA);
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
	 * Drop the run's schema or database.
	 * @throws SQLException if the database fails
	 */
	public void drop() throws SQLException {
		execute(this.serverUrl,
				isPostgres() ? "DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE" : "DROP DATABASE IF EXISTS " + SCHEMA);
	}

	/**
	 * Return a new HikariCP pool on the run's schema or database.
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
	 * run's schema or database, this query's own excluded.
	 * @param dataSource a data source of this target
	 * @return the number of connections
	 * @throws SQLException if the database fails
	 */
	public long serverConnections(DataSource dataSource) throws SQLException {
		String sql = isPostgres() ? "SELECT COUNT(*) - 1 FROM pg_stat_activity WHERE datname = current_database()"
				: "SELECT COUNT(*) - 1 FROM information_schema.PROCESSLIST WHERE DB = '" + SCHEMA + "'";
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
