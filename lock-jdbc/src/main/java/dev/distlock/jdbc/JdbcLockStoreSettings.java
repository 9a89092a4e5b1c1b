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
import java.sql.SQLException;
import java.time.Duration;
import java.util.regex.Pattern;

import dev.distlock.store.support.LockKeyRules;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The settings of a {@link JdbcLockStore}, immutable; {@link #builder()} starts from the
 * defaults.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class JdbcLockStoreSettings {

	/**
	 * The default lock table.
	 */
	public static final String DEFAULT_TABLE_NAME = "distlock_lock";

	/**
	 * The longest table name, which also names the table's sequence and index.
	 */
	public static final int MAX_TABLE_NAME_LENGTH = 48;

	/**
	 * The longest command timeout: statements take it in whole seconds, and socket reads
	 * a second more in milliseconds.
	 */
	public static final Duration MAX_COMMAND_TIMEOUT = Duration.ofDays(1);

	private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

	private final String tableName;

	private final Duration commandTimeout;

	private final Duration pollInterval;

	private final int maxKeyLength;

	private final Duration cleanupInterval;

	private final int cleanupBatchSize;

	private final @Nullable ListenerConnectionFactory listenerConnectionFactory;

	private final int threads;

	private JdbcLockStoreSettings(Builder builder) {
		this.tableName = builder.tableName;
		this.commandTimeout = builder.commandTimeout;
		this.pollInterval = builder.pollInterval;
		this.maxKeyLength = builder.maxKeyLength;
		this.cleanupInterval = builder.cleanupInterval;
		this.cleanupBatchSize = builder.cleanupBatchSize;
		this.listenerConnectionFactory = builder.listenerConnectionFactory;
		this.threads = builder.threads;
	}

	/**
	 * Return a builder with the default settings.
	 * @return the builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Return the default settings.
	 * @return the settings
	 */
	public static JdbcLockStoreSettings defaults() {
		return builder().build();
	}

	/**
	 * Return the lock table's name.
	 * @return the table name
	 */
	public String tableName() {
		return this.tableName;
	}

	/**
	 * Return the longest an operation may take, waiting for a connection of the pool and
	 * for the store's executor included.
	 * @return the command timeout
	 */
	public Duration commandTimeout() {
		return this.commandTimeout;
	}

	/**
	 * Return how often the poller of a MySQL, MariaDB or H2 store checks the keys that
	 * callers wait for.
	 * @return the poll interval
	 */
	public Duration pollInterval() {
		return this.pollInterval;
	}

	/**
	 * Return the longest key, in bytes of UTF-8.
	 * @return the maximum key length
	 */
	public int maxKeyLength() {
		return this.maxKeyLength;
	}

	/**
	 * Return how often the store deletes rows of locks that ended long ago.
	 * @return the cleanup interval
	 */
	public Duration cleanupInterval() {
		return this.cleanupInterval;
	}

	/**
	 * Return how many rows one cleanup statement deletes at most.
	 * @return the cleanup batch size
	 */
	public int cleanupBatchSize() {
		return this.cleanupBatchSize;
	}

	/**
	 * Return what opens the dedicated connection of a PostgreSQL store's release
	 * listener, or {@code null} to take it from the store's {@code DataSource}.
	 * @return the factory, or {@code null}
	 */
	public @Nullable ListenerConnectionFactory listenerConnectionFactory() {
		return this.listenerConnectionFactory;
	}

	/**
	 * Return how many operations the store runs at once, or {@code 0} for as many as the
	 * pool of its {@code DataSource} has connections.
	 * @return the threads of the store's executor, or {@code 0}
	 */
	public int threads() {
		return this.threads;
	}

	/**
	 * Check a lock table's name: a letter or an underscore, then letters, digits and
	 * underscores, at most {@value #MAX_TABLE_NAME_LENGTH} characters (the table is in
	 * the connection's default schema).
	 * @param tableName the name
	 * @return the name
	 * @throws IllegalArgumentException naming the setting, if the name is not valid
	 */
	static String validTableName(@Nullable String tableName) {
		if (tableName == null || !TABLE_NAME.matcher(tableName).matches()) {
			throw new IllegalArgumentException("'tableName' (distlock.jdbc.table-name) must be a letter or an "
					+ "underscore, then letters, digits and underscores, but was '" + tableName + "'");
		}
		Assert.isTrue(tableName.length() <= MAX_TABLE_NAME_LENGTH, () -> "'tableName' (distlock.jdbc.table-name) "
				+ "must have at most " + MAX_TABLE_NAME_LENGTH + " characters, but was '" + tableName + "'");
		return tableName;
	}

	private static Duration positive(@Nullable Duration duration, String name) {
		if (duration == null || duration.isNegative() || duration.isZero()) {
			throw new IllegalArgumentException("'" + name + "' must be positive, but was " + duration);
		}
		return duration;
	}

	private static int positive(int value, String name) {
		Assert.isTrue(value > 0, () -> "'" + name + "' must be positive, but was " + value);
		return value;
	}

	/**
	 * Opens the dedicated connection of a PostgreSQL store's release listener, outside
	 * the application's pool: for example
	 * {@code () -> DriverManager.getConnection(url, user, password)}.
	 */
	@FunctionalInterface
	public interface ListenerConnectionFactory {

		/**
		 * Open a new connection.
		 * @return the connection, which the listener closes
		 * @throws SQLException if the database cannot be reached
		 */
		Connection connect() throws SQLException;

	}

	/**
	 * Builds {@link JdbcLockStoreSettings}; each setter validates its value and names it
	 * in the message.
	 */
	public static final class Builder {

		private String tableName = DEFAULT_TABLE_NAME;

		private Duration commandTimeout = Duration.ofSeconds(3);

		private Duration pollInterval = Duration.ofMillis(10);

		private int maxKeyLength = LockKeyRules.DEFAULT_MAX_KEY_LENGTH;

		private Duration cleanupInterval = Duration.ofMinutes(1);

		private int cleanupBatchSize = 500;

		private @Nullable ListenerConnectionFactory listenerConnectionFactory;

		private int threads;

		private Builder() {
		}

		/**
		 * Set the lock table's name (default
		 * {@value JdbcLockStoreSettings#DEFAULT_TABLE_NAME}).
		 * @param tableName a letter or an underscore, then letters, digits and
		 * underscores
		 * @return this builder
		 */
		public Builder tableName(String tableName) {
			this.tableName = validTableName(tableName);
			return this;
		}

		/**
		 * Set the longest an operation may take, connection checkout included (default 3
		 * seconds); each statement's query timeout is this rounded up to whole seconds,
		 * and each connection's network timeout a second more.
		 * @param commandTimeout a positive duration, at most
		 * {@link JdbcLockStoreSettings#MAX_COMMAND_TIMEOUT}
		 * @return this builder
		 */
		public Builder commandTimeout(Duration commandTimeout) {
			this.commandTimeout = positive(commandTimeout, "commandTimeout");
			Assert.isTrue(commandTimeout.compareTo(MAX_COMMAND_TIMEOUT) <= 0,
					() -> "'commandTimeout' must be at most " + MAX_COMMAND_TIMEOUT + ", but was " + commandTimeout);
			return this;
		}

		/**
		 * Set how often the poller checks the keys callers wait for (default 10 ms); it
		 * sends nothing while nobody waits.
		 * @param pollInterval a positive duration
		 * @return this builder
		 */
		public Builder pollInterval(Duration pollInterval) {
			this.pollInterval = positive(pollInterval, "pollInterval");
			return this;
		}

		/**
		 * Set the longest key in bytes of UTF-8 (default 512); the shipped schema holds
		 * keys of up to 1024 bytes.
		 * @param maxKeyLength a positive length
		 * @return this builder
		 */
		public Builder maxKeyLength(int maxKeyLength) {
			this.maxKeyLength = positive(maxKeyLength, "maxKeyLength");
			return this;
		}

		/**
		 * Set how often rows of locks that ended long ago are deleted (default 1 minute).
		 * @param cleanupInterval a positive duration
		 * @return this builder
		 */
		public Builder cleanupInterval(Duration cleanupInterval) {
			this.cleanupInterval = positive(cleanupInterval, "cleanupInterval");
			return this;
		}

		/**
		 * Set how many rows one cleanup statement deletes at most (default 500).
		 * @param cleanupBatchSize a positive number
		 * @return this builder
		 */
		public Builder cleanupBatchSize(int cleanupBatchSize) {
			this.cleanupBatchSize = positive(cleanupBatchSize, "cleanupBatchSize");
			return this;
		}

		/**
		 * Set what opens the dedicated connection of a PostgreSQL store's release
		 * listener, outside the application's pool (default: none, the listener keeps one
		 * connection of the store's {@code DataSource}).
		 * @param listenerConnectionFactory the factory, or {@code null}
		 * @return this builder
		 */
		public Builder listenerConnectionFactory(@Nullable ListenerConnectionFactory listenerConnectionFactory) {
			this.listenerConnectionFactory = listenerConnectionFactory;
			return this;
		}

		/**
		 * Set how many operations the store runs at once, each on a thread of its
		 * executor with a connection of the pool (default {@code 0}: the pool's maximum
		 * size when the {@code DataSource} tells it, as HikariCP's does, else
		 * {@value JdbcLockStore#DEFAULT_POOL_SIZE}).
		 * @param threads a positive number, or {@code 0}
		 * @return this builder
		 */
		public Builder threads(int threads) {
			Assert.isTrue(threads >= 0, () -> "'threads' must not be negative, but was " + threads);
			this.threads = threads;
			return this;
		}

		/**
		 * Build the settings.
		 * @return the settings
		 */
		public JdbcLockStoreSettings build() {
			return new JdbcLockStoreSettings(this);
		}

	}

}
