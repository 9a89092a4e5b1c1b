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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.DistributedLockException;
import dev.distlock.LockBackendException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import dev.distlock.store.LockStore.Subscription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Faults of the database under a {@link JdbcLockStore}: unreachable while locks are held
 * and waited for (cut off with {@link SeveredDataSource}), every connection of the stores
 * killed as a restart kills them (PostgreSQL's {@code pg_terminate_backend}, on these
 * tests' connections only), a pool of two connections under a thousand held locks, and no
 * connection kept while a lock is held.
 *
 * @author distlock
 */
class JdbcLockStoreFaultTests {

	private static final String TABLE = "distlock_fault_lock";

	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(1);

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void anUnreachableDatabaseFailsWaitersClosedWithinTheWaitAndOneCommandTimeoutAndLeavesNothingLocked(
			TestDatabase database) throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(4)) {
			JdbcLockSchema.initialize(pool, TABLE);
			SeveredDataSource holderSide = new SeveredDataSource(pool);
			SeveredDataSource waiterSide = new SeveredDataSource(pool);
			LockClientSettings settings = LockClientSettings.defaults().withWatchdogLease(Duration.ofSeconds(2));
			try (JdbcLockStore holderStore = store(holderSide, database);
					JdbcLockStore waiterStore = store(waiterSide, database);
					DefaultLockClient holder = new DefaultLockClient(holderStore, settings);
					DefaultLockClient waiter = new DefaultLockClient(waiterStore, settings)) {
				String key = "fault:" + UUID.randomUUID();
				LockHold hold = holder.acquire(key, Duration.ZERO, null);
				Duration wait = Duration.ofSeconds(2);
				long waitingSince = System.nanoTime();
				CompletableFuture<LockHold> waiting = waiter.acquireAsync(key, wait, null).toCompletableFuture();
				await().atMost(5, TimeUnit.SECONDS).until(() -> waiter.waitingCount(key) == 1);
				holderSide.setSevered(true);
				waiterSide.setSevered(true);
				assertThatExceptionOfType(ExecutionException.class)
					.isThrownBy(() -> waiting.get(wait.plus(COMMAND_TIMEOUT).toSeconds() + 5, TimeUnit.SECONDS))
					.withCauseInstanceOf(DistributedLockException.class);
				Duration failedAfter = Duration.ofNanos(System.nanoTime() - waitingSince);
				// The wait plus one command timeout, and a second of slack for a loaded
				// machine
				assertThat(failedAfter).isLessThanOrEqualTo(wait.plus(COMMAND_TIMEOUT).plusSeconds(1));
				assertThatExceptionOfType(LockBackendException.class)
					.isThrownBy(() -> waiter.acquire("fault:" + UUID.randomUUID(), Duration.ZERO, null));
				assertThatExceptionOfType(DistributedLockException.class).isThrownBy(hold::release);
				holderSide.setSevered(false);
				waiterSide.setSevered(false);
				// The failed release is sent again in the background, else the lease ends
				await().atMost(10, TimeUnit.SECONDS).until(() -> !isHeld(pool, key));
				assertThat(holder.heldCount()).isZero();
				try (LockHold next = waiter.acquire(key, Duration.ofSeconds(5), null)) {
					assertThat(next.isValid()).isTrue();
				}
			}
		}
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void aPoolOfTwoConnectionsKeepsAcquiringRenewingAndReleasingUnderAThousandHeldLocks(TestDatabase database)
			throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(2)) {
			JdbcLockSchema.initialize(pool, TABLE);
			// Generous for a loaded build machine: a thousand renewals share two
			// connections
			Duration lease = Duration.ofSeconds(6);
			try (JdbcLockStore store = store(pool, database, Duration.ofSeconds(5));
					DefaultLockClient client = new DefaultLockClient(store,
							LockClientSettings.defaults().withWatchdogLease(lease))) {
				List<LockHold> held = new ArrayList<>();
				for (int i = 0; i < 1_000; i++) {
					held.add(client.acquire("pool-of-two:" + UUID.randomUUID(), Duration.ZERO, null));
				}
				// No connection is kept by a held lock
				await().atMost(5, TimeUnit.SECONDS).until(() -> pool.getHikariPoolMXBean().getActiveConnections() == 0);
				// Past a whole lease, other locks come and go while the thousand are
				// renewed
				long until = System.nanoTime() + lease.plusSeconds(1).toNanos();
				int cycles = 0;
				while (System.nanoTime() < until) {
					try (LockHold other = client.acquire("pool-of-two:" + UUID.randomUUID(), Duration.ZERO, null)) {
						assertThat(other.isValid()).isTrue();
					}
					cycles++;
				}
				assertThat(cycles).isPositive();
				assertThat(held).allMatch(LockHold::isValid);
				assertThat(held).allMatch((hold) -> isHeld(pool, hold.key()));
				await().atMost(5, TimeUnit.SECONDS).until(() -> pool.getHikariPoolMXBean().getActiveConnections() == 0);
				held.forEach(LockHold::release);
				assertThat(client.heldCount()).isZero();
				assertThat(held).noneMatch((hold) -> isHeld(pool, hold.key()));
			}
		}
	}

	@Test
	void postgreSqlConnectionsKilledDuringHoldsAndWaitsAreReplacedAndEveryListenerRunsOnceAfterTheReconnect()
			throws Exception {
		TestDatabase database = TestDatabase.POSTGRESQL;
		database.assumeAvailable();
		String application = "distlock-fault-" + UUID.randomUUID();
		try (HikariDataSource pool = database.pool(4)) {
			pool.addDataSourceProperty("ApplicationName", application);
			JdbcLockSchema.initialize(pool, TABLE);
			JdbcLockStoreSettings settings = JdbcLockStoreSettings.builder()
				.tableName(TABLE)
				.commandTimeout(COMMAND_TIMEOUT)
				.listenerConnectionFactory(() -> {
					Connection connection = database.connect();
					connection.setClientInfo("ApplicationName", application);
					return connection;
				})
				.build();
			Duration lease = Duration.ofSeconds(3);
			LockClientSettings clientSettings = LockClientSettings.defaults().withWatchdogLease(lease);
			try (JdbcLockStore holderStore = new JdbcLockStore(pool, settings);
					JdbcLockStore waiterStore = new JdbcLockStore(pool, settings);
					DefaultLockClient holder = new DefaultLockClient(holderStore, clientSettings);
					DefaultLockClient waiter = new DefaultLockClient(waiterStore, clientSettings)) {
				String key = "restart:" + UUID.randomUUID();
				LockHold hold = holder.acquire(key, Duration.ZERO, null);
				CompletableFuture<LockHold> waiting = waiter.acquireAsync(key, Duration.ofSeconds(30), null)
					.toCompletableFuture();
				AtomicInteger heard = new AtomicInteger();
				try (Subscription subscription = waiterStore.onRelease("never-released:" + UUID.randomUUID(),
						heard::incrementAndGet)) {
					// Both listeners connected: the first run after each store's connect
					// is over
					await().atMost(10, TimeUnit.SECONDS).until(() -> backends(application) >= 2);
					int before = heard.get();
					assertThat(terminateBackends(application)).isGreaterThanOrEqualTo(2);
					await().atMost(10, TimeUnit.SECONDS).until(() -> heard.get() == before + 1);
					await().during(1, TimeUnit.SECONDS)
						.atMost(3, TimeUnit.SECONDS)
						.until(() -> heard.get() == before + 1);
				}
				// Renewals go on on new connections: the hold outlives its lease
				await().during(lease.plusSeconds(1)).atMost(lease.plusSeconds(3)).until(hold::isValid);
				assertThat(waiting).isNotDone();
				hold.release();
				try (LockHold next = waiting.get(10, TimeUnit.SECONDS)) {
					assertThat(next.isValid()).isTrue();
				}
			}
		}
	}

	private static int backends(String application) throws SQLException {
		return count("SELECT count(*) FROM pg_stat_activity WHERE application_name = ?", application);
	}

	private static int terminateBackends(String application) throws SQLException {
		return count("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = ?",
				application);
	}

	private static int count(String sql, String application) throws SQLException {
		try (Connection connection = TestDatabase.POSTGRESQL.connect();
				PreparedStatement statement = connection.prepareStatement(sql)) {
			statement.setString(1, application);
			try (ResultSet rows = statement.executeQuery()) {
				rows.next();
				return rows.getInt(1);
			}
		}
	}

	private static JdbcLockStore store(DataSource dataSource, TestDatabase database) {
		return store(dataSource, database, COMMAND_TIMEOUT);
	}

	private static JdbcLockStore store(DataSource dataSource, TestDatabase database, Duration commandTimeout) {
		return new JdbcLockStore(dataSource,
				JdbcLockStoreSettings.builder()
					.tableName(TABLE)
					.commandTimeout(commandTimeout)
					.listenerConnectionFactory(database::connect)
					.build());
	}

	static boolean isHeld(DataSource dataSource, String key) {
		try (Connection connection = dataSource.getConnection();
				PreparedStatement statement = connection.prepareStatement(
						"SELECT 1 FROM " + TABLE + " WHERE lock_key = ? AND released = FALSE AND expires_at > "
								+ JdbcDialect.detect(dataSource).nowMillis())) {
			statement.setString(1, key);
			try (ResultSet rows = statement.executeQuery()) {
				return rows.next();
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
