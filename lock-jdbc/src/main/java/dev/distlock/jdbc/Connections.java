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
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

/**
 * Borrows a connection of the store's {@code DataSource} for one statement or one short
 * transaction and returns it at once; every statement it prepares is bounded by the
 * command timeout, and every borrowed connection by a network timeout a little longer.
 * <ul>
 * <li>A statement run outside a transaction of the store's own commits, whatever the
 * pool's auto-commit default: on a connection not in auto-commit mode the store commits
 * it explicitly (one more round trip, none when the pool auto-commits).</li>
 * <li>The store's own transactions run at READ COMMITTED whatever the pool's default
 * isolation, which is read once, from the first transaction's connection; a connection
 * whose isolation had to be changed gets its own back before it returns to the pool.</li>
 * <li>A statement or transaction the database chose as a deadlock victim runs again,
 * twice at most, unless its caller already gave up.</li>
 * </ul>
 *
 * @author distlock
 */
final class Connections {

	/**
	 * How much longer than the statement's timeout a socket read may block, so that the
	 * database's own cancel answers first.
	 */
	static final Duration NETWORK_TIMEOUT_MARGIN = Duration.ofSeconds(1);

	private static final int MAX_RETRIES = 2;

	private static final int UNKNOWN = -1;

	private static final Executor DIRECT = Runnable::run;

	private final DataSource dataSource;

	private final LockStatements statements;

	private final int networkTimeoutMillis;

	private final BooleanSupplier callerGaveUp;

	private volatile int defaultIsolation = UNKNOWN;

	/**
	 * Create the connections of a store on the database of {@code statements} (which
	 * bound each statement by the command timeout themselves); {@code callerGaveUp} tells
	 * the running operation whether its caller's stage is already done.
	 */
	Connections(DataSource dataSource, Duration commandTimeout, LockStatements statements,
			BooleanSupplier callerGaveUp) {
		this.dataSource = dataSource;
		this.statements = statements;
		this.networkTimeoutMillis = networkTimeoutMillis(commandTimeout);
		this.callerGaveUp = callerGaveUp;
	}

	/**
	 * Return the network timeout of a connection whose statements are bounded by
	 * {@code commandTimeout}: the command timeout rounded up to whole seconds, plus
	 * {@link #NETWORK_TIMEOUT_MARGIN}.
	 */
	static int networkTimeoutMillis(Duration commandTimeout) {
		long seconds = Math.max(1, (commandTimeout.toMillis() + 999) / 1000);
		return Math.toIntExact(seconds * 1000 + NETWORK_TIMEOUT_MARGIN.toMillis());
	}

	DataSource dataSource() {
		return this.dataSource;
	}

	/**
	 * Run {@code work} on a borrowed connection, committed when it returns: by
	 * auto-commit, or by an explicit commit on a connection not in auto-commit mode. A
	 * statement the database chose as a deadlock victim was rolled back, so the work (one
	 * conditional statement, or one and a read) is run again, twice at most: on MariaDB a
	 * release can deadlock with a renewal of the same row.
	 */
	<T extends @Nullable Object> T withConnection(Work<T> work) throws SQLException {
		for (int attempt = 1;; attempt++) {
			try (Borrowed borrowed = borrow()) {
				Connection connection = borrowed.connection;
				if (connection.getAutoCommit()) {
					return work.run(connection);
				}
				return committed(connection, work);
			}
			catch (SQLException ex) {
				if (!retry(attempt, ex)) {
					throw ex;
				}
			}
		}
	}

	/**
	 * Run {@code work}, one statement that must run at READ COMMITTED (an upsert that
	 * waits for a row lock, say), as {@link #withConnection} does when the pool's default
	 * isolation is READ COMMITTED, and else as {@link #inTransaction} does. The default
	 * isolation is read once, by the first transaction of the store's.
	 */
	<T extends @Nullable Object> T atReadCommitted(Work<T> work) throws SQLException {
		int isolation = this.defaultIsolation;
		if (isolation == Connection.TRANSACTION_READ_COMMITTED || isolation == Connection.TRANSACTION_NONE) {
			return withConnection(work);
		}
		return inTransaction(work);
	}

	private static <T extends @Nullable Object> T committed(Connection connection, Work<T> work) throws SQLException {
		try {
			T result = work.run(connection);
			connection.commit();
			return result;
		}
		catch (SQLException | RuntimeException | Error ex) {
			rollbackQuietly(connection, ex);
			throw ex;
		}
	}

	/**
	 * Run {@code work} in one transaction at READ COMMITTED on a borrowed connection:
	 * committed if it returns, rolled back if it throws or asks for it with
	 * {@link RollbackAndReturn}. A transaction the database chose as a deadlock victim is
	 * run again, twice at most.
	 */
	<T extends @Nullable Object> T inTransaction(Work<T> work) throws SQLException {
		for (int attempt = 1;; attempt++) {
			try {
				return inOneTransaction(work);
			}
			catch (SQLException ex) {
				if (!retry(attempt, ex)) {
					throw ex;
				}
			}
		}
	}

	private boolean retry(int attempt, SQLException ex) {
		return attempt <= MAX_RETRIES && isDeadlock(ex) && !this.callerGaveUp.getAsBoolean();
	}

	private static boolean isDeadlock(SQLException ex) {
		return "40001".equals(ex.getSQLState()) || "40P01".equals(ex.getSQLState());
	}

	private <T extends @Nullable Object> T inOneTransaction(Work<T> work) throws SQLException {
		try (Borrowed borrowed = borrow()) {
			Connection connection = borrowed.connection;
			boolean autoCommit = connection.getAutoCommit();
			if (autoCommit) {
				connection.setAutoCommit(false);
			}
			int isolation = UNKNOWN;
			try {
				isolation = readCommitted(connection);
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
				if (isolation != UNKNOWN) {
					connection.setTransactionIsolation(isolation);
				}
				if (autoCommit) {
					connection.setAutoCommit(true);
				}
			}
		}
	}

	/**
	 * Run the transaction just begun on {@code connection} at READ COMMITTED unless the
	 * pool's default isolation is already that, and return the isolation to restore after
	 * it, or {@link #UNKNOWN} for none. PostgreSQL, MySQL and MariaDB set the isolation
	 * of this one transaction ({@code SET TRANSACTION}), which costs one statement and
	 * nothing to restore; H2 sets the connection's
	 * ({@link LockStatements#readCommitted}).
	 */
	private int readCommitted(Connection connection) throws SQLException {
		int isolation = this.defaultIsolation;
		if (isolation == UNKNOWN) {
			isolation = connection.getTransactionIsolation();
			this.defaultIsolation = isolation;
		}
		if (isolation == Connection.TRANSACTION_READ_COMMITTED || isolation == Connection.TRANSACTION_NONE) {
			return UNKNOWN;
		}
		return this.statements.readCommitted(connection, isolation);
	}

	/**
	 * Borrow a connection and bound its socket reads by the network timeout; the
	 * connection's own timeout is restored before it returns to the pool.
	 */
	private Borrowed borrow() throws SQLException {
		Connection connection = this.dataSource.getConnection();
		try {
			int previous = connection.getNetworkTimeout();
			if (previous != this.networkTimeoutMillis) {
				connection.setNetworkTimeout(DIRECT, this.networkTimeoutMillis);
			}
			return new Borrowed(connection, previous);
		}
		catch (SQLException | RuntimeException ex) {
			closeQuietly(connection, ex);
			throw ex;
		}
	}

	/**
	 * Bound the socket reads of a connection of the store's own (the release listener's)
	 * as those of a borrowed one.
	 */
	static void bound(Connection connection, Duration commandTimeout) throws SQLException {
		connection.setNetworkTimeout(DIRECT, networkTimeoutMillis(commandTimeout));
	}

	private static void closeQuietly(Connection connection, Throwable failure) {
		try {
			connection.close();
		}
		catch (SQLException ex) {
			failure.addSuppressed(ex);
		}
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
	 * A borrowed connection, with the network timeout it had before.
	 */
	private record Borrowed(Connection connection, int networkTimeout) implements AutoCloseable {

		@Override
		public void close() throws SQLException {
			try {
				if (!this.connection.isClosed() && this.networkTimeout != this.connection.getNetworkTimeout()) {
					this.connection.setNetworkTimeout(DIRECT, this.networkTimeout);
				}
			}
			finally {
				this.connection.close();
			}
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
