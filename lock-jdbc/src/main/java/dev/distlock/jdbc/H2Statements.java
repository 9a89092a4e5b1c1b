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
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The statements of a {@link JdbcLockStore} on H2: an acquisition in one {@code MERGE},
 * fencing tokens from the table's sequence, releases found by polling, {@code FOR UPDATE}
 * for the ownership check in the caller's transaction (H2 has no shared row lock), no
 * query timeouts (embedded, H2 bounds its lock waits by its own lock timeout, and a query
 * timeout costs it a command per statement), and the isolation set on the connection.
 *
 * @author distlock
 */
final class H2Statements extends LockStatements {

	private final String insertRow;

	private final String nextFence;

	H2Statements(String table, Duration commandTimeout) {
		super(table, commandTimeout, JdbcDialect.H2.nowMillis(), "0", "TRUE", " FOR UPDATE");
		this.insertRow = "INSERT INTO " + table + " (" + COLUMNS + ") VALUES (?, NULL, TRUE, 0, 0)";
		this.nextFence = "SELECT (NEXT VALUE FOR " + table + "_fence_seq) * " + FENCE_ROOM;
	}

	@Override
	boolean boundsStatements() {
		return false;
	}

	@Override
	int readCommitted(Connection connection, int isolation) throws SQLException {
		connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
		return isolation;
	}

	@Override
	void insertRow(Connection connection, String key) throws SQLException {
		try (PreparedStatement statement = prepare(connection, this.insertRow)) {
			text(statement, 1, key);
			statement.executeUpdate();
		}
		catch (SQLException ex) {
			// H2 has no insert-if-missing: another transaction inserted the row first,
			// and
			// its row lock decides now
			if (!"23505".equals(ex.getSQLState())) {
				throw ex;
			}
		}
	}

	@Override
	long nextFence(Connection connection, Row row) throws SQLException {
		try (PreparedStatement statement = prepare(connection, this.nextFence);
				ResultSet rows = statement.executeQuery()) {
			rows.next();
			return rows.getLong(1);
		}
	}

	@Override
	String cleanup() {
		return "DELETE FROM " + this.table + " WHERE expires_at < " + this.now + " - ? FETCH FIRST ? ROWS ONLY";
	}

}
