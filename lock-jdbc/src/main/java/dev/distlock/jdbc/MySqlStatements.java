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

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The statements of a {@link JdbcLockStore} on MySQL and MariaDB: keys and tokens bound
 * as bytes of UTF-8 (the columns are binary), fencing tokens by the rule "one more than
 * the row's last, and at least the database's clock in microseconds", releases found by
 * polling, and {@code LOCK IN SHARE MODE} for the ownership check in the caller's
 * transaction.
 *
 * @author distlock
 */
final class MySqlStatements extends LockStatements {

	private static final String MICROS = "TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6))";

	private final String insertRow;

	MySqlStatements(String table, Duration commandTimeout) {
		super(table, commandTimeout, JdbcDialect.MYSQL.nowMillis(), "GREATEST(fencing_token + 1, " + MICROS + ")",
				" LOCK IN SHARE MODE");
		this.insertRow = "INSERT INTO " + table + " (" + COLUMNS + ") VALUES (?, NULL, TRUE, 0, 0) "
				+ "ON DUPLICATE KEY UPDATE lock_key = lock_key";
	}

	@Override
	void text(PreparedStatement statement, int index, String text) throws SQLException {
		statement.setBytes(index, text.getBytes(StandardCharsets.UTF_8));
	}

	@Override
	@Nullable String text(ResultSet row, int column) throws SQLException {
		byte[] bytes = row.getBytes(column);
		return (bytes != null) ? new String(bytes, StandardCharsets.UTF_8) : null;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * InnoDB: a locking read of a missing row takes a gap lock, and two callers inserting
	 * the same key after one would deadlock; the insert, first, locks the row.
	 */
	@Override
	Row lockAndRead(Connection connection, String key) throws SQLException {
		insertRow(connection, key);
		return super.lockAndRead(connection, key);
	}

	@Override
	void insertRow(Connection connection, String key) throws SQLException {
		try (PreparedStatement statement = prepare(connection, this.insertRow)) {
			text(statement, 1, key);
			statement.executeUpdate();
		}
	}

	@Override
	long nextFence(Connection connection, Row row) {
		return row.nextFence();
	}

	@Override
	String cleanup() {
		return "DELETE FROM " + this.table + " WHERE expires_at < " + this.now + " - ? LIMIT ?";
	}

}
