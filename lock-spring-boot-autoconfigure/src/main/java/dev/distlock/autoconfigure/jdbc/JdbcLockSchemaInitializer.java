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

import javax.sql.DataSource;

import dev.distlock.jdbc.JdbcLockSchema;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/**
 * Creates the JDBC lock store's table at startup with {@link JdbcLockSchema}, as
 * {@code distlock.jdbc.initialize-schema} says: on an embedded database only
 * ({@code embedded}), always, or never. The scripts are idempotent, so that instances
 * starting together, or a table a migration already created, are fine. A database
 * initializer for Spring Boot ({@link JdbcLockSchemaInitializerDetector}): it runs after
 * Flyway and Liquibase, and before the beans that depend on database initialization, the
 * lock store among them.
 *
 * @author distlock
 */
final class JdbcLockSchemaInitializer implements InitializingBean {

	private static final Log logger = LogFactory.getLog(JdbcLockSchemaInitializer.class);

	private final DataSource dataSource;

	private final String tableName;

	private final DatabaseInitializationMode mode;

	JdbcLockSchemaInitializer(DataSource dataSource, String tableName, DatabaseInitializationMode mode) {
		this.dataSource = dataSource;
		this.tableName = tableName;
		this.mode = mode;
	}

	@Override
	public void afterPropertiesSet() {
		if (isEnabled()) {
			JdbcLockSchema.initialize(this.dataSource, this.tableName);
			logger.debug(
					"Lock table " + this.tableName + " initialized (distlock.jdbc.initialize-schema=" + mode() + ")");
		}
	}

	/**
	 * Return whether this initializer creates the table.
	 * @return whether the mode and the database call for it
	 */
	boolean isEnabled() {
		return switch (this.mode) {
			case ALWAYS -> true;
			case NEVER -> false;
			case EMBEDDED -> EmbeddedDatabaseConnection.isEmbedded(this.dataSource);
		};
	}

	private String mode() {
		return this.mode.name().toLowerCase(java.util.Locale.ROOT);
	}

}
