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

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import com.zaxxer.hikari.HikariDataSource;
import org.jspecify.annotations.Nullable;

import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * Spring Integration's {@link JdbcLockRegistry} on a {@link DefaultLockRepository} with
 * the lease as its time to live and its defaults otherwise (a waiting lock re-tries every
 * 100 ms).
 *
 * @author distlock
 * @since 0.1.0
 */
final class JdbcLockRegistryContender implements JdbcLockContender {

	private final HikariDataSource pool;

	private final DefaultLockRepository repository;

	private final JdbcLockRegistry registry;

	JdbcLockRegistryContender(HikariDataSource pool, Duration lease) {
		this.pool = pool;
		this.repository = new DefaultLockRepository(pool);
		this.repository.setTransactionManager(new DataSourceTransactionManager(pool));
		this.repository.afterPropertiesSet();
		this.repository.afterSingletonsInstantiated();
		this.repository.start();
		this.registry = new JdbcLockRegistry(this.repository, lease);
	}

	@Override
	public @Nullable Held tryLock(String key, Duration wait) throws InterruptedException {
		Lock lock = this.registry.obtain(key);
		return lock.tryLock(wait.toMillis(), TimeUnit.MILLISECONDS) ? lock::unlock : null;
	}

	@Override
	public HikariDataSource pool() {
		return this.pool;
	}

	@Override
	public void close() {
		this.repository.stop();
		this.repository.close();
		this.pool.close();
	}

}
