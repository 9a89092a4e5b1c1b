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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The JDBC store under the pool defaults applications set: a pool not in auto-commit mode
 * (a common Hibernate setting) still commits every renewal and release, and a pool whose
 * default isolation is SERIALIZABLE still acquires under contention, since the store's
 * own transactions run at READ COMMITTED.
 *
 * @author distlock
 */
class JdbcLockStorePoolDefaultsTests {

	private static final String TABLE = "distlock_pool_defaults_lock";

	private static final Duration LEASE = Duration.ofSeconds(2);

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void aPoolWithoutAutoCommitKeepsAWatchdogLockForThreeLeasesAndHandsItOverAtOnceOnRelease(TestDatabase database)
			throws Exception {
		database.assumeAvailable();
		try (HikariDataSource manual = database.pool(4); HikariDataSource automatic = database.pool(4)) {
			manual.setAutoCommit(false);
			JdbcLockSchema.initialize(automatic, TABLE);
			LockClientSettings settings = LockClientSettings.defaults().withWatchdogLease(LEASE);
			try (JdbcLockStore holderStore = store(manual);
					JdbcLockStore waiterStore = store(automatic);
					DefaultLockClient holder = new DefaultLockClient(holderStore, settings);
					DefaultLockClient waiter = new DefaultLockClient(waiterStore, settings)) {
				String key = "no-auto-commit:" + UUID.randomUUID();
				LockHold hold = holder.acquire(key, Duration.ZERO, null);
				Duration wait = LEASE.multipliedBy(3);
				long waitingSince = System.nanoTime();
				CompletableFuture<LockHold> waiting = waiter.acquireAsync(key, wait.plusSeconds(10), null)
					.toCompletableFuture();
				// Three leases: each renewal was committed, or the waiter would have
				// taken the lock one lease after the grant
				while (System.nanoTime() - waitingSince < wait.toNanos()) {
					assertThat(waiting).isNotDone();
					assertThat(hold.isValid()).isTrue();
					Thread.sleep(50);
				}
				long releasedAt = System.nanoTime();
				hold.release();
				LockHold next = waiting.get(10, TimeUnit.SECONDS);
				Duration handOver = Duration.ofNanos(System.nanoTime() - releasedAt);
				// The release was committed: the waiter gets the lock well before the
				// lease would have ended it
				assertThat(handOver).isLessThan(LEASE.dividedBy(2));
				next.release();
				try (JdbcLockStore check = store(automatic)) {
					assertThat(JdbcLockStoreTests.join(check.inspect(key)).ownerToken()).isNull();
				}
			}
		}
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void aPoolWhoseDefaultIsolationIsSerializableStillAcquiresUnderContention(TestDatabase database) throws Exception {
		database.assumeAvailable();
		ExecutorService executor = Executors.newFixedThreadPool(12);
		try (HikariDataSource serializable = database.pool(12)) {
			serializable.setTransactionIsolation("TRANSACTION_SERIALIZABLE");
			JdbcLockSchema.initialize(serializable, TABLE);
			try (JdbcLockStore first = store(serializable);
					JdbcLockStore second = store(serializable);
					JdbcLockStore third = store(serializable)) {
				String key = "serializable:" + UUID.randomUUID();
				List<CompletableFuture<Boolean>> rounds = new ArrayList<>();
				for (JdbcLockStore store : List.of(first, second, third)) {
					for (int i = 0; i < 4; i++) {
						String token = "owner:" + rounds.size();
						rounds.add(CompletableFuture.supplyAsync(() -> {
							for (int round = 0; round < 20; round++) {
								if (JdbcLockStoreTests.join(store.tryAcquire(key, token, LEASE)).acquired()) {
									JdbcLockStoreTests.join(store.release(key, token));
								}
							}
							return true;
						}, executor));
					}
				}
				// Every contended acquisition and release answered: none failed with a
				// serialization failure
				for (CompletableFuture<Boolean> round : rounds) {
					assertThat(round.get(60, TimeUnit.SECONDS)).isTrue();
				}
			}
			finally {
				executor.shutdownNow();
			}
			// The pool's own isolation is left as the application set it
			try (Connection connection = serializable.getConnection()) {
				assertThat(connection.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
			}
		}
	}

	private static JdbcLockStore store(HikariDataSource pool) {
		return new JdbcLockStore(pool,
				JdbcLockStoreSettings.builder().tableName(TABLE).commandTimeout(Duration.ofSeconds(5)).build());
	}

}
