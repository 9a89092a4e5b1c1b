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

package dev.distlock.benchmarks.contender;

import java.sql.DriverManager;
import java.time.Duration;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHandle;
import dev.distlock.jdbc.JdbcLockStore;
import dev.distlock.jdbc.JdbcLockStoreSettings;
import org.jspecify.annotations.Nullable;

/**
 * distlock's {@link DefaultLockClient} on a {@link JdbcLockStore} with its default
 * settings, in watchdog mode (no lease given), PostgreSQL's listener connection opened
 * outside the pool as the auto-configuration opens it.
 *
 * @author distlock
 * @since 0.1.0
 */
final class DistlockJdbcContender implements JdbcLockContender {

	private final HikariDataSource pool;

	private final JdbcLockStore store;

	private final DefaultLockClient client;

	DistlockJdbcContender(HikariDataSource pool, Duration lease) {
		this.pool = pool;
		// as the auto-configuration does for a HikariCP pool: PostgreSQL's listener
		// outside the pool
		String url = pool.getJdbcUrl();
		String user = pool.getUsername();
		String password = pool.getPassword();
		this.store = new JdbcLockStore(pool,
				JdbcLockStoreSettings.builder()
					.listenerConnectionFactory(() -> DriverManager.getConnection(url, user, password))
					.build());
		this.client = new DefaultLockClient(this.store, LockClientSettings.defaults().withWatchdogLease(lease));
	}

	@Override
	public @Nullable Held tryLock(String key, Duration wait) throws InterruptedException {
		LockHandle handle = this.client.obtain(key);
		return handle.tryLock(wait) ? handle::unlock : null;
	}

	@Override
	public HikariDataSource pool() {
		return this.pool;
	}

	@Override
	public void close() {
		this.client.close();
		this.store.close();
		this.pool.close();
	}

}
