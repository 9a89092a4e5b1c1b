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
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.store.LockStore.Subscription;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The poller of a database that cannot notify (MariaDB, H2): it sends no statement while
 * nobody waits, at most one per poll interval for the keys waited for, and wakes their
 * waiters when a store of another instance releases.
 *
 * @author distlock
 */
class JdbcLockStorePollingTests {

	private static final String TABLE = "distlock_polling_lock";

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final Duration POLL_INTERVAL = Duration.ofMillis(10);

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = { "MARIADB", "H2" })
	void thePollerSendsNothingWhileNobodyWaitsAndAtMostOneStatementPerPollWhileSomeoneDoes(TestDatabase database)
			throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(4)) {
			CountingDataSource counting = new CountingDataSource(pool, false);
			try (JdbcLockStore holders = store(pool); JdbcLockStore waiters = store(counting.dataSource())) {
				String key = "polled:" + UUID.randomUUID();
				counting.takeStatements();
				// Nobody waits: nothing is sent during many poll intervals
				Thread.sleep(30 * POLL_INTERVAL.toMillis());
				assertThat(counting.takeStatements()).isZero();

				assertThat(JdbcLockStoreTests.join(holders.tryAcquire(key, "holder", LEASE)).acquired()).isTrue();
				AtomicInteger woken = new AtomicInteger();
				long started = System.nanoTime();
				Subscription subscription = waiters.onRelease(key, woken::incrementAndGet);
				AtomicInteger polled = new AtomicInteger();
				await().atMost(10, TimeUnit.SECONDS).until(() -> polled.addAndGet(counting.takeStatements()) >= 5);
				assertThat(JdbcLockStoreTests.join(holders.release(key, "holder"))).isTrue();
				await().atMost(10, TimeUnit.SECONDS).until(() -> woken.get() > 0);
				subscription.close();
				long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
				// One key: one statement per poll, polls at least one interval apart
				assertThat(polled.addAndGet(counting.takeStatements()))
					.isLessThanOrEqualTo((int) (elapsedMillis / POLL_INTERVAL.toMillis()) + 2);

				// Nobody waits again: nothing more is sent (a poll in flight may end)
				await().atMost(10, TimeUnit.SECONDS).until(() -> counting.takeStatements() == 0);
				Thread.sleep(30 * POLL_INTERVAL.toMillis());
				assertThat(counting.takeStatements()).isZero();
			}
		}
	}

	private static JdbcLockStore store(DataSource dataSource) {
		JdbcLockSchema.initialize(dataSource, TABLE);
		return new JdbcLockStore(dataSource,
				JdbcLockStoreSettings.builder()
					.tableName(TABLE)
					.pollInterval(POLL_INTERVAL)
					.cleanupInterval(Duration.ofHours(1))
					.build());
	}

}
