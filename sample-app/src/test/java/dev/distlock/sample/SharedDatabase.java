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

package dev.distlock.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import org.h2.tools.Server;
import org.jspecify.annotations.Nullable;

/**
 * A database that several instances of the sample share during one test: a fresh database
 * or schema on a reachable MariaDB or PostgreSQL, or an H2 TCP server, dropped again when
 * closed.
 *
 * @author distlock
 * @since 0.1.0
 */
public abstract class SharedDatabase implements AutoCloseable {

	private static final String MARIADB_URL = "jdbc:mariadb://127.0.0.1:3306/";

	private static final String POSTGRES_URL = "jdbc:postgresql://127.0.0.1:5432/test";

	protected final String name = "voucher_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	/**
	 * Return the Spring profile that selects this database's migrations, if any.
	 * @return the profile or {@code null}
	 */
	public abstract @Nullable String profile();

	/**
	 * Return the settings that point an instance at this database.
	 * @return the properties
	 */
	public abstract Map<String, Object> properties();

	@Override
	public abstract void close() throws SQLException;

	/**
	 * Create a fresh database on MariaDB at 127.0.0.1:3306 as root.
	 * @return the database, or {@code null} if MariaDB does not answer
	 */
	public static @Nullable SharedDatabase mariadb() {
		return connect(MARIADB_URL, "root") ? new MariaDb() : null;
	}

	/**
	 * Create a fresh schema in database {@code test} on PostgreSQL at 127.0.0.1:5432 as
	 * postgres.
	 * @return the database, or {@code null} if PostgreSQL does not answer
	 */
	public static @Nullable SharedDatabase postgres() {
		return connect(POSTGRES_URL, "postgres") ? new Postgres() : null;
	}

	/**
	 * Start an H2 TCP server with an in-memory database.
	 * @return the database
	 */
	public static SharedDatabase h2Server() {
		return new H2Server();
	}

	private static boolean connect(String url, String user) {
		try (Connection connection = DriverManager.getConnection(url, credentials(url, user))) {
			return connection.isValid(2);
		}
		catch (SQLException ex) {
			return false;
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

	private static void execute(String url, String user, String sql) throws SQLException {
		try (Connection connection = DriverManager.getConnection(url, credentials(url, user));
				Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

	private static final class MariaDb extends SharedDatabase {

		MariaDb() {
			try {
				execute(MARIADB_URL, "root", "CREATE DATABASE " + this.name);
			}
			catch (SQLException ex) {
				throw new IllegalStateException("Could not create database " + this.name, ex);
			}
		}

		@Override
		public String profile() {
			return "mysql";
		}

		@Override
		public Map<String, Object> properties() {
			return Map.of("spring.datasource.url", MARIADB_URL + this.name, "spring.datasource.username", "root");
		}

		@Override
		public void close() throws SQLException {
			execute(MARIADB_URL, "root", "DROP DATABASE " + this.name);
		}

		@Override
		public String toString() {
			return "MariaDB database " + this.name;
		}

	}

	private static final class Postgres extends SharedDatabase {

		Postgres() {
			try {
				execute(POSTGRES_URL, "postgres", "CREATE SCHEMA " + this.name);
			}
			catch (SQLException ex) {
				throw new IllegalStateException("Could not create schema " + this.name, ex);
			}
		}

		@Override
		public String profile() {
			return "postgres";
		}

		@Override
		public Map<String, Object> properties() {
			return Map.of("spring.datasource.url", POSTGRES_URL + "?currentSchema=" + this.name,
					"spring.datasource.username", "postgres", "spring.flyway.schemas", this.name);
		}

		@Override
		public void close() throws SQLException {
			execute(POSTGRES_URL, "postgres", "DROP SCHEMA " + this.name + " CASCADE");
		}

		@Override
		public String toString() {
			return "PostgreSQL schema " + this.name;
		}

	}

	private static final class H2Server extends SharedDatabase {

		private final Server server;

		H2Server() {
			try {
				this.server = Server.createTcpServer("-tcpPort", Integer.toString(freePort()), "-ifNotExists").start();
			}
			catch (SQLException ex) {
				throw new IllegalStateException("Could not start an H2 TCP server", ex);
			}
		}

		@Override
		public @Nullable String profile() {
			return null;
		}

		@Override
		public Map<String, Object> properties() {
			return Map.of("spring.datasource.url",
					"jdbc:h2:tcp://127.0.0.1:" + this.server.getPort() + "/mem:" + this.name + ";DB_CLOSE_DELAY=-1");
		}

		@Override
		public void close() {
			this.server.stop();
		}

		@Override
		public String toString() {
			return "H2 TCP server, database " + this.name;
		}

		private static int freePort() {
			try (ServerSocket socket = new ServerSocket(0)) {
				return socket.getLocalPort();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

}
