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

package dev.distlock.store.test.example;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import dev.distlock.store.LockStore;
import dev.distlock.store.test.LockStoreContractTests;
import org.h2.jdbcx.JdbcDataSource;

/**
 * The whole contract kit on the guide's example store, on one in-memory H2 database: the
 * groups of the extensions it does not implement are skipped.
 *
 * @author distlock
 */
class ExampleJdbcLockStoreContractTests extends LockStoreContractTests {

	private static final JdbcDataSource dataSource = new JdbcDataSource();

	static {
		dataSource.setURL("jdbc:h2:mem:example-locks;DB_CLOSE_DELAY=-1");
	}

	@Override
	protected LockStore newStore() {
		return new ExampleJdbcLockStore(dataSource);
	}

	@Override
	protected boolean isLocked(String key) {
		return query("SELECT 1 FROM example_lock WHERE lock_key = ? AND owner IS NOT NULL "
				+ "AND expires_at > LOCALTIMESTAMP(3)", key);
	}

	@Override
	protected void takeOver(String key) {
		update("MERGE INTO example_lock KEY (lock_key) VALUES (?, 'someone-else', NULL, "
				+ "DATEADD(HOUR, 1, LOCALTIMESTAMP(3)), COALESCE((SELECT fence FROM example_lock WHERE lock_key = ?), 0) + 1)",
				key, key);
	}

	@Override
	protected void expire(String key) {
		update("UPDATE example_lock SET expires_at = DATEADD(SECOND, -1, LOCALTIMESTAMP(3)) WHERE lock_key = ?", key);
	}

	private static boolean query(String sql, String key) {
		try (Connection connection = dataSource.getConnection();
				PreparedStatement statement = connection.prepareStatement(sql)) {
			statement.setString(1, key);
			try (ResultSet rows = statement.executeQuery()) {
				return rows.next();
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static void update(String sql, String... arguments) {
		try (Connection connection = dataSource.getConnection();
				PreparedStatement statement = connection.prepareStatement(sql)) {
			for (int i = 0; i < arguments.length; i++) {
				statement.setString(i + 1, arguments[i]);
			}
			statement.executeUpdate();
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
