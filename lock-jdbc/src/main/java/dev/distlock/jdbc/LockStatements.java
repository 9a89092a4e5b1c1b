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
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.distlock.LogSafe;
import dev.distlock.store.LocalHandOverExtension;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.LockStore.Renewal;
import org.jspecify.annotations.Nullable;

/**
 * The statements of a {@link JdbcLockStore} on one database and table, each SQL text
 * beside the code that binds its parameters and reads its result: one subclass per
 * database ({@link PostgresStatements}, {@link MySqlStatements}, {@link H2Statements}),
 * so that a new database is a new subclass. Every statement reads the time from the
 * database's clock ({@link #now}, in milliseconds since the epoch). A row holds a lock
 * when it is not released and its {@code expires_at} is still ahead of that clock.
 * <p>
 * Taking a lock in a transaction locks and reads its row ({@link #lockAndRead}, inserting
 * the row if it is missing); a row found held whose lease may have ended while that
 * statement waited is read again, so that expiry is judged after any wait for the row
 * lock. A free row is granted with the next fencing token ({@link #nextFence}), drawn
 * while the row lock is held. A released row stays in the table, marked released with its
 * owner's token, so that a replayed release answers as the first did; the cleanup deletes
 * rows whose lease ended more than {@link #CLEANUP_GRACE} ago.
 *
 * @author distlock
 */
abstract class LockStatements {

	/**
	 * How long after its lease ended a row may be deleted.
	 */
	static final Duration CLEANUP_GRACE = Duration.ofMinutes(1);

	static final String COLUMNS = "lock_key, owner_token, released, expires_at, fencing_token";

	/**
	 * The spacing of the fencing tokens drawn from a sequence: each is the sequence's
	 * value times this room ({@link LocalHandOverExtension}).
	 */
	static final long FENCE_ROOM = LocalHandOverExtension.DEFAULT_FENCE_ROOM;

	private static final int KEYS_PER_POLL_STATEMENT = 500;

	final String table;

	/** The SQL of the database's clock in milliseconds since the epoch. */
	final String now;

	/** The condition of a row that holds its lock. */
	final String live;

	private final String readRow;

	private final String grant;

	private final String extend;

	/** The release of a lock its token holds. */
	final String release;

	private final String releasedBy;

	private final String expireAfter;

	private final String isOwner;

	private final String isOwnerInTransaction;

	private final String inspect;

	private final String forceRelease;

	private final int queryTimeoutSeconds;

	/**
	 * Create the statements of {@code table}.
	 * @param table the lock table's name, checked
	 * @param now the SQL of the database's clock in milliseconds since the epoch
	 * @param nextFenceColumn the SQL of the next fencing token by the rule of a database
	 * without sequences, read with a row, or {@code "0"}
	 * @param othersWaitColumn the SQL of whether a waiter is recorded in the row, on a
	 * database whose releases tell only recorded waiters, else {@code "TRUE"}: anyone may
	 * wait
	 * @param shareLock the clause that keeps other writers of a selected row out until
	 * the transaction ends, with a leading space
	 * @param commandTimeout the command timeout, rounded up to whole seconds as the query
	 * timeout of each statement
	 */
	LockStatements(String table, Duration commandTimeout, String now, String nextFenceColumn, String othersWaitColumn,
			String shareLock) {
		this.queryTimeoutSeconds = Math.toIntExact(Math.max(1, (commandTimeout.toMillis() + 999) / 1000));
		this.table = JdbcLockStoreSettings.validTableName(table);
		this.now = now;
		this.live = "released = FALSE AND expires_at > " + now;
		this.readRow = "SELECT owner_token, released, fencing_token, expires_at - " + now + ", " + nextFenceColumn
				+ ", " + othersWaitColumn + " FROM " + table + " WHERE lock_key = ? FOR UPDATE";
		this.grant = "UPDATE " + table + " SET owner_token = ?, released = FALSE, expires_at = " + now
				+ " + ?, fencing_token = ? WHERE lock_key = ?";
		this.extend = "UPDATE " + table + " SET expires_at = " + now + " + ? WHERE lock_key = ?";
		this.release = "UPDATE " + table + " SET released = TRUE, expires_at = " + now
				+ " WHERE lock_key = ? AND owner_token = ? AND " + this.live;
		this.releasedBy = "SELECT 1 FROM " + table + " WHERE lock_key = ? AND owner_token = ? AND released = TRUE";
		this.expireAfter = "UPDATE " + table + " SET expires_at = " + now
				+ " + ? WHERE lock_key = ? AND owner_token = ? AND " + this.live;
		this.isOwner = "SELECT 1 FROM " + table + " WHERE lock_key = ? AND owner_token = ? AND " + this.live;
		this.isOwnerInTransaction = this.isOwner + shareLock;
		this.inspect = "SELECT owner_token, released, fencing_token, expires_at - " + now + ", 0, TRUE FROM " + table
				+ " WHERE lock_key = ?";
		this.forceRelease = "UPDATE " + table + " SET owner_token = NULL, released = TRUE, expires_at = " + now
				+ " WHERE lock_key = ?";
	}

	/**
	 * Return the PostgreSQL notification channel of releases: the table's name.
	 */
	String channel() {
		return this.table.toLowerCase(Locale.ROOT);
	}

	/**
	 * Prepare {@code sql} as {@link #prepare} does, asking for the generated keys (on
	 * MySQL and MariaDB, the last value given to {@code LAST_INSERT_ID(expr)}).
	 */
	PreparedStatement prepareReturningKey(Connection connection, String sql) throws SQLException {
		PreparedStatement statement = connection.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS);
		if (boundsStatements()) {
			statement.setQueryTimeout(this.queryTimeoutSeconds);
		}
		return statement;
	}

	// Binders

	/**
	 * Prepare {@code sql} with the command timeout as its query timeout, unless the
	 * database bounds its statements otherwise ({@link #boundsStatements}).
	 */
	PreparedStatement prepare(Connection connection, String sql) throws SQLException {
		PreparedStatement statement = connection.prepareStatement(sql);
		if (boundsStatements()) {
			statement.setQueryTimeout(this.queryTimeoutSeconds);
		}
		return statement;
	}

	/**
	 * Bind a key or token.
	 */
	void text(PreparedStatement statement, int index, String text) throws SQLException {
		statement.setString(index, text);
	}

	/**
	 * Read a key or token column.
	 */
	@Nullable String text(ResultSet row, int column) throws SQLException {
		return row.getString(column);
	}

	static void millis(PreparedStatement statement, int index, Duration duration) throws SQLException {
		statement.setLong(index, Math.max(1, duration.toMillis()));
	}

	// The database and its connections

	/**
	 * Return whether statements get the command timeout as their query timeout.
	 */
	boolean boundsStatements() {
		return true;
	}

	/**
	 * Run the transaction just begun on {@code connection} at READ COMMITTED, its
	 * isolation being {@code isolation}; return the isolation to restore after it, or
	 * {@code -1} for none. This sets the isolation of this one transaction.
	 */
	int readCommitted(Connection connection, int isolation) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
		}
		return -1;
	}

	/**
	 * Fail unless a key of {@code maxKeyLength} fits everything the statements do with
	 * it.
	 */
	void checkMaxKeyLength(int maxKeyLength) {
	}

	/**
	 * Return how long a waiter stays recorded in the key's row, on a database whose
	 * releases tell only recorded waiters, or {@code null} on one whose watcher hears
	 * every release.
	 */
	@Nullable Duration waiterMark() {
		return null;
	}

	/**
	 * Record a waiter for {@code key} for {@link #waiterMark()}, as a refused acquire
	 * does, on a database whose releases tell only recorded waiters.
	 */
	void markWaiter(Connection connection, String key) throws SQLException {
		throw new UnsupportedOperationException("This database's releases tell every listener");
	}

	/**
	 * Return the release watcher of a store on this database.
	 */
	ReleaseWatcher watcher(Connections connections, JdbcLockStoreSettings settings) {
		return new PollingReleaseWatcher(connections, this);
	}

	// Taking a lock

	/**
	 * Take the lock, as {@code LockStore.tryAcquire} says: here in one transaction that
	 * locks and reads the row, then grants or extends it; a database that can do it in
	 * one statement overrides this.
	 */
	Attempt acquire(Connections connections, String key, String token, Duration lease) throws SQLException {
		return connections.inTransaction((connection) -> {
			Row row = lockAndRead(connection, key);
			if (row.heldBy(token)) {
				extend(connection, key, lease);
				return Attempt.granted(row.fence());
			}
			if (row.held()) {
				return Attempt.busy(row.remaining());
			}
			return Attempt.granted(grant(connection, key, token, lease, row));
		});
	}

	/**
	 * Lock the row of {@code key}, inserting a free one if it is missing, and read it
	 * with the database's clock. The statement that locks the row reads the clock too,
	 * maybe before it waited for the row lock: a row it found held whose lease could have
	 * ended while it ran (measured on this JVM's monotonic clock, twice over) is read
	 * again, now that the row lock is held.
	 */
	Row lockAndRead(Connection connection, String key) throws SQLException {
		long started = System.nanoTime();
		Row row = readLocked(connection, key);
		if (row == null) {
			insertRow(connection, key);
			started = System.nanoTime();
			row = readLocked(connection, key);
			if (row == null) {
				throw vanished(key, "taken");
			}
		}
		if (row.held() && mayHaveEnded(row.remainingMillis(), started)) {
			row = readLocked(connection, key);
			if (row == null) {
				throw vanished(key, "locked");
			}
		}
		return row;
	}

	/**
	 * Return whether a lease that had {@code remainingMillis} left when a statement
	 * started at {@code started} (this JVM's monotonic clock) may have ended since.
	 */
	static boolean mayHaveEnded(long remainingMillis, long started) {
		long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
		return remainingMillis <= 2 * elapsedMillis + 1;
	}

	private @Nullable Row readLocked(Connection connection, String key) throws SQLException {
		try (PreparedStatement statement = prepare(connection, this.readRow)) {
			text(statement, 1, key);
			try (ResultSet rows = statement.executeQuery()) {
				return rows.next() ? Row.read(rows, this) : null;
			}
		}
	}

	/**
	 * Insert the free row of {@code key} unless it exists.
	 */
	abstract void insertRow(Connection connection, String key) throws SQLException;

	/**
	 * Return the spacing of the fencing tokens these statements draw: each is a multiple
	 * of it.
	 * @return the room of hand-overs without a request
	 */
	long fenceRoom() {
		return FENCE_ROOM;
	}

	/**
	 * Draw the next fencing token of the row just locked and read.
	 */
	abstract long nextFence(Connection connection, Row row) throws SQLException;

	/**
	 * Grant the locked row to {@code token} with the next fencing token, and return it.
	 */
	long grant(Connection connection, String key, String token, Duration lease, Row row) throws SQLException {
		long fence = nextFence(connection, row);
		try (PreparedStatement statement = prepare(connection, this.grant)) {
			text(statement, 1, token);
			millis(statement, 2, lease);
			statement.setLong(3, fence);
			text(statement, 4, key);
			statement.executeUpdate();
		}
		return fence;
	}

	/**
	 * Extend the lease of the locked row.
	 */
	void extend(Connection connection, String key, Duration lease) throws SQLException {
		try (PreparedStatement statement = prepare(connection, this.extend)) {
			millis(statement, 1, lease);
			text(statement, 2, key);
			statement.executeUpdate();
		}
	}

	// Giving it back, renewing, checking

	/**
	 * Release the lock {@code token} holds, and return whether it did.
	 */
	boolean release(Connection connection, String key, String token) throws SQLException {
		try (PreparedStatement statement = prepare(connection, this.release)) {
			text(statement, 1, key);
			text(statement, 2, token);
			return statement.executeUpdate() == 1;
		}
	}

	/**
	 * Return whether {@code token} released the lock of {@code key} and nobody took it
	 * since.
	 */
	boolean releasedBy(Connection connection, String key, String token) throws SQLException {
		return exists(connection, this.releasedBy, key, token);
	}

	/**
	 * Shorten the lease {@code token} holds, and return whether it did.
	 */
	boolean expireAfter(Connection connection, String key, String token, Duration remaining) throws SQLException {
		try (PreparedStatement statement = prepare(connection, this.expireAfter)) {
			millis(statement, 1, remaining);
			text(statement, 2, key);
			text(statement, 3, token);
			return statement.executeUpdate() == 1;
		}
	}

	/**
	 * Renew the leases of {@code renewals} in one statement, and return the renewed ones.
	 */
	Set<Renewal> renew(Connection connection, List<Renewal> renewals, Duration lease) throws SQLException {
		try (PreparedStatement statement = prepare(connection, renewal(renewals.size()))) {
			millis(statement, 1, lease);
			pairs(statement, 2, renewals);
			if (statement.executeUpdate() == renewals.size()) {
				return new HashSet<>(renewals);
			}
		}
		// Fewer rows renewed than asked: the ones their tokens still hold are the renewed
		// ones
		try (PreparedStatement statement = prepare(connection, "SELECT lock_key, owner_token FROM " + this.table
				+ " WHERE " + this.live + " AND " + pairs(renewals.size()))) {
			pairs(statement, 1, renewals);
			try (ResultSet rows = statement.executeQuery()) {
				return pairs(rows);
			}
		}
	}

	/**
	 * Return the renewal of {@code count} locks in one statement.
	 */
	String renewal(int count) {
		return "UPDATE " + this.table + " SET expires_at = " + this.now + " + ? WHERE " + this.live + " AND "
				+ pairs(count);
	}

	static String pairs(int count) {
		return "(lock_key, owner_token) IN (" + "(?, ?), ".repeat(count - 1) + "(?, ?))";
	}

	void pairs(PreparedStatement statement, int first, List<Renewal> renewals) throws SQLException {
		int index = first;
		for (Renewal renewal : renewals) {
			text(statement, index++, renewal.key());
			text(statement, index++, renewal.token());
		}
	}

	Set<Renewal> pairs(ResultSet rows) throws SQLException {
		Set<Renewal> pairs = new HashSet<>();
		while (rows.next()) {
			String key = text(rows, 1);
			String token = text(rows, 2);
			if (key != null && token != null) {
				pairs.add(new Renewal(key, token));
			}
		}
		return pairs;
	}

	/**
	 * Return whether {@code token} holds the lock of {@code key}.
	 */
	boolean isOwner(Connection connection, String key, String token) throws SQLException {
		return exists(connection, this.isOwner, key, token);
	}

	/**
	 * Check an owner on the connection of the caller's transaction, taking a row lock
	 * that keeps any other writer of the row out until that transaction ends.
	 */
	boolean isOwnerInTransaction(Connection connection, String key, String token) throws SQLException {
		return exists(connection, this.isOwnerInTransaction, key, token);
	}

	private boolean exists(Connection connection, String query, String key, String token) throws SQLException {
		try (PreparedStatement statement = prepare(connection, query)) {
			text(statement, 1, key);
			text(statement, 2, token);
			try (ResultSet rows = statement.executeQuery()) {
				return rows.next();
			}
		}
	}

	// Operators' statements

	/**
	 * Read the row of {@code key} without locking it, or {@code null} if it is missing.
	 */
	@Nullable Row inspect(Connection connection, String key) throws SQLException {
		try (PreparedStatement statement = prepare(connection, this.inspect)) {
			text(statement, 1, key);
			try (ResultSet rows = statement.executeQuery()) {
				return rows.next() ? Row.read(rows, this) : null;
			}
		}
	}

	/**
	 * Free the locked row of {@code key}, in the transaction that locked it.
	 */
	void forceRelease(Connection connection, String key) throws SQLException {
		try (PreparedStatement statement = prepare(connection, this.forceRelease)) {
			text(statement, 1, key);
			statement.executeUpdate();
		}
	}

	/**
	 * Delete at most {@code batchSize} rows whose lease ended more than
	 * {@link #CLEANUP_GRACE} ago, in one statement, and return how many were.
	 */
	int cleanUp(Connection connection, int batchSize) throws SQLException {
		try (PreparedStatement statement = prepare(connection, cleanup())) {
			statement.setLong(1, CLEANUP_GRACE.toMillis());
			statement.setInt(2, batchSize);
			return statement.executeUpdate();
		}
	}

	/**
	 * Return the cleanup statement: its parameters are the grace in milliseconds and the
	 * batch size.
	 */
	abstract String cleanup();

	/**
	 * Return the held keys among {@code keys}, in one statement per
	 * {@value #KEYS_PER_POLL_STATEMENT} keys.
	 */
	Set<String> heldAmong(Connection connection, List<String> keys) throws SQLException {
		Set<String> held = new HashSet<>();
		for (int from = 0; from < keys.size(); from += KEYS_PER_POLL_STATEMENT) {
			List<String> chunk = keys.subList(from, Math.min(keys.size(), from + KEYS_PER_POLL_STATEMENT));
			try (PreparedStatement statement = prepare(connection, "SELECT lock_key FROM " + this.table + " WHERE "
					+ this.live + " AND lock_key IN (" + "?, ".repeat(chunk.size() - 1) + "?)")) {
				for (int i = 0; i < chunk.size(); i++) {
					text(statement, i + 1, chunk.get(i));
				}
				try (ResultSet rows = statement.executeQuery()) {
					while (rows.next()) {
						String key = text(rows, 1);
						if (key != null) {
							held.add(key);
						}
					}
				}
			}
		}
		return held;
	}

	/**
	 * Return the failure of a row that vanished while it was {@code taken} or
	 * {@code locked}, its key escaped: it reaches logs as the cause of a
	 * {@code LockBackendException}.
	 */
	static SQLException vanished(String key, String state) {
		return new SQLException("The row of lock '" + LogSafe.escape(key) + "' vanished while it was " + state);
	}

	/**
	 * A lock's row as read with the database's clock.
	 *
	 * @param owner the owner token, or {@code null}
	 * @param released whether the row was released
	 * @param fence the last fencing token
	 * @param remainingMillis how long the lease has left, negative when it ended
	 * @param nextFence the next fencing token by the rule of a database without sequences
	 * @param othersMayWait whether another client may wait for the lock: a waiter is
	 * recorded in the row, or the database records none
	 */
	record Row(@Nullable String owner, boolean released, long fence, long remainingMillis, long nextFence,
			boolean othersMayWait) {

		static Row read(ResultSet rows, LockStatements statements) throws SQLException {
			return new Row(statements.text(rows, 1), rows.getBoolean(2), rows.getLong(3), rows.getLong(4),
					rows.getLong(5), rows.getBoolean(6));
		}

		boolean held() {
			return this.owner != null && !this.released && this.remainingMillis > 0;
		}

		boolean heldBy(String token) {
			return held() && token.equals(this.owner);
		}

		Duration remaining() {
			return Duration.ofMillis(Math.max(0, this.remainingMillis));
		}

	}

}
