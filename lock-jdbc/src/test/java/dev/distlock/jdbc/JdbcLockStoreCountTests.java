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

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import dev.distlock.store.LockStore.Attempt;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The statements and round trips of the {@link JdbcLockStore}'s hot path, counted at the
 * driver's interface on each database, so that the one-statement paths cannot regress
 * silently; and the replay of each of those statements, which answers as the first did.
 *
 * @author distlock
 */
class JdbcLockStoreCountTests {

	private static final String TABLE = "distlock_count_lock";

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final Duration WAIT = Duration.ofSeconds(30);

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void anUncontendedAcquireAndReleaseTakeOneStatementEach(TestDatabase database) throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(2)) {
			CountingDataSource counting = counting(pool, database);
			try (JdbcLockStore store = store(counting, database)) {
				String key = "count:" + UUID.randomUUID();
				warmUp(store, counting);
				Attempt first = join(store.tryAcquire(key, "first", LEASE));
				assertThat(first.acquired()).isTrue();
				int newKeyStatements = counting.takeStatements();
				counting.takeRoundTrips();
				assertThat(join(store.release(key, "first"))).isTrue();
				counting.takeStatements();
				counting.takeRoundTrips();

				assertThat(join(store.tryAcquire(key, "second", LEASE)).acquired()).isTrue();
				int acquireStatements = counting.takeStatements();
				int acquireRoundTrips = counting.takeRoundTrips();
				assertThat(join(store.release(key, "second"))).isTrue();
				int releaseStatements = counting.takeStatements();
				int releaseRoundTrips = counting.takeRoundTrips();

				assertThat(new int[] { newKeyStatements, acquireStatements, acquireRoundTrips, releaseStatements,
						releaseRoundTrips })
					.as("statements for a new key; statements and round trips of an acquire, then of a release")
					.containsExactly(expected(database));
			}
		}
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void aRefusalTellsTheHoldersRemainingLease(TestDatabase database) throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(2)) {
			CountingDataSource counting = counting(pool, database);
			try (JdbcLockStore store = store(counting, database)) {
				String key = "count:" + UUID.randomUUID();
				warmUp(store, counting);
				assertThat(join(store.tryAcquire(key, "holder", LEASE)).acquired()).isTrue();
				counting.takeStatements();
				Attempt refused = join(store.tryAcquire(key, "waiter", LEASE));
				assertThat(refused.acquired()).isFalse();
				assertThat(refused.holderLeaseRemaining()).isNotNull()
					.isGreaterThan(LEASE.minusSeconds(10))
					.isLessThanOrEqualTo(LEASE);
				assertThat(counting.takeStatements()).isEqualTo(1);
			}
		}
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void aReplayedAcquireOrReleaseAnswersAsTheFirstDid(TestDatabase database) throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(2);
				JdbcLockStore store = store(new CountingDataSource(pool, false), database)) {
			String newKey = "replay:" + UUID.randomUUID();
			Attempt granted = join(store.tryAcquire(newKey, "owner", LEASE));
			Attempt replayed = join(store.tryAcquire(newKey, "owner", LEASE));
			assertThat(replayed.acquired()).isTrue();
			assertThat(replayed.fencingToken()).isEqualTo(granted.fencingToken());
			assertThat(join(store.release(newKey, "owner"))).isTrue();
			assertThat(join(store.release(newKey, "owner"))).isTrue();
			Attempt again = join(store.tryAcquire(newKey, "next", LEASE));
			Attempt againReplayed = join(store.tryAcquire(newKey, "next", LEASE));
			assertThat(again.fencingToken()).isGreaterThan(granted.fencingToken());
			assertThat(againReplayed.fencingToken()).isEqualTo(again.fencingToken());
			assertThat(join(store.release(newKey, "owner"))).as("a stale owner's release").isFalse();
			assertThat(join(store.inspect(newKey)).ownerToken()).isEqualTo("next");
		}
	}

	/**
	 * Statements for a new key; statements and round trips of an acquire, then of a
	 * release (an autocommit pool).
	 */
	private static int[] expected(TestDatabase database) {
		return switch (database) {
			// One upsert; one release
			case POSTGRESQL -> new int[] { 1, 1, 1, 1, 1 };
			// A conditional update (and an insert for a new key); one release
			case MARIADB -> new int[] { 2, 1, 1, 1, 1 };
			// The row locked and read, then granted with its fence, in one transaction (a
			// one-statement MERGE failed requests of two instances on an H2 server); one
			// release
			case H2 -> new int[] { 5, 3, 4, 1, 1 };
		};
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void handOversInsideOneClientTakeNoStatement(TestDatabase database) throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(4)) {
			CountingDataSource counting = counting(pool, database);
			JdbcLockStore store = store(counting, database);
			// A lease long enough that no renewal round falls into a count
			DefaultLockClient client = new DefaultLockClient(store,
					LockClientSettings.defaults().withWatchdogLease(Duration.ofMinutes(10)));
			try {
				warmUp(store, counting);
				int one = statementsToPassAmong(client, counting, 1);
				int seven = statementsToPassAmong(client, counting, 7);
				assertThat(seven)
					.as("statements to hand the lock to 7 callers, as to 1: the first hand-over goes through the "
							+ "store, the 6 more without a statement")
					.isEqualTo(one)
					.isPositive();
			}
			finally {
				client.close();
			}
		}
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void fencingTokensOfHandOversWithoutAStatementStayBelowTheGrantAfterTheRowIsDeleted(TestDatabase database)
			throws Exception {
		database.assumeAvailable();
		try (HikariDataSource pool = database.pool(4)) {
			String key = "count:" + UUID.randomUUID();
			List<Long> fences = new ArrayList<>();
			try (DefaultLockClient client = new DefaultLockClient(store(counting(pool, database), database))) {
				LockHold holder = client.acquire(key, Duration.ZERO, null);
				fences.add(holder.fencingToken());
				List<CompletableFuture<Long>> served = new ArrayList<>();
				for (int i = 0; i < 4; i++) {
					served.add(client.acquireAsync(key, WAIT, null)
						.thenCompose((hold) -> hold.releaseAsync().thenApply((released) -> hold.fencingToken()))
						.toCompletableFuture());
					int queued = i + 1;
					await().atMost(WAIT).until(() -> client.waitingCount(key) == queued);
				}
				holder.release();
				for (CompletableFuture<Long> fence : served) {
					fences.add(fence.get(60, TimeUnit.SECONDS));
				}
			}
			try (Connection connection = pool.getConnection();
					PreparedStatement delete = connection
						.prepareStatement("DELETE FROM " + TABLE + " WHERE lock_key = ?")) {
				if (database == TestDatabase.MARIADB) {
					// The key column is binary there: keys are bound as bytes of UTF-8
					delete.setBytes(1, key.getBytes(StandardCharsets.UTF_8));
				}
				else {
					delete.setString(1, key);
				}
				assertThat(delete.executeUpdate()).as("the key's row deleted").isEqualTo(1);
			}
			try (DefaultLockClient restarted = new DefaultLockClient(store(counting(pool, database), database))) {
				LockHold after = restarted.acquire(key, Duration.ZERO, null);
				assertThat(fences.get(fences.size() - 1)).as("the last hand-over went without a statement")
					.isEqualTo(fences.get(fences.size() - 2) + 1);
				assertThat(after.fencingToken()).as("the grant after the row was deleted, by a new client")
					.isGreaterThan(fences.get(fences.size() - 1));
				after.release();
			}
		}
	}

	/**
	 * Hold a new key, queue {@code waiters} callers of {@code client}, release: return
	 * the statements from that release until the last caller released the key.
	 */
	private static int statementsToPassAmong(DefaultLockClient client, CountingDataSource counting, int waiters)
			throws Exception {
		String key = "count:" + UUID.randomUUID();
		LockHold holder = client.acquire(key, Duration.ZERO, null);
		List<CompletableFuture<Void>> served = new ArrayList<>();
		for (int i = 0; i < waiters; i++) {
			served.add(client.acquireAsync(key, WAIT, null).thenCompose(LockHold::releaseAsync).toCompletableFuture());
			int queued = i + 1;
			await().atMost(WAIT).until(() -> client.waitingCount(key) == queued);
		}
		counting.takeStatements();
		holder.release();
		CompletableFuture.allOf(served.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
		return counting.takeStatements();
	}

	/**
	 * Take and give back a lock once: the store reads the pool's default isolation in its
	 * first transaction.
	 */
	private static void warmUp(JdbcLockStore store, CountingDataSource counting) {
		String key = "warm-up:" + UUID.randomUUID();
		join(store.tryAcquire(key, "warm-up", LEASE));
		join(store.release(key, "warm-up"));
		counting.takeStatements();
		counting.takeRoundTrips();
	}

	private static CountingDataSource counting(HikariDataSource pool, TestDatabase database) {
		return new CountingDataSource(pool, database == TestDatabase.MARIADB);
	}

	private static JdbcLockStore store(CountingDataSource counting, TestDatabase database) {
		JdbcLockSchema.initialize(counting.dataSource(), TABLE);
		return new JdbcLockStore(counting.dataSource(),
				JdbcLockStoreSettings.builder()
					.tableName(TABLE)
					.cleanupInterval(Duration.ofHours(1))
					.listenerConnectionFactory(database::connect)
					.build());
	}

	static <T> T join(CompletionStage<T> stage) {
		return stage.toCompletableFuture().join();
	}

}
