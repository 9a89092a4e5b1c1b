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

package dev.distlock.autoconfigure.jdbc;

import java.sql.DriverManager;
import java.util.Properties;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfigMXBean;
import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.jdbc.JdbcLockStoreSettings.ListenerConnectionFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.jdbc.DataSourceUnwrapper;
import org.springframework.util.ClassUtils;

/**
 * Opens the dedicated connection of the JDBC store's release listener (PostgreSQL's
 * {@code LISTEN}) outside the application's pool, with the driver and the settings of
 * that pool, so that the listener never takes one of its connections: for a HikariCP pool
 * configured with a JDBC URL, as Spring Boot configures it. The pool's user, password and
 * data source properties are read again on every connect, so that a rotated password
 * reaches the listener when it reconnects. Any other {@code DataSource} gives the
 * listener one of its own connections.
 *
 * @author distlock
 */
final class ListenerConnections {

	private static final String LOGIN_TIMEOUT_SECONDS = "10";

	private static final boolean HIKARI_PRESENT = ClassUtils.isPresent("com.zaxxer.hikari.HikariDataSource",
			ListenerConnections.class.getClassLoader());

	private ListenerConnections() {
	}

	/**
	 * Return what opens the listener's connection outside the pool of a
	 * {@code DataSource}.
	 * @param dataSource the store's data source
	 * @return the factory, or {@code null} to take the connection from the data source
	 */
	static @Nullable ListenerConnectionFactory outsideThePool(DataSource dataSource) {
		return HIKARI_PRESENT ? Hikari.outsideThePool(dataSource) : null;
	}

	/**
	 * The HikariCP part, loaded only when HikariCP is present.
	 */
	private static final class Hikari {

		static @Nullable ListenerConnectionFactory outsideThePool(DataSource dataSource) {
			HikariDataSource pool = DataSourceUnwrapper.unwrap(dataSource, HikariConfigMXBean.class,
					HikariDataSource.class);
			if (pool == null || pool.getJdbcUrl() == null) {
				return null;
			}
			// Read again on every connect: a password rotated in the pool (its MXBean,
			// say)
			// reaches the listener's next connection
			return () -> DriverManager.getConnection(pool.getJdbcUrl(), connectionProperties(pool));
		}

		private static Properties connectionProperties(HikariDataSource pool) {
			Properties properties = new Properties();
			// A connect that gets no answer (a black-holing network) ends, and is tried
			// again after a pause, unless the pool's settings say otherwise
			properties.setProperty("loginTimeout", LOGIN_TIMEOUT_SECONDS);
			properties.putAll(pool.getDataSourceProperties());
			if (pool.getUsername() != null) {
				properties.setProperty("user", pool.getUsername());
			}
			if (pool.getPassword() != null) {
				properties.setProperty("password", pool.getPassword());
			}
			return properties;
		}

	}

}
