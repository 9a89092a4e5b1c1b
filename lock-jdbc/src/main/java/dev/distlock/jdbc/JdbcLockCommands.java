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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.distlock.LogSafe;
import dev.distlock.store.BlockingLockStore;
import dev.distlock.store.InspectionExtension.KeyState;
import dev.distlock.jdbc.Connections.RollbackAndReturn;
import org.jspecify.annotations.Nullable;

/**
 * The blocking operations of a {@link JdbcLockStore}, each one statement or one short
 * transaction on a connection borrowed for it, run by {@link BlockingLockStore} on the
 * store's bounded executor within the command timeout.
 * <p>
 * Taking a lock locks and reads its row ({@code SELECT ... FOR UPDATE}, inserting the row
 * if it is missing) with the database's clock; a row found held whose lease may have
 * ended while that statement waited is read again, so that expiry is judged after any
 * wait for the row lock. A free row is granted with the next fencing token: the table's
 * sequence where the dialect has one (read while the row lock is held, so grants of one
 * key get rising values), else one more than the row's last token and at least the
 * database's clock in microseconds. A released row stays in the table, marked released
 * with its owner's token, so that a replayed release answers as the first did; the
 * cleanup deletes rows whose lease ended more than a minute ago.
 *
 * @author distlock
 */
final class JdbcLockCommands extends BlockingLockStore {

	/**
	 * How long after its lease ended a row may be deleted.
	 */
	static final Duration CLEANUP_GRACE = Duration.ofMinutes(1);

	private final Connections connections;

	private final LockSql sql;

	private final ReleaseWatcher watcher;

	JdbcLockCommands(Connections connections, LockSql sql, Duration commandTimeout, ReleaseWatcher watcher) {
		super("jdbc", commandTimeout);
		this.connections = connections;
		this.sql = sql;
		this.watcher = watcher;
	}

	/**
	 * Run blocking work on the store's executor, as {@link BlockingLockStore#call} does.
	 */
	<T extends @Nullable Object> CompletableFuture<T> run(String key, String operation, Callable<T> work) {
		return call(key, operation, work);
	}

	/**
	 * Run blocking work on the store's executor, and hand a result that came after its
	 * caller gave up to {@code late}, on the same thread.
	 */
	<T extends @Nullable Object> CompletableFuture<T> run(String key, String operation, Callable<T> work,
			Consumer<? super T> late) {
		return call(key, operation, work, late);
	}

	/**
	 * Release, on the calling worker thread, the keys granted to {@code token} after its
	 * caller gave up.
	 */
	void releaseLate(List<String> keys, String token) {
		keys.forEach((key) -> releaseLateGrant(key, token));
	}

	/**
	 * Return whether the caller of the operation running on this thread already gave up.
	 */
	static boolean abandoned() {
		return callerGaveUp();
	}

	@Override
	protected Attempt doTryAcquire(String key, String token, Duration lease) throws SQLException {
		return this.connections.inTransaction((connection) -> {
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

	@Override
	protected boolean doRelease(String key, String token) throws SQLException {
		boolean released = this.connections.withConnection((connection) -> {
			try (PreparedStatement statement = this.connections.prepare(connection, this.sql.release)) {
				this.sql.bindText(statement, 1, key);
				this.sql.bindText(statement, 2, token);
				if (this.sql.dialect != JdbcDialect.POSTGRESQL) {
					return statement.executeUpdate() == 1;
				}
				statement.setString(3, this.sql.channel);
				try (ResultSet rows = statement.executeQuery()) {
					return rows.next();
				}
			}
		});
		if (released) {
			this.watcher.releasedHere(key);
			return true;
		}
		// A replay of a release that already ran answers as it did
		return exists(this.sql.releasedBy, key, token);
	}

	@Override
	protected boolean doExpireAfter(String key, String token, Duration remaining) throws SQLException {
		return this.connections.withConnection((connection) -> {
			try (PreparedStatement statement = this.connections.prepare(connection, this.sql.expireAfter)) {
				statement.setLong(1, Math.max(1, remaining.toMillis()));
				this.sql.bindText(statement, 2, key);
				this.sql.bindText(statement, 3, token);
				return statement.executeUpdate() == 1;
			}
		});
	}

	@Override
	protected List<RenewalOutcome> doRenew(List<Renewal> renewals, Duration lease) throws SQLException {
		if (renewals.isEmpty()) {
			return List.of();
		}
		Set<Renewal> renewed = this.connections.withConnection((connection) -> {
			try (PreparedStatement statement = this.connections.prepare(connection, this.sql.renew(renewals.size()))) {
				statement.setLong(1, Math.max(1, lease.toMillis()));
				bindPairs(statement, 2, renewals);
				if (this.sql.dialect == JdbcDialect.POSTGRESQL) {
					try (ResultSet rows = statement.executeQuery()) {
						return pairsOf(rows);
					}
				}
				if (statement.executeUpdate() == renewals.size()) {
					return new HashSet<>(renewals);
				}
			}
			// Fewer rows renewed than asked: the ones their tokens still hold are the
			// renewed ones
			try (PreparedStatement statement = this.connections.prepare(connection, this.sql.owned(renewals.size()))) {
				bindPairs(statement, 1, renewals);
				try (ResultSet rows = statement.executeQuery()) {
					return pairsOf(rows);
				}
			}
		});
		List<RenewalOutcome> outcomes = new ArrayList<>(renewals.size());
		for (Renewal renewal : renewals) {
			outcomes.add(renewed.contains(renewal) ? RenewalOutcome.RENEWED : RenewalOutcome.LOST);
		}
		return outcomes;
	}

	@Override
	public Subscription onRelease(String key, Runnable listener) {
		return this.watcher.subscribe(key, listener);
	}

	@Override
	protected boolean doIsOwner(String key, String token) throws SQLException {
		return exists(this.sql.isOwner, key, token);
	}

	/**
	 * Check an owner on the connection of the caller's transaction, taking a row lock
	 * that keeps any other writer of the row out until that transaction ends.
	 */
	boolean isOwnerInTransaction(Connection connection, String key, String token) throws SQLException {
		try (PreparedStatement statement = this.connections.prepare(connection, this.sql.isOwnerInTransaction)) {
			this.sql.bindText(statement, 1, key);
			this.sql.bindText(statement, 2, token);
			try (ResultSet rows = statement.executeQuery()) {
				return rows.next();
			}
		}
	}

	/**
	 * Take every key in one transaction, locking their rows in the order given.
	 */
	List<Attempt> tryAcquireAll(List<String> keys, String token, Duration lease) throws SQLException {
		return this.connections.inTransaction((connection) -> {
			List<Row> rows = new ArrayList<>(keys.size());
			boolean refused = false;
			for (String key : keys) {
				Row row = lockAndRead(connection, key);
				rows.add(row);
				refused |= row.held() && !row.heldBy(token);
			}
			List<Attempt> attempts = new ArrayList<>(keys.size());
			for (int i = 0; i < keys.size(); i++) {
				Row row = rows.get(i);
				if (refused) {
					attempts.add(Attempt.busy((row.held() && !row.heldBy(token)) ? row.remaining() : null));
				}
				else if (row.heldBy(token)) {
					extend(connection, keys.get(i), lease);
					attempts.add(Attempt.granted(row.fence()));
				}
				else {
					attempts.add(Attempt.granted(grant(connection, keys.get(i), token, lease, row)));
				}
			}
			if (refused) {
				throw new RollbackAndReturn(attempts);
			}
			return attempts;
		});
	}

	/**
	 * Give the lock {@code token} holds to {@code nextToken} with a new fencing token.
	 */
	Attempt handOver(String key, String token, String nextToken, Duration lease) throws SQLException {
		return this.connections.inTransaction((connection) -> {
			Row row = lockAndRead(connection, key);
			if (row.heldBy(nextToken)) {
				return Attempt.granted(row.fence());
			}
			if (!row.heldBy(token)) {
				return Attempt.busy(row.held() ? row.remaining() : null);
			}
			return Attempt.granted(grant(connection, key, nextToken, lease, row));
		});
	}

	/**
	 * Read a key's state.
	 */
	KeyState inspect(String key) throws SQLException {
		return this.connections.withConnection((connection) -> {
			try (PreparedStatement statement = this.connections.prepare(connection, this.sql.inspect)) {
				this.sql.bindText(statement, 1, key);
				try (ResultSet rows = statement.executeQuery()) {
					if (!rows.next()) {
						return new KeyState(null, null, 0);
					}
					Row row = Row.read(rows, this.sql);
					return row.held() ? new KeyState(row.owner(), row.remaining(), row.fence())
							: new KeyState(null, null, row.fence());
				}
			}
		});
	}

	/**
	 * Free a key whoever holds it, and return its owner's token.
	 */
	@Nullable String forceRelease(String key) throws SQLException {
		String owner = this.connections.<@Nullable String>inTransaction((connection) -> {
			Row row = lockAndRead(connection, key);
			if (!row.held()) {
				return null;
			}
			try (PreparedStatement statement = this.connections.prepare(connection, this.sql.forceRelease)) {
				this.sql.bindText(statement, 1, key);
				statement.executeUpdate();
			}
			if (this.sql.dialect == JdbcDialect.POSTGRESQL) {
				try (PreparedStatement statement = this.connections.prepare(connection, this.sql.notify)) {
					statement.setString(1, this.sql.channel);
					statement.setString(2, key);
					statement.execute();
				}
			}
			return row.owner();
		});
		if (owner != null) {
			this.watcher.releasedHere(key);
		}
		return owner;
	}

	/**
	 * Delete at most {@code batchSize} rows whose lease ended more than
	 * {@link #CLEANUP_GRACE} ago, in one statement.
	 * @return how many rows were deleted
	 */
	int cleanUpBatch(int batchSize) throws SQLException {
		return this.connections.withConnection((connection) -> {
			try (PreparedStatement statement = this.connections.prepare(connection, this.sql.cleanup)) {
				statement.setLong(1, CLEANUP_GRACE.toMillis());
				statement.setInt(2, batchSize);
				return statement.executeUpdate();
			}
		});
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
	 * Lock the row of {@code key}, inserting a free one if it is missing, and read it
	 * with the database's clock. The statement that locks the row reads the clock too,
	 * maybe before it waited for the row lock: a row it found held whose lease could have
	 * ended while it ran (measured on this JVM's monotonic clock, twice over) is read
	 * again, now that the row lock is held.
	 */
	private Row lockAndRead(Connection connection, String key) throws SQLException {
		if (this.sql.dialect == JdbcDialect.MYSQL) {
			// InnoDB: a locking read of a missing row takes a gap lock, and two callers
			// inserting the same key after one would deadlock; the insert locks the row
			insertRow(connection, key);
		}
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
		long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
		if (row.held() && row.remainingMillis() <= 2 * elapsedMillis + 1) {
			row = readLocked(connection, key);
			if (row == null) {
				throw vanished(key, "locked");
			}
		}
		return row;
	}

	private @Nullable Row readLocked(Connection connection, String key) throws SQLException {
		try (PreparedStatement statement = this.connections.prepare(connection, this.sql.readRow)) {
			this.sql.bindText(statement, 1, key);
			try (ResultSet rows = statement.executeQuery()) {
				return rows.next() ? Row.read(rows, this.sql) : null;
			}
		}
	}

	private void insertRow(Connection connection, String key) throws SQLException {
		try (PreparedStatement statement = this.connections.prepare(connection, this.sql.insertRow)) {
			this.sql.bindText(statement, 1, key);
			statement.executeUpdate();
		}
		catch (SQLException ex) {
			// H2 has no insert-if-missing: another transaction inserted the row first,
			// and its row lock decides now
			if (this.sql.dialect != JdbcDialect.H2 || !"23505".equals(ex.getSQLState())) {
				throw ex;
			}
		}
	}

	private long grant(Connection connection, String key, String token, Duration lease, Row row) throws SQLException {
		long fence = row.nextFence();
		if (this.sql.dialect.hasSequence()) {
			try (PreparedStatement statement = this.connections.prepare(connection, this.sql.nextFence);
					ResultSet rows = statement.executeQuery()) {
				rows.next();
				fence = rows.getLong(1);
			}
		}
		try (PreparedStatement statement = this.connections.prepare(connection, this.sql.grant)) {
			this.sql.bindText(statement, 1, token);
			statement.setLong(2, Math.max(1, lease.toMillis()));
			statement.setLong(3, fence);
			this.sql.bindText(statement, 4, key);
			statement.executeUpdate();
		}
		return fence;
	}

	private void extend(Connection connection, String key, Duration lease) throws SQLException {
		try (PreparedStatement statement = this.connections.prepare(connection, this.sql.extend)) {
			statement.setLong(1, Math.max(1, lease.toMillis()));
			this.sql.bindText(statement, 2, key);
			statement.executeUpdate();
		}
	}

	private boolean exists(String query, String key, String token) throws SQLException {
		return this.connections.withConnection((connection) -> {
			try (PreparedStatement statement = this.connections.prepare(connection, query)) {
				this.sql.bindText(statement, 1, key);
				this.sql.bindText(statement, 2, token);
				try (ResultSet rows = statement.executeQuery()) {
					return rows.next();
				}
			}
		});
	}

	private void bindPairs(PreparedStatement statement, int first, List<Renewal> renewals) throws SQLException {
		int index = first;
		for (Renewal renewal : renewals) {
			this.sql.bindText(statement, index++, renewal.key());
			this.sql.bindText(statement, index++, renewal.token());
		}
	}

	private Set<Renewal> pairsOf(ResultSet rows) throws SQLException {
		Set<Renewal> pairs = new HashSet<>();
		while (rows.next()) {
			String key = this.sql.readText(rows, 1);
			String token = this.sql.readText(rows, 2);
			if (key != null && token != null) {
				pairs.add(new Renewal(key, token));
			}
		}
		return pairs;
	}

	/**
	 * A lock's row as read with the database's clock.
	 *
	 * @param owner the owner token, or {@code null}
	 * @param released whether the row was released
	 * @param fence the last fencing token
	 * @param remainingMillis how long the lease has left, negative when it ended
	 * @param nextFence the next fencing token by the rule of a dialect without sequences
	 */
	private record Row(@Nullable String owner, boolean released, long fence, long remainingMillis, long nextFence) {

		static Row read(ResultSet rows, LockSql sql) throws SQLException {
			return new Row(sql.readText(rows, 1), rows.getBoolean(2), rows.getLong(3), rows.getLong(4),
					(rows.getMetaData().getColumnCount() > 4) ? rows.getLong(5) : 0);
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
