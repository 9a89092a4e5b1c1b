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

package dev.distlock.faults;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import dev.distlock.jdbc.JdbcLockSchema;
import dev.distlock.jdbc.JdbcLockStore;
import dev.distlock.jdbc.JdbcLockStoreSettings;
import dev.distlock.testing.TcpProxy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.jdbc.datasource.DelegatingDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The JDBC store behind a link that a {@link TcpProxy} freezes while locks are held and
 * waited for, on the PostgreSQL and MariaDB that answer on 127.0.0.1 (skipped with the
 * reason when they do not): every socket read of a borrowed connection is bounded by the
 * command timeout plus a second, so no operation holds its executor thread (timed from
 * the borrow of its connection to its return) past that bound; once the link thaws,
 * nothing is left held, and PostgreSQL's release listener has noticed the silent link and
 * connected again.
 *
 * @author distlock
 */
class JdbcFrozenLinkTests {

	private static final String TABLE = "distlock_frozen_link_lock";

	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(1);

	/**
	 * The pool's wait for a connection (its connection timeout, which also bounds the
	 * pool's own validation), the command timeout, its network timeout's second, and
	 * slack for a loaded machine.
	 */
	private static final Duration OPERATION_BOUND = Duration.ofMillis(1000 + 1000 + 1000 + 1500);

	/**
	 * How long the link stays frozen: longer than the bound, shorter than the client's
	 * background releases keep trying.
	 */
	private static final Duration FROZEN = Duration.ofSeconds(7);

	@ParameterizedTest
	@EnumSource(Database.class)
	void aFrozenLinkHoldsNoExecutorThreadPastTheCommandTimeoutAndLeavesNothingHeldOnceItThaws(Database database)
			throws Exception {
		database.assumeAvailable();
		String application = "distlock-frozen-" + UUID.randomUUID().toString().substring(0, 8);
		try (TcpProxy proxy = TcpProxy.start("127.0.0.1", database.port);
				HikariDataSource direct = database.pool(database.url(database.port));
				HikariDataSource proxied = database.pool(database.url(proxy.endpoint().port()))) {
			JdbcLockSchema.initialize(direct, TABLE);
			TimedDataSource timed = new TimedDataSource(proxied);
			JdbcLockStoreSettings settings = JdbcLockStoreSettings.builder()
				.tableName(TABLE)
				.commandTimeout(COMMAND_TIMEOUT)
				.listenerConnectionFactory(() -> {
					Connection connection = DriverManager.getConnection(database.url(proxy.endpoint().port()),
							database.user, "");
					connection.setClientInfo("ApplicationName", application);
					return connection;
				})
				.build();
			String prefix = "frozen:" + UUID.randomUUID() + ":";
			try (JdbcLockStore store = new JdbcLockStore(timed, settings);
					DefaultLockClient client = new DefaultLockClient(store,
							LockClientSettings.defaults().withWatchdogLease(Duration.ofSeconds(2)))) {
				List<LockHold> holds = new ArrayList<>();
				for (int i = 0; i < 3; i++) {
					holds.add(client.acquire(prefix + "held:" + i, Duration.ZERO, Duration.ofSeconds(60)));
					holds.add(client.acquire(prefix + "watched:" + i, Duration.ZERO, null));
				}
				await().atMost(10, TimeUnit.SECONDS).until(() -> database.listening(direct, application));
				CompletableFuture<LockHold> waiting = client
					.acquireAsync(prefix + "held:0", Duration.ofSeconds(3), null)
					.toCompletableFuture();
				long frozenAt = System.nanoTime();
				proxy.freeze();
				List<CompletableFuture<LockHold>> probes = new ArrayList<>();
				for (int i = 0; i < 8; i++) {
					probes.add(client.acquireAsync(prefix + "probe:" + i, Duration.ZERO, Duration.ofSeconds(60))
						.toCompletableFuture());
				}
				holds.forEach((hold) -> CompletableFuture.runAsync(hold::release));
				// While the link stays frozen, no operation keeps its thread (and its
				// connection) past the pool's wait, the command timeout, its network
				// timeout's second and slack for a loaded machine
				while (System.nanoTime() - frozenAt < FROZEN.toNanos()) {
					assertThat(timed.longestOpen()).as(JdbcFrozenLinkTests::storeThreads).isLessThan(OPERATION_BOUND);
					Thread.sleep(50);
				}
				assertThat(timed.longestClosed()).isLessThan(OPERATION_BOUND);
				assertThat(timed.borrowsWhileFrozen(frozenAt)).isPositive();
				proxy.thaw();
				assertThat(waiting).isCompletedExceptionally();
				assertThat(probes).allMatch(CompletableFuture::isDone);
				// Every release sent again and every compensation of a probe reaches the
				// database long before the 60 s leases would end the locks
				await().atMost(20, TimeUnit.SECONDS).until(() -> database.heldWithPrefix(direct, prefix) == 0);
				if (database == Database.POSTGRESQL) {
					// The listener noticed its silent link and connected again (its old
					// backend went with the link); it then checks its link every 2 s
					await().atMost(20, TimeUnit.SECONDS)
						.until(() -> database.connectedSince(direct, application, "%", frozenAt));
				}
			}
		}
	}

	/**
	 * Describe where the JDBC store's threads are, for a failure's message.
	 */
	private static String storeThreads() {
		StringBuilder threads = new StringBuilder("the store's threads:");
		Thread.getAllStackTraces().forEach((thread, frames) -> {
			if (thread.getName().startsWith("distlock-jdbc-")) {
				threads.append("\n").append(thread.getName()).append(' ').append(thread.getState());
				for (int i = 0; i < Math.min(frames.length, 25); i++) {
					threads.append("\n\tat ").append(frames[i]);
				}
			}
		});
		return threads.toString();
	}

	/**
	 * A data source that times each borrowed connection, from the call to
	 * {@code getConnection} to its {@code close}: how long one operation held a thread of
	 * the store's executor.
	 */
	private static final class TimedDataSource extends DelegatingDataSource {

		private final Map<Object, Long> open = new ConcurrentHashMap<>();

		private final AtomicLong longestClosedNanos = new AtomicLong();

		private final List<Long> borrowedAt = new CopyOnWriteArrayList<>();

		TimedDataSource(DataSource target) {
			super(target);
		}

		@Override
		public Connection getConnection() throws SQLException {
			long started = System.nanoTime();
			Object token = new Object();
			this.open.put(token, started);
			this.borrowedAt.add(started);
			Connection connection;
			try {
				connection = super.getConnection();
			}
			catch (SQLException | RuntimeException ex) {
				closed(token);
				throw ex;
			}
			return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { Connection.class },
					(proxy, method, arguments) -> {
						if (method.getName().equals("close")) {
							closed(token);
						}
						try {
							return method.invoke(connection, arguments);
						}
						catch (InvocationTargetException ex) {
							throw ex.getCause();
						}
					});
		}

		private void closed(Object token) {
			Long started = this.open.remove(token);
			if (started != null) {
				this.longestClosedNanos.accumulateAndGet(System.nanoTime() - started, Math::max);
			}
		}

		Duration longestOpen() {
			long now = System.nanoTime();
			return Duration.ofNanos(this.open.values().stream().mapToLong((started) -> now - started).max().orElse(0));
		}

		Duration longestClosed() {
			return Duration.ofNanos(this.longestClosedNanos.get());
		}

		long borrowsWhileFrozen(long frozenAt) {
			return this.borrowedAt.stream().filter((started) -> started - frozenAt > 0).count();
		}

	}

	enum Database {

		POSTGRESQL(5432, "postgres") {

			@Override
			String url(int port) {
				return "jdbc:postgresql://127.0.0.1:" + port + "/test";
			}

		},

		MARIADB(3306, "root") {

			@Override
			String url(int port) {
				return "jdbc:mariadb://127.0.0.1:" + port + "/test";
			}

		};

		final int port;

		final String user;

		Database(int port, String user) {
			this.port = port;
			this.user = user;
		}

		abstract String url(int port);

		void assumeAvailable() {
			String problem;
			DriverManager.setLoginTimeout(3);
			try (Connection connection = DriverManager.getConnection(url(this.port), this.user, "")) {
				problem = connection.isValid(3) ? null : "the connection is not valid";
			}
			catch (SQLException ex) {
				problem = ex.getMessage();
			}
			String reason = problem;
			assumeTrue(reason == null, () -> name() + " on 127.0.0.1:" + this.port + " does not answer: " + reason);
		}

		HikariDataSource pool(String url) {
			HikariDataSource pool = new HikariDataSource();
			pool.setJdbcUrl(url);
			pool.setUsername(this.user);
			pool.setPassword("");
			pool.setMaximumPoolSize(4);
			pool.setMinimumIdle(0);
			pool.setConnectionTimeout(1000);
			pool.setPoolName("distlock-frozen-" + name().toLowerCase());
			if (this == POSTGRESQL) {
				// A statement past its query timeout waits for the driver's cancel, sent
				// on
				// a new connection, for up to this many seconds (10 by default)
				pool.addDataSourceProperty("cancelSignalTimeout", "1");
			}
			return pool;
		}

		long heldWithPrefix(HikariDataSource direct, String prefix) throws SQLException {
			try (Connection connection = direct.getConnection();
					PreparedStatement statement = connection.prepareStatement("SELECT COUNT(*) FROM " + TABLE
							+ " WHERE lock_key LIKE ? AND released = FALSE AND expires_at > " + nowMillis())) {
				statement.setString(1, prefix + "%");
				try (ResultSet rows = statement.executeQuery()) {
					rows.next();
					return rows.getLong(1);
				}
			}
		}

		private String nowMillis() {
			return (this == POSTGRESQL) ? "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT"
					: "(UNIX_TIMESTAMP(UTC_TIMESTAMP(6)) * 1000)";
		}

		boolean listening(HikariDataSource direct, String application) throws SQLException {
			return this != POSTGRESQL || connectedSince(direct, application, "LISTEN%", Long.MIN_VALUE);
		}

		/**
		 * Return whether a backend of {@code application} whose last query is like
		 * {@code query} started after {@code nanoTime} of this JVM's clock (compared as
		 * an age in the database).
		 */
		boolean connectedSince(HikariDataSource direct, String application, String query, long nanoTime)
				throws SQLException {
			long ageMillis = (nanoTime == Long.MIN_VALUE) ? Long.MAX_VALUE / 2
					: TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanoTime);
			try (Connection connection = direct.getConnection();
					PreparedStatement statement = connection.prepareStatement(
							"SELECT COUNT(*) FROM pg_stat_activity" + " WHERE application_name = ? AND query LIKE ?"
									+ " AND backend_start > clock_timestamp() - make_interval(secs => ? / 1000.0)")) {
				statement.setString(1, application);
				statement.setString(2, query);
				statement.setLong(3, Math.min(ageMillis, 86_400_000L));
				try (ResultSet rows = statement.executeQuery()) {
					rows.next();
					return rows.getLong(1) > 0;
				}
			}
		}

	}

}
