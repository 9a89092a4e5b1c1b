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
import java.util.List;
import java.util.Set;

import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.LockStore.Renewal;
import dev.distlock.store.ReadWriteTiming;
import dev.distlock.jdbc.JdbcLockStoreSettings.ListenerConnectionFactory;
import org.jspecify.annotations.Nullable;

/**
 * The statements of a {@link JdbcLockStore} on PostgreSQL: an acquisition in one upsert,
 * whose refusal records its waiter in the row ({@code waiters_until}), fencing tokens
 * from the table's sequence, releases notified on the table's channel ({@code pg_notify},
 * heard by a {@link PostgresReleaseWatcher}) only while a waiter is recorded, and
 * committed without waiting for the flush ({@code synchronous_commit} off for that
 * transaction only), renewals that return what they renewed, and {@code FOR SHARE} for
 * the ownership check in the caller's transaction.
 *
 * @author distlock
 */
final class PostgresStatements extends LockStatements {

	/**
	 * PostgreSQL's limit on a {@code NOTIFY} payload, in bytes.
	 */
	static final int MAX_NOTIFY_PAYLOAD = 8000;

	private static final Duration RECONNECT_DELAY = Duration.ofMillis(500);

	/**
	 * How long a refused waiter stays recorded as waiting for a key: three times the
	 * longest a waiting client goes without asking again
	 * ({@link ReadWriteTiming#MAX_RECHECK}), each refusal refreshing it once half of it
	 * passed.
	 */
	static final Duration WAITER_MARK = ReadWriteTiming.MAX_RECHECK.multipliedBy(3);

	private final String insertRow;

	private final String nextFence;

	private final String acquire;

	private final String notifyingRelease;

	private final String notify = "SELECT pg_notify(?, ?)";

	private final String markWaiter;

	PostgresStatements(String table, Duration commandTimeout) {
		super(table, commandTimeout, JdbcDialect.POSTGRESQL.nowMillis(), "0",
				"waiters_until > " + JdbcDialect.POSTGRESQL.nowMillis(), " FOR SHARE");
		this.insertRow = "INSERT INTO " + table + " (" + COLUMNS + ") VALUES (?, NULL, TRUE, 0, 0) "
				+ "ON CONFLICT (lock_key) DO NOTHING";
		// Fencing tokens spaced by the room of hand-overs without a request: bigint
		// overflows (and the statement fails) only past 2^47 values of the sequence
		this.nextFence = "SELECT nextval('" + table + "_fence_seq') * " + FENCE_ROOM;
		String now = this.now;
		String sequence = "(nextval('" + table + "_fence_seq') * " + FENCE_ROOM + ")";
		// The WHERE and the clock of the update run on the row's latest version, after
		// any wait for its lock, and the fence is drawn then. A refusal records its
		// waiter (waiters_until, refreshed once half of it passed, committed without
		// waiting for the flush: a lost mark only leaves the waiter to its re-check)
		// and reads the holder's remaining lease from the statement's snapshot
		this.acquire = "WITH granted AS (INSERT INTO " + table + " AS l (" + COLUMNS + ") VALUES (?, ?, FALSE, " + now
				+ " + ?, " + sequence + ") ON CONFLICT (lock_key) DO UPDATE SET fencing_token = CASE WHEN "
				+ "l.owner_token = EXCLUDED.owner_token AND l.released = FALSE AND l.expires_at > " + now
				+ " THEN l.fencing_token ELSE " + sequence + " END, owner_token = EXCLUDED.owner_token, "
				+ "released = FALSE, expires_at = " + now + " + ? WHERE l.released OR l.expires_at <= " + now
				+ " OR l.owner_token = EXCLUDED.owner_token RETURNING l.fencing_token), " + "marked AS (UPDATE " + table
				+ " SET waiters_until = " + now + " + " + WAITER_MARK.toMillis()
				+ " WHERE lock_key = ? AND waiters_until < " + now + " + " + WAITER_MARK.dividedBy(2).toMillis()
				+ " AND NOT EXISTS (SELECT 1 FROM granted) RETURNING set_config('synchronous_commit', 'off', true)) "
				+ "SELECT fencing_token, NULL::BIGINT FROM granted UNION ALL SELECT NULL, expires_at - " + now
				+ " FROM " + table + " WHERE lock_key = ? AND NOT EXISTS (SELECT 1 FROM granted)";
		// A subscription records its waiter as a refusal does, on a row of its own if the
		// key has none yet (a free one: a later acquire draws its fence as for any row)
		this.markWaiter = "INSERT INTO " + table + " AS l (" + COLUMNS
				+ ", waiters_until) VALUES (?, NULL, TRUE, 0, 0, " + now + " + " + WAITER_MARK.toMillis()
				+ ") ON CONFLICT (lock_key) DO UPDATE SET waiters_until = "
				+ "EXCLUDED.waiters_until WHERE l.waiters_until < " + now + " + " + WAITER_MARK.dividedBy(2).toMillis()
				+ " RETURNING set_config('synchronous_commit', 'off', true)";
		// The release's own transaction commits without waiting for the flush: one lost
		// in a crash of the server only leaves the lock held to its lease's end, and a
		// later durable commit flushes it first (the log is written in order). It
		// notifies only a key whose waiters are recorded: an uncontended release takes
		// no lock of the whole cluster (NOTIFY's) and wakes no listener
		this.notifyingRelease = "WITH released AS (" + this.release + " RETURNING lock_key, waiters_until > " + now
				+ " AS waited) SELECT CASE WHEN waited THEN pg_notify(?, lock_key) END, "
				+ "set_config('synchronous_commit', 'off', true) FROM released";
	}

	@Override
	void checkMaxKeyLength(int maxKeyLength) {
		if (maxKeyLength >= MAX_NOTIFY_PAYLOAD) {
			throw new IllegalArgumentException("'maxKeyLength' must be below " + MAX_NOTIFY_PAYLOAD
					+ " bytes, the payload limit of PostgreSQL's NOTIFY, but was " + maxKeyLength);
		}
	}

	@Override
	ReleaseWatcher watcher(Connections connections, JdbcLockStoreSettings settings) {
		ListenerConnectionFactory factory = settings.listenerConnectionFactory();
		return new PostgresReleaseWatcher((factory != null) ? factory : connections.dataSource()::getConnection,
				channel(), settings.commandTimeout(), RECONNECT_DELAY);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Here one statement, an upsert: it inserts a granted row for a new key, and else
	 * grants the row if it is free, extends it if {@code token} holds it, or reads the
	 * holder's remaining lease.
	 */
	@Override
	Attempt acquire(Connections connections, String key, String token, Duration lease) throws SQLException {
		return connections.atReadCommitted((connection) -> {
			try (PreparedStatement statement = prepare(connection, this.acquire)) {
				text(statement, 1, key);
				text(statement, 2, token);
				millis(statement, 3, lease);
				millis(statement, 4, lease);
				text(statement, 5, key);
				text(statement, 6, key);
				try (ResultSet rows = statement.executeQuery()) {
					if (!rows.next()) {
						return Attempt.busy(null);
					}
					long fence = rows.getLong(1);
					if (!rows.wasNull()) {
						return Attempt.granted(fence);
					}
					long remaining = rows.getLong(2);
					return Attempt.busy((remaining > 0) ? Duration.ofMillis(remaining) : null);
				}
			}
		});
	}

	@Override
	void insertRow(Connection connection, String key) throws SQLException {
		try (PreparedStatement statement = prepare(connection, this.insertRow)) {
			text(statement, 1, key);
			statement.executeUpdate();
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
	@Nullable Duration waiterMark() {
		return WAITER_MARK;
	}

	@Override
	void markWaiter(Connection connection, String key) throws SQLException {
		try (PreparedStatement statement = prepare(connection, this.markWaiter)) {
			text(statement, 1, key);
			statement.execute();
		}
	}

	@Override
	boolean release(Connection connection, String key, String token) throws SQLException {
		try (PreparedStatement statement = prepare(connection, this.notifyingRelease)) {
			text(statement, 1, key);
			text(statement, 2, token);
			statement.setString(3, channel());
			try (ResultSet rows = statement.executeQuery()) {
				return rows.next();
			}
		}
	}

	@Override
	Set<Renewal> renew(Connection connection, List<Renewal> renewals, Duration lease) throws SQLException {
		try (PreparedStatement statement = prepare(connection,
				renewal(renewals.size()) + " RETURNING lock_key, owner_token")) {
			millis(statement, 1, lease);
			pairs(statement, 2, renewals);
			try (ResultSet rows = statement.executeQuery()) {
				return pairs(rows);
			}
		}
	}

	@Override
	void forceRelease(Connection connection, String key) throws SQLException {
		super.forceRelease(connection, key);
		try (PreparedStatement statement = prepare(connection, this.notify)) {
			statement.setString(1, channel());
			statement.setString(2, key);
			statement.execute();
		}
	}

	@Override
	String cleanup() {
		return "DELETE FROM " + this.table + " WHERE lock_key IN (SELECT lock_key FROM " + this.table
				+ " WHERE expires_at < " + this.now + " - ? LIMIT ? FOR UPDATE SKIP LOCKED)";
	}

}
