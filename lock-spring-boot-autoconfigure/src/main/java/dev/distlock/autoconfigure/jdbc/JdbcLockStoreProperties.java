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

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/**
 * Configuration properties of the JDBC lock store ({@code distlock.jdbc.*}). The store
 * keeps its locks in one table, which is also its namespace:
 * {@code distlock.redis.key-prefix} does not apply to it.
 *
 * @author distlock
 * @since 0.1.0
 */
@ConfigurationProperties("distlock.jdbc")
public class JdbcLockStoreProperties {

	/**
	 * Name of the lock table, in the connection's default schema: a letter or an
	 * underscore, then letters, digits and underscores, at most 48 characters. Two
	 * applications that must not share locks use two tables.
	 */
	private String tableName = "distlock_lock";

	/**
	 * Longest time one statement or transaction of the store may take, borrowing its
	 * connection from the pool included; past it the operation fails closed with
	 * LockBackendException. Each statement's query timeout is this rounded up to whole
	 * seconds, and each borrowed connection's network timeout one second more. At most
	 * one day.
	 */
	private Duration commandTimeout = Duration.ofSeconds(3);

	/**
	 * How often waiters re-check the keys they wait for on MySQL, MariaDB and H2 (one
	 * poller per store, which sends nothing while nobody waits). PostgreSQL wakes them
	 * with LISTEN/NOTIFY instead.
	 */
	private Duration pollInterval = Duration.ofMillis(10);

	/**
	 * How often each instance deletes the rows of locks that ended more than a minute
	 * ago: one round, batch after batch while they come back full.
	 */
	private Duration cleanupInterval = Duration.ofMinutes(1);

	/**
	 * Most rows one cleanup statement deletes.
	 */
	private int cleanupBatchSize = 500;

	/**
	 * Most statements the JDBC store runs at once, each on a thread of its own with a
	 * connection of the pool. 0 for the pool's maximum size when the data source tells it
	 * (HikariCP's does), else 10.
	 */
	private int threads = 0;

	/**
	 * When to create the lock table at startup with the script for the database shipped
	 * in the jar: embedded (H2 and other embedded databases only), always or never.
	 * Startup fails when the table is still missing after it.
	 */
	private DatabaseInitializationMode initializeSchema = DatabaseInitializationMode.EMBEDDED;

	/**
	 * Return the name of the lock table.
	 * @return the table name
	 */
	public String getTableName() {
		return this.tableName;
	}

	/**
	 * Set the name of the lock table.
	 * @param tableName the table name
	 */
	public void setTableName(String tableName) {
		this.tableName = tableName;
	}

	/**
	 * Return the command timeout.
	 * @return the command timeout
	 */
	public Duration getCommandTimeout() {
		return this.commandTimeout;
	}

	/**
	 * Set the command timeout.
	 * @param commandTimeout the command timeout
	 */
	public void setCommandTimeout(Duration commandTimeout) {
		this.commandTimeout = commandTimeout;
	}

	/**
	 * Return the poll interval.
	 * @return the poll interval
	 */
	public Duration getPollInterval() {
		return this.pollInterval;
	}

	/**
	 * Set the poll interval.
	 * @param pollInterval the poll interval
	 */
	public void setPollInterval(Duration pollInterval) {
		this.pollInterval = pollInterval;
	}

	/**
	 * Return the cleanup interval.
	 * @return the cleanup interval
	 */
	public Duration getCleanupInterval() {
		return this.cleanupInterval;
	}

	/**
	 * Set the cleanup interval.
	 * @param cleanupInterval the cleanup interval
	 */
	public void setCleanupInterval(Duration cleanupInterval) {
		this.cleanupInterval = cleanupInterval;
	}

	/**
	 * Return the cleanup batch size.
	 * @return the cleanup batch size
	 */
	public int getCleanupBatchSize() {
		return this.cleanupBatchSize;
	}

	/**
	 * Set the cleanup batch size.
	 * @param cleanupBatchSize the cleanup batch size
	 */
	public void setCleanupBatchSize(int cleanupBatchSize) {
		this.cleanupBatchSize = cleanupBatchSize;
	}

	/**
	 * Return how many statements the store runs at once.
	 * @return the threads, or 0 for the pool's size
	 */
	public int getThreads() {
		return this.threads;
	}

	/**
	 * Set how many statements the store runs at once.
	 * @param threads the threads, or 0 for the pool's size
	 */
	public void setThreads(int threads) {
		this.threads = threads;
	}

	/**
	 * Return when the lock table is created at startup.
	 * @return the schema initialization mode
	 */
	public DatabaseInitializationMode getInitializeSchema() {
		return this.initializeSchema;
	}

	/**
	 * Set when the lock table is created at startup.
	 * @param initializeSchema the schema initialization mode
	 */
	public void setInitializeSchema(DatabaseInitializationMode initializeSchema) {
		this.initializeSchema = initializeSchema;
	}

}
