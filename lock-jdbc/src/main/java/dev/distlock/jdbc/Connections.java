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
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

/**
 * Borrows a connection of the store's {@code DataSource} for one statement or one short
 * transaction and returns it at once; every statement it prepares is bounded by the
 * command timeout.
 *
 * @author distlock
 */
final class Connections {

	private static final int MAX_RETRIES = 2;

	private final DataSource dataSource;

	private final int queryTimeoutSeconds;

	/**
	 * Create the connections of a store; {@code boundStatements} tells whether each
	 * statement gets the command timeout as its query timeout (H2, embedded, bounds its
	 * lock waits by its own lock timeout instead, and a query timeout costs it a command
	 * per statement).
	 */
	Connections(DataSource dataSource, Duration commandTimeout, boolean boundStatements) {
		this.dataSource = dataSource;
		this.queryTimeoutSeconds = boundStatements ? (int) Math.max(1, (commandTimeout.toMillis() + 999) / 1000) : 0;
	}

	DataSource dataSource() {
		return this.dataSource;
	}

	/**
	 * Run {@code work} on a borrowed connection in auto-commit mode. A statement the
	 * database chose as a deadlock victim was rolled back, so the work (one conditional
	 * statement, or one and a read) is run again, twice at most: on MariaDB a release can
	 * deadlock with a renewal of the same row.
	 */
	<T extends @Nullable Object> T withConnection(Work<T> work) throws SQLException {
		for (int attempt = 1;; attempt++) {
			try (Connection connection = this.dataSource.getConnection()) {
				return work.run(connection);
			}
			catch (SQLException ex) {
				if (attempt > MAX_RETRIES || !isDeadlock(ex)) {
					throw ex;
				}
			}
		}
	}

	/**
	 * Run {@code work} in one transaction on a borrowed connection: committed if it
	 * returns, rolled back if it throws or asks for it with {@link RollbackAndReturn}. A
	 * transaction the database chose as a deadlock victim is run again, twice at most.
	 */
	<T extends @Nullable Object> T inTransaction(Work<T> work) throws SQLException {
		for (int attempt = 1;; attempt++) {
			try {
				return inOneTransaction(work);
			}
			catch (SQLException ex) {
				if (attempt > MAX_RETRIES || !isDeadlock(ex)) {
					throw ex;
				}
			}
		}
	}

	private static boolean isDeadlock(SQLException ex) {
		return "40001".equals(ex.getSQLState()) || "40P01".equals(ex.getSQLState());
	}

	private <T extends @Nullable Object> T inOneTransaction(Work<T> work) throws SQLException {
		try (Connection connection = this.dataSource.getConnection()) {
			boolean autoCommit = connection.getAutoCommit();
			if (autoCommit) {
				connection.setAutoCommit(false);
			}
			try {
				T result = work.run(connection);
				connection.commit();
				return result;
			}
			catch (RollbackAndReturn ex) {
				connection.rollback();
				@SuppressWarnings("unchecked")
				T result = (T) ex.result;
				return result;
			}
			catch (SQLException | RuntimeException | Error ex) {
				rollbackQuietly(connection, ex);
				throw ex;
			}
			finally {
				if (autoCommit) {
					connection.setAutoCommit(true);
				}
			}
		}
	}

	/**
	 * Prepare {@code sql} with the command timeout.
	 */
	PreparedStatement prepare(Connection connection, String sql) throws SQLException {
		PreparedStatement statement = connection.prepareStatement(sql);
		if (this.queryTimeoutSeconds > 0) {
			statement.setQueryTimeout(this.queryTimeoutSeconds);
		}
		return statement;
	}

	private static void rollbackQuietly(Connection connection, Throwable failure) {
		try {
			connection.rollback();
		}
		catch (SQLException ex) {
			failure.addSuppressed(ex);
		}
	}

	/**
	 * Work on a connection.
	 *
	 * @param <T> the result
	 */
	@FunctionalInterface
	interface Work<T extends @Nullable Object> {

		T run(Connection connection) throws SQLException;

	}

	/**
	 * Thrown by a transaction's work to roll back and return a result.
	 */
	static final class RollbackAndReturn extends RuntimeException {

		private final transient Object result;

		RollbackAndReturn(Object result) {
			super(null, null, false, false);
			this.result = result;
		}

	}

}
