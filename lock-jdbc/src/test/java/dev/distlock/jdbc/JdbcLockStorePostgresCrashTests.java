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

import java.sql.DriverManager;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.store.LockStore.Attempt;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A server crash right after a PostgreSQL release that was committed without waiting for
 * the flush: the release is lost, and the key is free again within one lease, with no two
 * holders. The test runs a PostgreSQL server of its own (see {@link OwnPostgres}), whose
 * WAL writer waits ten seconds between rounds and whose background writer writes no page,
 * so that the release's commit is still in the server's memory when
 * {@code pg_ctl stop -m immediate} ends it.
 *
 * @author distlock
 */
@Tag("slow")
class JdbcLockStorePostgresCrashTests {

	/**
	 * Longer than the crash and the restart take on a loaded machine, so that the lost
	 * release's lease is still running after them.
	 */
	private static final Duration LEASE = Duration.ofSeconds(20);

	@Test
	void aReleaseLostInACrashFreesTheKeyWithinOneLeaseWithoutTwoHolders() throws Exception {
		try (OwnPostgres postgres = OwnPostgres.start("wal_writer_delay=10s", "wal_writer_flush_after=0",
				"bgwriter_lru_maxpages=0", "autovacuum=off", "checkpoint_timeout=1h");
				HikariDataSource pool = pool(postgres)) {
			JdbcLockSchema.initialize(pool, JdbcLockStoreSettings.DEFAULT_TABLE_NAME);
			String key = "crash";
			long holderFence;
			try (JdbcLockStore store = store(pool)) {
				// The grant commits durably; the release does not wait for the flush
				Attempt granted = JdbcLockStoreTests.join(store.tryAcquire(key, "holder", LEASE));
				assertThat(granted.acquired()).isTrue();
				holderFence = granted.fencingToken();
				assertThat(JdbcLockStoreTests.join(store.release(key, "holder"))).isTrue();
				postgres.crash();
			}
			pool.getHikariPoolMXBean().softEvictConnections();
			postgres.start();
			try (JdbcLockStore store = store(pool)) {
				// The release was lost: the holder's row is back, held to its lease's end
				Attempt first = await().atMost(30, TimeUnit.SECONDS)
					.ignoreExceptions()
					.until(() -> JdbcLockStoreTests.join(store.tryAcquire(key, "next", LEASE)), Objects::nonNull);
				assertThat(first.acquired()).as("the release lost in the crash keeps the lock held").isFalse();
				assertThat(first.holderLeaseRemaining()).isNotNull().isLessThanOrEqualTo(LEASE);
				assertThat(JdbcLockStoreTests.join(store.inspect(key)).ownerToken()).isEqualTo("holder");
				// No two holders: the next caller is refused until the lease ends, then
				// granted with a higher fencing token, and the old holder owns nothing
				AtomicReference<Attempt> next = new AtomicReference<>();
				await().atMost(LEASE.plusSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
					Attempt attempt = JdbcLockStoreTests.join(store.tryAcquire(key, "next", LEASE));
					next.set(attempt);
					return attempt.acquired();
				});
				assertThat(next.get().fencingToken()).isGreaterThan(holderFence);
				assertThat(JdbcLockStoreTests.join(store.isOwner(key, "holder"))).isFalse();
				assertThat(JdbcLockStoreTests.join(store.release(key, "holder"))).isFalse();
				assertThat(JdbcLockStoreTests.join(store.inspect(key)).ownerToken()).isEqualTo("next");
			}
		}
	}

	private static HikariDataSource pool(OwnPostgres postgres) {
		HikariDataSource pool = new HikariDataSource();
		pool.setJdbcUrl(postgres.url());
		pool.setUsername("postgres");
		pool.setPassword("");
		pool.setMaximumPoolSize(2);
		pool.setMinimumIdle(0);
		pool.setConnectionTimeout(5000);
		pool.setPoolName("distlock-own-postgres");
		return pool;
	}

	private static JdbcLockStore store(HikariDataSource pool) {
		return new JdbcLockStore(pool,
				JdbcLockStoreSettings.builder()
					.cleanupInterval(Duration.ofHours(1))
					.listenerConnectionFactory(() -> DriverManager.getConnection(pool.getJdbcUrl(), "postgres", ""))
					.build());
	}

}
