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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import dev.distlock.LockBackendException;
import dev.distlock.store.BlockingLockStore;
import dev.distlock.store.HandOverExtension;
import dev.distlock.store.InspectionExtension;
import dev.distlock.store.support.LockKeyRules;
import dev.distlock.store.LockStore;
import dev.distlock.store.SeveralKeysExtension;
import dev.distlock.jdbc.JdbcLockStoreSettings.ListenerConnectionFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.Assert;

/**
 * A {@link LockStore} on one table of a relational database (PostgreSQL, MySQL, MariaDB
 * or H2, see {@link JdbcDialect}), with several keys at once, hand-over, and inspection
 * with force release. The table ({@link JdbcLockSchema}) has a row per key: its owner
 * token, its expiry on the database's clock, and its last fencing token.
 * <ul>
 * <li>Time is the database's clock, never this JVM's; a lock's expiry is judged after any
 * wait for its row lock.</li>
 * <li>Fencing tokens rise strictly per key across releases, row deletions and restarts:
 * they come from a sequence on PostgreSQL and H2; on MySQL and MariaDB each is one more
 * than the row's last and at least the database's clock in microseconds.</li>
 * <li>Every operation is one short statement or transaction on a connection borrowed for
 * it and returned at once: a held lock keeps no connection. Operations run on the store's
 * bounded executor ({@link BlockingLockStore}), each within the command timeout, waiting
 * for a connection included, and fail with {@link LockBackendException} past it.</li>
 * <li>Renewal is one statement per batch; several keys are one transaction that locks
 * their rows in the caller's order.</li>
 * <li>Waiters hear of releases through {@code LISTEN}/{@code NOTIFY} on one dedicated
 * connection per store on PostgreSQL, and through one poller per store elsewhere.</li>
 * <li>Rows of locks that ended more than a minute ago (crashed holders' included) are
 * deleted every cleanup interval, in batches of the cleanup batch size, as many as come
 * back full.</li>
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
public final class JdbcLockStore
		implements LockStore, SeveralKeysExtension, HandOverExtension, InspectionExtension, AutoCloseable {

	private static final Duration RECONNECT_DELAY = Duration.ofMillis(500);

	private static final int MAX_TOKEN_LENGTH = 255;

	/**
	 * PostgreSQL's limit on a {@code NOTIFY} payload, in bytes.
	 */
	private static final int MAX_NOTIFY_PAYLOAD = 8000;

	/**
	 * The most locks one renewal statement may renew: each takes two bind parameters, and
	 * PostgreSQL allows 32,767 per statement.
	 */
	public static final int MAX_RENEWAL_BATCH_SIZE = 16_383;

	private static final AtomicInteger stores = new AtomicInteger();

	private final DataSource dataSource;

	private final JdbcLockStoreSettings settings;

	private final JdbcDialect dialect;

	private final JdbcLockCommands commands;

	private final ScheduledExecutorService timer;

	private final ReleaseWatcher watcher;

	private final Connections connections;

	private final LockTableCleanup cleanup;

	/**
	 * Create a store on the lock table of {@code dataSource}, detecting its dialect; the
	 * table must exist ({@link JdbcLockSchema#initialize}).
	 * @param dataSource the database
	 * @param settings the settings
	 * @throws IllegalStateException if the database cannot be reached or is not supported
	 */
	public JdbcLockStore(DataSource dataSource, JdbcLockStoreSettings settings) {
		Assert.notNull(dataSource, "'dataSource' must not be null");
		Assert.notNull(settings, "'settings' must not be null");
		this.dataSource = dataSource;
		this.settings = settings;
		this.dialect = JdbcDialect.detect(dataSource);
		JdbcLockSchema.check(dataSource, settings.tableName(), "or with JdbcLockSchema.initialize");
		this.connections = new Connections(dataSource, settings.commandTimeout(), this.dialect,
				JdbcLockCommands::abandoned);
		checkKeyColumn();
		LockSql sql = new LockSql(this.dialect, settings.tableName());
		this.timer = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "distlock-jdbc-timer-" + stores.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
		PollingReleaseWatcher poller = null;
		if (this.dialect == JdbcDialect.POSTGRESQL) {
			this.watcher = new PostgresReleaseWatcher(listenerConnections(dataSource, settings), sql.channel,
					settings.commandTimeout(), RECONNECT_DELAY);
		}
		else {
			poller = new PollingReleaseWatcher(this.connections, sql);
			this.watcher = poller;
		}
		this.commands = new JdbcLockCommands(this.connections, sql, settings.commandTimeout(), this.watcher);
		if (poller != null) {
			poller.start(this.timer, settings.pollInterval(), (poll) -> this.commands.run("", "poll", poll));
		}
		this.cleanup = new LockTableCleanup(this.commands, settings.cleanupBatchSize(),
				(batch) -> this.commands.run("", "clean up", batch));
		this.cleanup.start(this.timer, settings.cleanupInterval());
	}

	/**
	 * Fail unless the lock table's key column holds the longest key, and (on PostgreSQL)
	 * a {@code pg_notify} payload does.
	 */
	private void checkKeyColumn() {
		int maxKeyLength = this.settings.maxKeyLength();
		if (this.dialect == JdbcDialect.POSTGRESQL && maxKeyLength >= MAX_NOTIFY_PAYLOAD) {
			throw new IllegalArgumentException("'maxKeyLength' must be below " + MAX_NOTIFY_PAYLOAD
					+ " bytes, the payload limit of PostgreSQL's NOTIFY, but was " + maxKeyLength);
		}
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

	private static ListenerConnectionFactory listenerConnections(DataSource dataSource,
			JdbcLockStoreSettings settings) {
		ListenerConnectionFactory factory = settings.listenerConnectionFactory();
		return (factory != null) ? factory : dataSource::getConnection;
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

	/**
	 * Return the longest an operation may take, waiting for a connection included.
	 * @return the command timeout
	 */
	public Duration commandTimeout() {
		return this.commands.commandTimeout();
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
		checkKeyAndToken(key, token);
		return this.commands.tryAcquire(key, token, lease);
	}

	@Override
	public CompletionStage<Boolean> release(String key, String token) {
		return this.commands.release(key, token);
	}

	@Override
	public CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
		return this.commands.expireAfter(key, token, remaining);
	}

	@Override
	public CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
		return this.commands.renew(renewals, lease);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Called on a thread whose Spring-managed read-write transaction runs on this store's
	 * {@link DataSource}, the check runs at once on that transaction's connection, on the
	 * calling thread, and locks the lock's row until the transaction ends
	 * ({@code FOR SHARE} on PostgreSQL, {@code LOCK IN SHARE MODE} on MySQL and MariaDB,
	 * {@code FOR UPDATE} on H2): a takeover by another instance waits for the commit.
	 * Elsewhere it runs on the store's executor as every operation does.
	 */
	@Override
	public CompletionStage<Boolean> isOwner(String key, String token) {
		Connection connection = transactionConnection();
		if (connection == null) {
			return this.commands.isOwner(key, token);
		}
		try {
			return CompletableFuture.completedFuture(this.commands.isOwnerInTransaction(connection, key, token));
		}
		catch (SQLException | RuntimeException ex) {
			return CompletableFuture.failedFuture(new LockBackendException(key, "check", ex));
		}
		finally {
			DataSourceUtils.releaseConnection(connection, this.dataSource);
		}
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

	@Override
	public Subscription onRelease(String key, Runnable listener) {
		Assert.notNull(key, "'key' must not be null");
		Assert.notNull(listener, "'listener' must not be null");
		return this.commands.onRelease(key, listener);
	}

	@Override
	// NullAway reads the extension's class file without the @Nullable of its type
	// arguments, so it sees this override's nullable type argument as a mismatch
	@SuppressWarnings("NullAway")
	public CompletionStage<@Nullable List<Attempt>> tryAcquireAll(List<String> keys, String token, Duration lease) {
		Assert.notEmpty(keys, "'keys' must not be empty");
		keys.forEach((key) -> checkKeyAndToken(key, token));
		return this.commands.run(keys.get(0), "acquire", () -> this.commands.tryAcquireAll(keys, token, lease),
				(attempts) -> {
					if (attempts.get(0).acquired()) {
						this.commands.releaseLate(keys, token);
					}
				});
	}

	@Override
	// NullAway reads the extension's class file without the @Nullable of its type
	// arguments, so it sees this override's nullable type argument as a mismatch
	@SuppressWarnings("NullAway")
	public CompletionStage<@Nullable Attempt> handOver(String key, String token, String nextToken, Duration lease) {
		checkKeyAndToken(key, nextToken);
		return this.commands.run(key, "hand over", () -> this.commands.handOver(key, token, nextToken, lease),
				(attempt) -> {
					if (attempt.acquired()) {
						this.commands.releaseLate(List.of(key), nextToken);
					}
				});
	}

	@Override
	public CompletionStage<KeyState> inspect(String key) {
		return this.commands.run(key, "inspect", () -> this.commands.inspect(key));
	}

	@Override
	// NullAway reads the extension's class file without the @Nullable of its type
	// arguments, so it sees this override's nullable type argument as a mismatch
	@SuppressWarnings("NullAway")
	public CompletionStage<@Nullable String> forceRelease(String key) {
		return this.commands.run(key, "force-release", () -> this.commands.forceRelease(key));
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

	/**
	 * Check now, within the command timeout, that the lock table and its sequence are
	 * still there.
	 * @return what is missing ("no table 'x'", "no sequence 'x_fence_seq'"), empty when
	 * nothing is
	 */
	public CompletionStage<List<String>> missingSchemaObjects() {
		return this.commands.run("", "check the lock table", () -> this.connections.withConnection(
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
		this.commands.close();
	}

}
