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
import java.time.Duration;
import java.util.Set;
import java.util.UUID;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.LockBackendException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHold;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Synchronous callers run their statements on their own thread, with no hop to the
 * store's executor and back, still bounded by the command timeout; asynchronous callers
 * keep the executor. The threads are the ones a counting {@code DataSource} saw execute
 * the statements.
 *
 * @author distlock
 */
class JdbcLockStoreCallerThreadTests {

	private static final String TABLE = "distlock_caller_lock";

	private static final Duration LEASE = Duration.ofSeconds(30);

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void aSynchronousAcquireAndReleaseRunOnTheCallersThreadAndAnAsynchronousOneOnTheStores(TestDatabase database)
			throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(2)) {
			CountingDataSource counting = new CountingDataSource(pool, false);
			try (JdbcLockStore store = store(counting, database, Duration.ofSeconds(5));
					LockClient client = new DefaultLockClient(store)) {
				String key = "caller:" + UUID.randomUUID();
				String caller = Thread.currentThread().getName();
				counting.takeThreads();
				LockHold hold = client.acquire(key, Duration.ZERO, LEASE);
				assertThat(counting.takeThreads()).as("the acquire's").containsExactly(caller);
				hold.release();
				assertThat(counting.takeThreads()).as("the release's").containsExactly(caller);

				LockHold asynchronous = client.acquireAsync(key, Duration.ZERO, LEASE).toCompletableFuture().join();
				asynchronous.releaseAsync().toCompletableFuture().join();
				Set<String> threads = counting.takeThreads();
				assertThat(threads).isNotEmpty().doesNotContain(caller);
				assertThat(threads).allSatisfy((name) -> assertThat(name).startsWith("distlock-jdbc-"));
			}
		}
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = { "POSTGRESQL", "MARIADB" })
	void aSynchronousAcquireOnTheCallersThreadIsBoundedByTheCommandTimeout(TestDatabase database) throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(2)) {
			CountingDataSource counting = new CountingDataSource(pool, false);
			try (JdbcLockStore store = store(counting, database, Duration.ofSeconds(1));
					LockClient client = new DefaultLockClient(store);
					Connection blocker = database.connect()) {
				String key = "caller-bound:" + UUID.randomUUID();
				client.acquire(key, Duration.ZERO, LEASE).release();
				// Another transaction holds the key's row lock: the acquiring statement
				// waits for it until its query timeout, the command timeout, stops it
				blocker.setAutoCommit(false);
				try (PreparedStatement lock = blocker
					.prepareStatement("UPDATE " + TABLE + " SET expires_at = expires_at WHERE lock_key = ?")) {
					lock.setString(1, key);
					assertThat(lock.executeUpdate()).isEqualTo(1);
				}
				counting.takeThreads();
				assertThatExceptionOfType(LockBackendException.class)
					.isThrownBy(() -> client.acquire(key, Duration.ZERO, LEASE));
				// The refused statement ran here; the release the engine sends after a
				// failure, in case the statement granted late, runs on the store's
				// threads
				assertThat(counting.takeThreads()).contains(Thread.currentThread().getName());
				blocker.rollback();
				client.acquire(key, Duration.ZERO, LEASE).release();
			}
		}
	}

	private static JdbcLockStore store(CountingDataSource counting, TestDatabase database, Duration commandTimeout) {
		JdbcLockSchema.initialize(counting.dataSource(), TABLE);
		return new JdbcLockStore(counting.dataSource(),
				JdbcLockStoreSettings.builder()
					.tableName(TABLE)
					.commandTimeout(commandTimeout)
					.cleanupInterval(Duration.ofHours(1))
					.listenerConnectionFactory(database::connect)
					.build());
	}

}
