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
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import dev.distlock.LockBackendException;
import dev.distlock.jdbc.Connections.RollbackAndReturn;
import dev.distlock.jdbc.LockStatements.Row;
import dev.distlock.store.BlockingLockStore;
import dev.distlock.store.HandOverExtension;
import dev.distlock.store.InspectionExtension;
import dev.distlock.store.LocalHandOverExtension;
import dev.distlock.store.LockStore;
import dev.distlock.store.LockStore.Renewal;
import dev.distlock.store.LockStore.RenewalOutcome;
import dev.distlock.store.SeveralKeysExtension;
import dev.distlock.store.support.LockKeyRules;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.Assert;

/**
 * A {@link LockStore} on one table of a relational database (PostgreSQL, MySQL, MariaDB
 * or H2, see {@link JdbcDialect}), with several keys at once, hand-over, and inspection
 * with force release. It is one class over the {@link BlockingLockStore} adapter: each
 * operation is a blocking method here, and the SQL of each statement sits with its binds
 * in the statements object of the store's database. The table ({@link JdbcLockSchema})
 * has a row per key: its owner token, its expiry on the database's clock, and its last
 * fencing token.
 * <ul>
 * <li>Time is the database's clock, never this JVM's; a lock's expiry is judged after any
 * wait for its row lock.</li>
 * <li>Fencing tokens rise strictly per key across releases, row deletions and restarts:
 * they come from a sequence on PostgreSQL and H2; on MySQL and MariaDB each is one more
 * than the row's last and at least the database's clock in microseconds. Each is spaced
 * by the room of {@link LocalHandOverExtension} (the sequence's value times
 * 2<sup>16</sup>; on MySQL and MariaDB in units of 2<sup>11</sup>), so that a client
 * hands a lock to its own next caller without a statement.</li>
 * <li>Every operation is one short statement or transaction on a connection borrowed for
 * it and returned at once: a held lock keeps no connection. A synchronous caller's
 * request runs on its own thread ({@link dev.distlock.store.BlockingCaller}) while the
 * store runs fewer operations than it has threads and none waits; other operations run on
 * the store's bounded executor ({@link BlockingLockStore}), with as many threads as the
 * pool has connections ({@link JdbcLockStoreSettings#threads()}), each within the command
 * timeout, waiting for a connection included, and fail with {@link LockBackendException}
 * past it.</li>
 * <li>Taking a lock is one statement on PostgreSQL (an upsert), and one conditional
 * update on MySQL and MariaDB (an insert follows for a new key); a refusal tells the
 * holder's remaining lease in the same round trip.</li>
 * <li>Renewal is one statement per batch; several keys are one transaction that locks
 * their rows in the caller's order.</li>
 * <li>Waiters hear of releases through {@code LISTEN}/{@code NOTIFY} on one dedicated
 * connection per store on PostgreSQL, and through one poller per store elsewhere.</li>
 * <li>Rows of locks that ended more than a minute ago (crashed holders' included) are
 * deleted every cleanup interval, in batches of the cleanup batch size, as many as come
 * back full; each batch scans the table (no index on {@code expires_at}, which every
 * acquire and release writes) at READ COMMITTED.</li>
 * <li>Statements commit whatever the pool's auto-commit default, the store's transactions
 * run at READ COMMITTED whatever its default isolation, and every borrowed connection's
 * socket reads are bounded by the command timeout plus a second.</li>
 * <li>The constructor fails unless the lock table (and its sequence) exists.</li>
 * </ul>
 * When {@link #isOwner} is called on a thread whose Spring-managed transaction runs on
 * this store's {@link DataSource} (the before-commit ownership check of a locked
 * {@code @Transactional} method), it reads the lock's row on that transaction's own
 * connection with a row lock held until the transaction ends: another instance cannot
 * take the lock over before the commit.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class JdbcLockStore extends BlockingLockStore
		implements SeveralKeysExtension, HandOverExtension, LocalHandOverExtension, InspectionExtension {

	private static final int MAX_TOKEN_LENGTH = 255;

	/**
	 * The most locks one renewal statement may renew: each takes two bind parameters, and
	 * PostgreSQL allows 32,767 per statement.
	 */
	public static final int MAX_RENEWAL_BATCH_SIZE = 16_383;

	/**
	 * The threads of the store's executor when neither the settings nor the
	 * {@code DataSource} tell the pool's size: HikariCP's default maximum pool size.
	 */
	public static final int DEFAULT_POOL_SIZE = 10;

	private static final AtomicInteger stores = new AtomicInteger();

	private final DataSource dataSource;

	private final JdbcLockStoreSettings settings;

	private final JdbcDialect dialect;

	private final LockStatements statements;

	private final Connections connections;

	private final ScheduledExecutorService timer;

	private final ReleaseWatcher watcher;

	private final @Nullable WaiterMarks waiterMarks;

	private final LockTableCleanup cleanup;

	/**
	 * Create a store on the lock table of {@code dataSource}, detecting its dialect; the
	 * table must exist ({@link JdbcLockSchema#initialize}).
	 * @param dataSource the database
	 * @param settings the settings
	 * @throws IllegalStateException if the database cannot be reached or is not supported
	 */
	public JdbcLockStore(DataSource dataSource, JdbcLockStoreSettings settings) {
		super("jdbc", checked(settings).commandTimeout(), threads(settings, dataSource), DEFAULT_QUEUE_CAPACITY);
		Assert.notNull(dataSource, "'dataSource' must not be null");
		this.dataSource = dataSource;
		this.settings = settings;
		this.dialect = JdbcDialect.detect(dataSource);
		JdbcLockSchema.check(dataSource, settings.tableName(), "or with JdbcLockSchema.initialize");
		this.statements = this.dialect.statements(settings.tableName(), settings.commandTimeout());
		this.connections = new Connections(dataSource, settings.commandTimeout(), this.statements,
				BlockingLockStore::callerGaveUp);
		checkKeyColumn();
		this.timer = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "distlock-jdbc-timer-" + stores.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
		this.watcher = this.statements.watcher(this.connections, settings);
		this.watcher.start(this.timer, settings.pollInterval(), (poll) -> call("", "poll", poll));
		Duration mark = this.statements.waiterMark();
		this.waiterMarks = (mark != null) ? new WaiterMarks(this.timer, mark, this::recordWaiter) : null;
		this.cleanup = new LockTableCleanup(this::cleanUpBatch, settings.cleanupBatchSize(),
				(batch) -> call("", "clean up", batch));
		this.cleanup.start(this.timer, settings.cleanupInterval());
	}

	/**
	 * Return how many operations the store runs at once: the settings' threads, else the
	 * pool's maximum size where the {@code DataSource} has a {@code getMaximumPoolSize()}
	 * (HikariCP's), else {@link #DEFAULT_POOL_SIZE}.
	 */
	static int threads(JdbcLockStoreSettings settings, @Nullable DataSource dataSource) {
		if (settings.threads() > 0) {
			return settings.threads();
		}
		if (dataSource != null) {
			try {
				Object size = dataSource.getClass().getMethod("getMaximumPoolSize").invoke(dataSource);
				if (size instanceof Integer poolSize && poolSize > 0) {
					return poolSize;
				}
			}
			catch (ReflectiveOperationException | RuntimeException ex) {
				// Not a pool that tells its size
			}
		}
		return DEFAULT_POOL_SIZE;
	}

	private static JdbcLockStoreSettings checked(JdbcLockStoreSettings settings) {
		Assert.notNull(settings, "'settings' must not be null");
		return settings;
	}

	/**
	 * Fail unless the lock table's key column holds the longest key, and the statements
	 * of the database do (a {@code pg_notify} payload on PostgreSQL).
	 */
	private void checkKeyColumn() {
		int maxKeyLength = this.settings.maxKeyLength();
		this.statements.checkMaxKeyLength(maxKeyLength);
		int columnSize;
		try {
			columnSize = this.connections.withConnection((connection) -> {
				try (PreparedStatement statement = connection
					.prepareStatement("SELECT lock_key FROM " + this.settings.tableName() + " WHERE 1 = 0");
						ResultSet rows = statement.executeQuery()) {
					return rows.getMetaData().getPrecision(1);
				}
			});
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not read the key column of the lock table '"
					+ this.settings.tableName() + "': " + ex.getMessage(), ex);
		}
		if (columnSize > 0 && maxKeyLength > columnSize) {
			throw new IllegalArgumentException(
					"'maxKeyLength' must be at most " + columnSize + ", the size of column lock_key of the lock table '"
							+ this.settings.tableName() + "', but was " + maxKeyLength);
		}
	}

	/**
	 * Return the dialect of the store's database.
	 * @return the dialect
	 */
	public JdbcDialect dialect() {
		return this.dialect;
	}

	/**
	 * Return the store's settings.
	 * @return the settings
	 */
	public JdbcLockStoreSettings settings() {
		return this.settings;
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
		checkKeyAndToken(key, token);
		return super.tryAcquire(key, token, lease);
	}

	@Override
	protected Attempt doTryAcquire(String key, String token, Duration lease) throws SQLException {
		return this.statements.acquire(this.connections, key, token, lease);
	}

	@Override
	protected boolean doRelease(String key, String token) throws SQLException {
		boolean released = this.connections
			.withConnection((connection) -> this.statements.release(connection, key, token));
		if (released) {
			this.watcher.releasedHere(key);
			return true;
		}
		// A replay of a release that already ran answers as it did
		return this.connections.withConnection((connection) -> this.statements.releasedBy(connection, key, token));
	}

	@Override
	protected boolean doExpireAfter(String key, String token, Duration remaining) throws SQLException {
		return this.connections
			.withConnection((connection) -> this.statements.expireAfter(connection, key, token, remaining));
	}

	@Override
	protected List<RenewalOutcome> doRenew(List<Renewal> renewals, Duration lease) throws SQLException {
		if (renewals.isEmpty()) {
			return List.of();
		}
		Set<Renewal> renewed = this.connections
			.withConnection((connection) -> this.statements.renew(connection, renewals, lease));
		List<RenewalOutcome> outcomes = new ArrayList<>(renewals.size());
		for (Renewal renewal : renewals) {
			outcomes.add(renewed.contains(renewal) ? RenewalOutcome.RENEWED : RenewalOutcome.LOST);
		}
		return outcomes;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Called on a thread whose Spring-managed read-write transaction runs on this store's
	 * {@link DataSource}, the check runs at once on that transaction's connection, on the
	 * calling thread, and locks the lock's row until the transaction ends
	 * ({@code FOR SHARE} on PostgreSQL, {@code LOCK IN SHARE MODE} on MySQL and MariaDB,
	 * {@code FOR UPDATE} on H2): a takeover by another instance waits for the commit.
	 * Elsewhere it runs as every operation does.
	 */
	@Override
	public CompletionStage<Boolean> isOwner(String key, String token) {
		Connection connection = transactionConnection();
		if (connection == null) {
			return super.isOwner(key, token);
		}
		try {
			return CompletableFuture.completedFuture(this.statements.isOwnerInTransaction(connection, key, token));
		}
		catch (SQLException | RuntimeException ex) {
			return CompletableFuture.failedFuture(new LockBackendException(key, "check", ex));
		}
		finally {
			DataSourceUtils.releaseConnection(connection, this.dataSource);
		}
	}

	@Override
	protected boolean doIsOwner(String key, String token) throws SQLException {
		return this.connections.withConnection((connection) -> this.statements.isOwner(connection, key, token));
	}

	/**
	 * Return the connection of the calling thread's read-write transaction on this
	 * store's {@link DataSource}, or {@code null} if there is none.
	 */
	private @Nullable Connection transactionConnection() {
		// A read-only transaction commits nothing: there is no commit window to close
		if (!TransactionSynchronizationManager.isActualTransactionActive()
				|| TransactionSynchronizationManager.isCurrentTransactionReadOnly()
				|| !(TransactionSynchronizationManager.getResource(this.dataSource) instanceof ConnectionHolder holder)
				|| !holder.isSynchronizedWithTransaction()) {
			return null;
		}
		return DataSourceUtils.getConnection(this.dataSource);
	}

	private void recordWaiter(String key) {
		call(key, "record a waiter", () -> this.connections.withConnection((connection) -> {
			this.statements.markWaiter(connection, key);
			return Boolean.TRUE;
		}));
	}

	@Override
	public Subscription onRelease(String key, Runnable listener) {
		Assert.notNull(key, "'key' must not be null");
		Assert.notNull(listener, "'listener' must not be null");
		Subscription subscription = this.watcher.subscribe(key, listener);
		WaiterMarks marks = this.waiterMarks;
		if (marks == null) {
			return subscription;
		}
		// A release tells only the waiters recorded in the key's row
		Runnable unmark = marks.listen(key);
		return () -> {
			unmark.run();
			subscription.close();
		};
	}

	@Override
	// NullAway reads the extension's class file without the @Nullable of its type
	// arguments, so it sees this override's nullable type argument as a mismatch
	@SuppressWarnings("NullAway")
	public CompletionStage<@Nullable List<Attempt>> tryAcquireAll(List<String> keys, String token, Duration lease) {
		Assert.notEmpty(keys, "'keys' must not be empty");
		keys.forEach((key) -> checkKeyAndToken(key, token));
		return call(keys.get(0), "acquire", () -> acquireAll(keys, token, lease), (attempts) -> {
			if (attempts.get(0).acquired()) {
				keys.forEach((key) -> releaseLateGrant(key, token));
			}
		});
	}

	/**
	 * Take every key in one transaction, locking their rows in the order given.
	 */
	private List<Attempt> acquireAll(List<String> keys, String token, Duration lease) throws SQLException {
		return this.connections.inTransaction((connection) -> {
			List<Row> rows = new ArrayList<>(keys.size());
			boolean refused = false;
			for (String key : keys) {
				Row row = this.statements.lockAndRead(connection, key);
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
					this.statements.extend(connection, keys.get(i), lease);
					attempts.add(Attempt.granted(row.fence()));
				}
				else {
					attempts.add(Attempt.granted(this.statements.grant(connection, keys.get(i), token, lease, row)));
				}
			}
			if (refused) {
				throw new RollbackAndReturn(attempts);
			}
			return attempts;
		});
	}

	@Override
	// NullAway reads the extension's class file without the @Nullable of its type
	// arguments, so it sees this override's nullable type argument as a mismatch
	@SuppressWarnings("NullAway")
	public CompletionStage<@Nullable Attempt> handOver(String key, String token, String nextToken, Duration lease) {
		return handOver(key, token, nextToken, lease, "").thenApply((handOff) -> handOff.attempt());
	}

	/**
	 * Hand the lock over as {@link #handOver(String, String, String, Duration)} does, and
	 * tell whether another client may wait: on PostgreSQL, whether a waiter is recorded
	 * in the key's row (a refused take or a release listener records it, this client's
	 * own included, for a few seconds); elsewhere always, since no waiter is recorded.
	 */
	@Override
	// NullAway reads the extension's class file without the @Nullable of its type
	// arguments, so it sees this override's nullable type argument as a mismatch
	@SuppressWarnings("NullAway")
	public CompletionStage<HandOff> handOver(String key, String token, String nextToken, Duration lease,
			String client) {
		checkKeyAndToken(key, nextToken);
		return call(key, "hand over", () -> this.connections.inTransaction((connection) -> {
			Row row = this.statements.lockAndRead(connection, key);
			if (row.heldBy(nextToken)) {
				return new HandOff(Attempt.granted(row.fence()), row.othersMayWait());
			}
			if (!row.heldBy(token)) {
				return new HandOff(Attempt.busy(row.held() ? row.remaining() : null), row.othersMayWait());
			}
			return new HandOff(Attempt.granted(this.statements.grant(connection, key, nextToken, lease, row)),
					row.othersMayWait());
		}), (handOff) -> {
			if (handOff.attempt().acquired()) {
				releaseLateGrant(key, nextToken);
			}
		});
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Here 2<sup>16</sup> on PostgreSQL and H2 (the sequence's value times the room: the
	 * statement fails past 2<sup>47</sup> values), and 2<sup>11</sup> on MySQL and
	 * MariaDB (the clock in microseconds times the room fits until the year 2112).
	 */
	@Override
	public long fenceRoom() {
		return this.statements.fenceRoom();
	}

	@Override
	public CompletionStage<KeyState> inspect(String key) {
		return call(key, "inspect", () -> this.connections.withConnection((connection) -> {
			Row row = this.statements.inspect(connection, key);
			if (row == null) {
				return new KeyState(null, null, 0);
			}
			return row.held() ? new KeyState(row.owner(), row.remaining(), row.fence())
					: new KeyState(null, null, row.fence());
		}));
	}

	@Override
	// NullAway reads the extension's class file without the @Nullable of its type
	// arguments, so it sees this override's nullable type argument as a mismatch
	@SuppressWarnings("NullAway")
	public CompletionStage<@Nullable String> forceRelease(String key) {
		return call(key, "force-release", () -> {
			String owner = this.connections.<@Nullable String>inTransaction((connection) -> {
				Row row = this.statements.lockAndRead(connection, key);
				if (!row.held()) {
					return null;
				}
				this.statements.forceRelease(connection, key);
				return row.owner();
			});
			if (owner != null) {
				this.watcher.releasedHere(key);
			}
			return owner;
		});
	}

	/**
	 * Run a round of the cleanup now: delete rows of locks that ended more than a minute
	 * ago, batch after batch while they come back full; the store does so every cleanup
	 * interval by itself.
	 * @return how many rows were deleted
	 */
	CompletionStage<Integer> cleanUp() {
		return this.cleanup.round();
	}

	private int cleanUpBatch(int batchSize) throws SQLException {
		// The statement scans the table (no index on expires_at): at READ COMMITTED
		// InnoDB
		// keeps no lock on a row that does not match, nor on a gap, as REPEATABLE READ
		// would
		return this.connections.atReadCommitted((connection) -> this.statements.cleanUp(connection, batchSize));
	}

	/**
	 * Check now, within the command timeout, that the lock table and its sequence are
	 * still there.
	 * @return what is missing ("no table 'x'", "no sequence 'x_fence_seq'"), empty when
	 * nothing is
	 */
	public CompletionStage<List<String>> missingSchemaObjects() {
		return call("", "check the lock table", () -> this.connections.withConnection(
				(connection) -> JdbcLockSchema.missing(connection, this.dialect, this.settings.tableName())));
	}

	private void checkKeyAndToken(String key, String token) {
		String problem = LockKeyRules.keyProblem(key, this.settings.maxKeyLength());
		Assert.isTrue(problem == null, () -> "Lock key " + problem);
		Assert.isTrue(token != null && token.length() <= MAX_TOKEN_LENGTH,
				() -> "'token' must have at most " + MAX_TOKEN_LENGTH + " characters");
	}

	/**
	 * Stop the release watcher, the poller, the cleanup and the executor; locks still
	 * held are left to expire.
	 */
	@Override
	public void close() {
		this.watcher.close();
		this.timer.shutdownNow();
		super.close();
	}

}
