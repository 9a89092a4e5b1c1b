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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.core.LockHold;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.store.HandOverExtension.HandOff;
import dev.distlock.store.test.RequestCountingLockStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A holder yields its key to other clients only when one may wait: on PostgreSQL a
 * hand-over tells whether a waiter is recorded in the key's row, so with only local
 * callers waiting the lock passes among them without a release; on MariaDB, which records
 * no waiter, a holder still yields after each run of hand-overs. Counted, never timed.
 *
 * @author distlock
 */
class JdbcLockStoreCohortYieldTests {

	private static final String TABLE = "distlock_yield_lock";

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final Duration WAIT = Duration.ofSeconds(30);

	@Test
	void onPostgreSqlAHandOverTellsWhetherAWaiterIsRecorded() throws Exception {
		TestDatabase.POSTGRESQL.assumeAvailable();
		try (HikariDataSource pool = TestDatabase.POSTGRESQL.pool(2);
				JdbcLockStore store = store(pool, TestDatabase.POSTGRESQL);
				JdbcLockStore other = store(pool, TestDatabase.POSTGRESQL)) {
			String key = "yield:" + UUID.randomUUID();
			assertThat(JdbcLockStoreTests.join(store.tryAcquire(key, "t1", LEASE)).acquired()).isTrue();
			HandOff alone = handOver(store, key, "t1", "t2");
			assertThat(alone.attempt().acquired()).isTrue();
			assertThat(alone.othersWait()).as("nobody recorded").isFalse();
			assertThat(handOver(store, key, "t1", "t2")).as("a replay answers as the first did").isEqualTo(alone);
			assertThat(JdbcLockStoreTests.join(other.tryAcquire(key, "theirs", LEASE)).acquired()).isFalse();
			HandOff waited = handOver(store, key, "t2", "t3");
			assertThat(waited.attempt().acquired()).isTrue();
			assertThat(waited.othersWait()).as("a refused take of another store recorded its waiter").isTrue();
			assertThat(handOver(store, key, "t2", "t4").attempt().acquired()).as("not the owner any more").isFalse();
		}
	}

	@Test
	void onMariaDbAHandOverSaysThatOthersMayWait() throws Exception {
		TestDatabase.MARIADB.assumeAvailable();
		try (HikariDataSource pool = TestDatabase.MARIADB.pool(2);
				JdbcLockStore store = store(pool, TestDatabase.MARIADB)) {
			String key = "yield:" + UUID.randomUUID();
			assertThat(JdbcLockStoreTests.join(store.tryAcquire(key, "t1", LEASE)).acquired()).isTrue();
			HandOff handOff = handOver(store, key, "t1", "t2");
			assertThat(handOff.attempt().acquired()).isTrue();
			assertThat(handOff.othersWait()).as("no waiter is recorded on MariaDB: anyone may wait").isTrue();
		}
	}

	@Test
	void onPostgreSqlWithOnlyLocalWaitersTheHolderPassesTheLockOnWithoutReleasingIt() throws Exception {
		TestDatabase.POSTGRESQL.assumeAvailable();
		try (HikariDataSource pool = TestDatabase.POSTGRESQL.pool(4);
				JdbcLockStore jdbcStore = store(pool, TestDatabase.POSTGRESQL)) {
			RequestCountingLockStore store = new RequestCountingLockStore(jdbcStore);
			DefaultLockClient client = new DefaultLockClient(store,
					LockClientSettings.defaults().withCohortHandOffs(2));
			try {
				String key = "yield:" + UUID.randomUUID();
				LockHold holder = client.acquire(key, Duration.ZERO, null);
				int waiters = 6;
				List<CompletableFuture<Void>> served = new ArrayList<>();
				for (int i = 0; i < waiters; i++) {
					served.add(client.acquireAsync(key, WAIT, null)
						.thenCompose(LockHold::releaseAsync)
						.toCompletableFuture());
					int queued = i + 1;
					await().atMost(WAIT).until(() -> client.waitingCount(key) == queued);
				}
				store.reset();
				holder.release();
				CompletableFuture.allOf(served.toArray(CompletableFuture[]::new)).join();
				// Every local waiter got the lock handed over: the first through the
				// store,
				// which tells that no other client waits, the others without a statement
				assertThat(store.handOvers()).as("hand-overs through the store").isEqualTo(1);
				assertThat(store.releases()).as("one release, by the last holder").isEqualTo(1);
				assertThat(store.attempts()).as("no local waiter yielded and asked the store").isZero();
			}
			finally {
				client.close();
			}
		}
	}

	private static HandOff handOver(JdbcLockStore store, String key, String token, String nextToken) {
		return JdbcLockStoreTests.join(store.handOver(key, token, nextToken, LEASE, "client"));
	}

	private static JdbcLockStore store(HikariDataSource pool, TestDatabase database) {
		JdbcLockSchema.initialize(pool, TABLE);
		JdbcLockStoreSettings.Builder settings = JdbcLockStoreSettings.builder().tableName(TABLE);
		if (database == TestDatabase.POSTGRESQL) {
			settings.listenerConnectionFactory(TestDatabase.POSTGRESQL::connect);
		}
		return new JdbcLockStore(pool, settings.build());
	}

}
