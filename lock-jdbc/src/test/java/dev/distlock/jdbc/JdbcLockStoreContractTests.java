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
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.store.LockStore;
import dev.distlock.store.test.LockStoreContractTests;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;

/**
 * The whole contract kit, end to end and store SPI, on the {@link JdbcLockStore} of one
 * running database: each store is a new instance on one pool, with its own release
 * listener or poller, as application instances have; the hooks read and change the lock
 * table directly. The outage cases cut the pool off ({@link SeveredDataSource}).
 *
 * @author distlock
 */
abstract class JdbcLockStoreContractTests extends LockStoreContractTests {

	/**
	 * The lock table of these tests, apart from other tests' tables.
	 */
	static final String TABLE = "distlock_kit_lock";

	/**
	 * Generous for a build machine under load: 2,000 waiters' attempts queue at once on
	 * the store's four threads.
	 */
	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);

	private static @Nullable HikariDataSource pool;

	private static @Nullable SeveredDataSource dataSource;

	private static @Nullable TestDatabase database;

	static void start(TestDatabase tested) {
		tested.assumeAvailable();
		database = tested;
		pool = tested.pool(16);
		dataSource = new SeveredDataSource(pool);
		JdbcLockSchema.initialize(pool, TABLE);
	}

	@AfterAll
	static void stop() {
		if (pool != null) {
			pool.close();
			pool = null;
		}
		dataSource = null;
		database = null;
	}

	@Override
	protected LockStore newStore() {
		TestDatabase tested = database;
		return new JdbcLockStore(dataSource,
				JdbcLockStoreSettings.builder()
					.tableName(TABLE)
					.commandTimeout(COMMAND_TIMEOUT)
					// The kit bounds the threads 2,000 waiters may add at four, the size
					// of
					// the fixed executor the store had; the store now sizes it to the
					// pool
					// (JdbcLockStoreSettingsTests), here set to the kit's bound
					.threads(4)
					.listenerConnectionFactory(() -> {
						dataSourceOrFail().getConnection().close();
						return tested.connect();
					})
					.build());
	}

	@Override
	protected boolean isLocked(String key) {
		return query("SELECT 1 FROM " + TABLE + " WHERE lock_key = ? AND released = FALSE AND expires_at > "
				+ dialect().nowMillis(), key);
	}

	@Override
	protected void takeOver(String key) {
		String now = dialect().nowMillis();
		if (update("UPDATE " + TABLE + " SET owner_token = 'someone-else', released = FALSE, expires_at = " + now
				+ " + 3600000, fencing_token = fencing_token + 1 WHERE lock_key = ?", key) == 0) {
			update("INSERT INTO " + TABLE + " (lock_key, owner_token, released, expires_at, fencing_token) "
					+ "VALUES (?, 'someone-else', FALSE, " + now + " + 3600000, 1)", key);
		}
	}

	@Override
	protected void expire(String key) {
		update("UPDATE " + TABLE + " SET expires_at = " + dialect().nowMillis() + " - 1000 WHERE lock_key = ?", key);
	}

	@Override
	protected boolean canBeMadeUnreachable() {
		return true;
	}

	@Override
	protected void setUnreachable(boolean unreachable) {
		dataSourceOrFail().setSevered(unreachable);
	}

	private static SeveredDataSource dataSourceOrFail() {
		SeveredDataSource severed = dataSource;
		if (severed == null) {
			throw new IllegalStateException("The database was not started");
		}
		return severed;
	}

	private static JdbcDialect dialect() {
		return JdbcDialect.detect(pool);
	}

	private static boolean query(String sql, String key) {
		try (Connection connection = pool.getConnection();
				PreparedStatement statement = prepare(connection, sql, List.of(key));
				ResultSet rows = statement.executeQuery()) {
			return rows.next();
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static int update(String sql, String key) {
		try (Connection connection = pool.getConnection();
				PreparedStatement statement = prepare(connection, sql, List.of(key))) {
			return statement.executeUpdate();
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static PreparedStatement prepare(Connection connection, String sql, List<String> keys) throws SQLException {
		PreparedStatement statement = connection.prepareStatement(sql);
		for (int i = 0; i < keys.size(); i++) {
			statement.setString(i + 1, keys.get(i));
		}
		return statement;
	}

}
