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
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.distlock.testing.BackendVersions;
import com.zaxxer.hikari.HikariDataSource;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The databases the JDBC store's tests run on: the running PostgreSQL and MariaDB servers
 * of the build's environment (system properties {@code distlock.test.postgresql.url} and
 * {@code distlock.test.mariadb.url} name others) and an in-memory H2. A test skips, with
 * the reason, when its database does not answer.
 *
 * @author distlock
 */
public enum TestDatabase {

	/**
	 * PostgreSQL on 127.0.0.1:5432, database {@code test}, user {@code postgres}.
	 */
	POSTGRESQL(System.getProperty("distlock.test.postgresql.url", "jdbc:postgresql://127.0.0.1:5432/test"), "postgres"),

	/**
	 * MariaDB on 127.0.0.1:3306, database {@code test}, user {@code root}.
	 */
	MARIADB(System.getProperty("distlock.test.mariadb.url", "jdbc:mariadb://127.0.0.1:3306/test"), "root"),

	/**
	 * An in-memory H2 database that lives as long as the JVM.
	 */
	H2("jdbc:h2:mem:distlock-jdbc-tests;DB_CLOSE_DELAY=-1", "sa");

	private static final Map<TestDatabase, String> problems = new ConcurrentHashMap<>();

	private final String url;

	private final String user;

	TestDatabase(String url, String user) {
		this.url = url;
		this.user = user;
	}

	/**
	 * Skip the test, with the reason, unless the database answers.
	 */
	public void assumeAvailable() {
		String problem = problems.computeIfAbsent(this, (database) -> {
			DriverManager.setLoginTimeout(3);
			try (Connection connection = connect()) {
				BackendVersions.record(connection);
				return connection.isValid(3) ? "" : "the connection is not valid";
			}
			catch (SQLException ex) {
				return ex.getMessage();
			}
		});
		assumeTrue(problem.isEmpty(), () -> name() + " at " + this.url + " does not answer: " + problem);
	}

	/**
	 * Open a new connection outside any pool.
	 * @return the connection
	 * @throws SQLException if the database does not answer
	 */
	public Connection connect() throws SQLException {
		return DriverManager.getConnection(this.url, this.user, "");
	}

	/**
	 * Return a new HikariCP pool on the database.
	 * @param size the largest number of connections
	 * @return the pool, to close after use
	 */
	public HikariDataSource pool(int size) {
		HikariDataSource pool = new HikariDataSource();
		pool.setJdbcUrl(this.url);
		pool.setUsername(this.user);
		pool.setPassword("");
		pool.setMaximumPoolSize(size);
		pool.setMinimumIdle(0);
		pool.setConnectionTimeout(2000);
		pool.setPoolName("distlock-test-" + name().toLowerCase());
		return pool;
	}

	/**
	 * Return the URL.
	 * @return the JDBC URL
	 */
	public String url() {
		return this.url;
	}

}
