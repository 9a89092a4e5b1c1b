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

import dev.distlock.store.LockStore.Attempt;
import org.jspecify.annotations.Nullable;

/**
 * The statements of a {@link JdbcLockStore} on MySQL and MariaDB: an acquisition in one
 * conditional update (and an insert for a new key), keys and tokens bound as bytes of
 * UTF-8 (the columns are binary), fencing tokens by the rule "one more than the row's
 * last, and at least the database's clock in microseconds" in units of a room of
 * 2<sup>11</sup> ({@link #fenceRoom()}), releases found by polling, and
 * {@code LOCK IN SHARE MODE} for the ownership check in the caller's transaction.
 *
 * @author distlock
 */
final class MySqlStatements extends LockStatements {

	private static final String MICROS = "TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6))";

	/**
	 * The spacing of the fencing tokens here: 2<sup>11</sup>, so that the clock in
	 * microseconds times the room fits a {@code BIGINT} until the year 2112 (past it, the
	 * statement fails).
	 */
	private static final long ROOM = 1L << 11;

	/**
	 * The next fencing token: the old rule ("one more than the row's last, and at least
	 * the clock in microseconds") on the fencing token divided by the room, times the
	 * room. A row's token of the old rule, unspaced, is below the clock times the room.
	 */
	private static final String NEXT_FENCE = "GREATEST(fencing_token DIV " + ROOM + " + 1, " + MICROS + ") * " + ROOM;

	private final String insertRow;

	private final String acquire;

	private final String insertGranted;

	MySqlStatements(String table, Duration commandTimeout) {
		super(table, commandTimeout, JdbcDialect.MYSQL.nowMillis(), NEXT_FENCE, "TRUE", " LOCK IN SHARE MODE");
		this.insertRow = "INSERT INTO " + table + " (" + COLUMNS + ") VALUES (?, NULL, TRUE, 0, 0) "
				+ "ON DUPLICATE KEY UPDATE lock_key = lock_key";
		String now = this.now;
		// MySQL assigns from left to right: the fence is judged on the row's owner before
		// it changes. LAST_INSERT_ID(x) hands x back in the statement's OK packet: the
		// fence of a grant, or the holder's remaining lease of a refusal
		this.acquire = "UPDATE " + table + " SET fencing_token = LAST_INSERT_ID(IF(owner_token = ? AND " + this.live
				+ ", fencing_token, " + NEXT_FENCE + ")), owner_token = ?, released = FALSE, " + "expires_at = " + now
				+ " + ? WHERE lock_key = ? AND IF(released = TRUE OR expires_at <= " + now
				+ " OR owner_token = ?, TRUE, LAST_INSERT_ID(expires_at - " + now + ") AND FALSE)";
		this.insertGranted = "INSERT INTO " + table + " (" + COLUMNS + ") VALUES (?, ?, FALSE, " + now
				+ " + ?, LAST_INSERT_ID(GREATEST(1, " + MICROS + ") * " + ROOM + ")) "
				+ "ON DUPLICATE KEY UPDATE fencing_token = fencing_token + LAST_INSERT_ID(0)";
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Here a conditional update that grants the row if it is free, extends it if
	 * {@code token} holds it, or hands back the holder's remaining lease; for a key
	 * without a row, an insert of a granted one follows (a row another caller inserted
	 * meanwhile goes back to the update). MySQL reads the clock once per statement,
	 * before any wait for the row lock: a refusal whose lease may have ended during the
	 * statement is tried once more.
	 */
	@Override
	Attempt acquire(Connections connections, String key, String token, Duration lease) throws SQLException {
		return connections.withConnection((connection) -> {
			boolean triedAgain = false;
			for (int round = 0; round < 3; round++) {
				long started = System.nanoTime();
				try (PreparedStatement statement = prepareReturningKey(connection, this.acquire)) {
					text(statement, 1, token);
					text(statement, 2, token);
					millis(statement, 3, lease);
					text(statement, 4, key);
					text(statement, 5, token);
					boolean granted = statement.executeUpdate() == 1;
					long value = lastInsertId(statement);
					if (granted) {
						return Attempt.granted(value);
					}
					if (value > 0) {
						if (triedAgain || !mayHaveEnded(value, started)) {
							return Attempt.busy(Duration.ofMillis(value));
						}
						triedAgain = true;
						continue;
					}
				}
				try (PreparedStatement statement = prepareReturningKey(connection, this.insertGranted)) {
					text(statement, 1, key);
					text(statement, 2, token);
					millis(statement, 3, lease);
					statement.executeUpdate();
					long fence = lastInsertId(statement);
					if (fence > 0) {
						return Attempt.granted(fence);
					}
				}
			}
			return Attempt.busy(null);
		});
	}

	/**
	 * Return the value the statement gave to {@code LAST_INSERT_ID(expr)}, or {@code 0}
	 * if it gave none.
	 */
	private static long lastInsertId(PreparedStatement statement) throws SQLException {
		try (ResultSet keys = statement.getGeneratedKeys()) {
			return keys.next() ? keys.getLong(1) : 0;
		}
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
	long fenceRoom() {
		return ROOM;
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
