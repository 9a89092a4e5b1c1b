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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Releases on PostgreSQL: committed without waiting for the flush, for that transaction
 * only, and still heard by the waiters of other stores while 16 callers release at once.
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
	void waitersInAnotherStoreHearReleasesWhileSixteenCallersRelease() throws Exception {
		TestDatabase.POSTGRESQL.assumeAvailable();
		ExecutorService callers = Executors.newFixedThreadPool(16);
		try (HikariDataSource pool = TestDatabase.POSTGRESQL.pool(10);
				JdbcLockStore holders = store(pool);
				JdbcLockStore waiters = store(pool)) {
			String tag = UUID.randomUUID().toString();
			List<String> waited = new ArrayList<>();
			for (int i = 0; i < 16; i++) {
				waited.add("waited:" + i + ":" + tag);
				assertThat(JdbcLockStoreTests.join(holders.tryAcquire(waited.get(i), "holder", LEASE)).acquired())
					.isTrue();
			}
			// A listener also runs when its store's listening connection (re)connects:
			// only
			// calls after the release was sent count
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
						JdbcLockStoreTests.join(holders.tryAcquire(own, "caller", LEASE));
						JdbcLockStoreTests.join(holders.release(own, "caller"));
					}
					releasing.add(key);
					JdbcLockStoreTests.join(holders.release(key, "holder"));
				}, callers));
			}
			CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
			await().atMost(10, TimeUnit.SECONDS)
				.untilAsserted(() -> assertThat(heard).containsExactlyInAnyOrderElementsOf(waited));
			subscriptions.forEach(Subscription::close);
		}
		finally {
			callers.shutdownNow();
		}
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
