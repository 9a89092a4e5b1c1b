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
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.store.LockStore.Subscription;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Releases on PostgreSQL: committed without waiting for the flush, for that transaction
 * only; under 16 callers, a release notifies nobody when no waiter is recorded for its
 * key, and still wakes the recorded waiters of another store.
 *
 * @author distlock
 */
class JdbcLockStorePostgresReleaseTests {

	private static final String TABLE = "distlock_release_lock";

	private static final Duration LEASE = Duration.ofSeconds(30);

	@Test
	void aReleaseLeavesTheConnectionsSynchronousCommitAsItWas() throws Exception {
		TestDatabase.POSTGRESQL.assumeAvailable();
		try (HikariDataSource pool = TestDatabase.POSTGRESQL.pool(1); JdbcLockStore store = store(pool)) {
			String key = "release:" + UUID.randomUUID();
			assertThat(JdbcLockStoreTests.join(store.tryAcquire(key, "owner", LEASE)).acquired()).isTrue();
			assertThat(JdbcLockStoreTests.join(store.release(key, "owner"))).isTrue();
			try (Connection connection = pool.getConnection();
					Statement statement = connection.createStatement();
					ResultSet rows = statement.executeQuery("SHOW synchronous_commit")) {
				rows.next();
				assertThat(rows.getString(1)).isEqualTo("on");
			}
			assertThat(JdbcLockStoreTests.join(store.inspect(key)).ownerToken()).isNull();
		}
	}

	@Test
	void sixteenCallersReleaseWithoutNotifyingWhileRecordedWaitersOfAnotherStoreAreWoken() throws Exception {
		TestDatabase.POSTGRESQL.assumeAvailable();
		ExecutorService callers = Executors.newFixedThreadPool(16);
		try (HikariDataSource pool = TestDatabase.POSTGRESQL.pool(10);
				JdbcLockStore holders = store(pool);
				JdbcLockStore waiters = store(pool);
				Connection counting = TestDatabase.POSTGRESQL.connect()) {
			// Every notification of the table's channel, counted on a connection of its
			// own
			try (Statement listen = counting.createStatement()) {
				listen.execute("LISTEN \"" + TABLE + "\"");
			}
			String tag = UUID.randomUUID().toString();
			List<String> waited = new ArrayList<>();
			for (int i = 0; i < 16; i++) {
				waited.add("waited:" + i + ":" + tag);
				assertThat(JdbcLockStoreTests.join(holders.tryAcquire(waited.get(i), "holder", LEASE)).acquired())
					.isTrue();
				// The waiter is refused, which records it in the key's row
				assertThat(JdbcLockStoreTests.join(waiters.tryAcquire(waited.get(i), "waiter", LEASE)).acquired())
					.isFalse();
			}
			// A listener also runs when its store's listening connection (re)connects:
			// only calls after the release was sent count
			Set<String> releasing = ConcurrentHashMap.newKeySet();
			Set<String> heard = ConcurrentHashMap.newKeySet();
			List<Subscription> subscriptions = new ArrayList<>();
			for (String key : waited) {
				subscriptions.add(waiters.onRelease(key, () -> {
					if (releasing.contains(key)) {
						heard.add(key);
					}
				}));
			}
			List<CompletableFuture<?>> running = new ArrayList<>();
			for (int i = 0; i < 16; i++) {
				String own = "own:" + i + ":" + tag;
				String key = waited.get(i);
				running.add(CompletableFuture.runAsync(() -> {
					for (int round = 0; round < 20; round++) {
						assertThat(JdbcLockStoreTests.join(holders.tryAcquire(own, "caller", LEASE)).acquired())
							.isTrue();
						assertThat(JdbcLockStoreTests.join(holders.release(own, "caller"))).isTrue();
					}
					releasing.add(key);
					JdbcLockStoreTests.join(holders.release(key, "holder"));
				}, callers));
			}
			CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
			await().atMost(10, TimeUnit.SECONDS)
				.untilAsserted(() -> assertThat(heard).containsExactlyInAnyOrderElementsOf(waited));
			// Notifications arrive in the order of their commits, and each caller's own
			// releases committed before its waited key's: once all of these arrived, a
			// notification of any own key would have too
			List<String> notified = new ArrayList<>();
			await().atMost(10, TimeUnit.SECONDS).untilAsserted(() -> {
				notified.addAll(notifications(counting));
				assertThat(notified).containsAll(waited);
			});
			assertThat(notified).filteredOn((key) -> key.startsWith("own:")).isEmpty();
			assertThat(notified).hasSize(waited.size());
			subscriptions.forEach(Subscription::close);
		}
		finally {
			callers.shutdownNow();
		}
	}

	private static List<String> notifications(Connection connection) throws SQLException {
		PGNotification[] received = connection.unwrap(PGConnection.class).getNotifications(100);
		List<String> keys = new ArrayList<>();
		if (received != null) {
			for (PGNotification notification : received) {
				keys.add(notification.getParameter());
			}
		}
		return keys;
	}

	private static JdbcLockStore store(HikariDataSource pool) {
		JdbcLockSchema.initialize(pool, TABLE);
		return new JdbcLockStore(pool,
				JdbcLockStoreSettings.builder()
					.tableName(TABLE)
					.listenerConnectionFactory(TestDatabase.POSTGRESQL::connect)
					.build());
	}

}
