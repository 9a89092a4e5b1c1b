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
import java.util.Optional;

import com.zaxxer.hikari.HikariDataSource;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * ShedLock's {@link JdbcTemplateLockProvider} on the database's time
 * ({@code usingDbTime()}), lock at most for the lease, at least for nothing. ShedLock
 * answers at once whether it got the lock; a wait re-tries every {@link #POLL}.
 *
 * @author distlock
 * @since 0.1.0
 */
final class ShedLockContender implements JdbcLockContender {

	/** How often a waiting caller asks again. */
	static final Duration POLL = Duration.ofMillis(10);

	private final HikariDataSource pool;

	private final JdbcTemplateLockProvider provider;

	private final Duration lease;

	ShedLockContender(HikariDataSource pool, Duration lease) {
		this.pool = pool;
		this.provider = new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration.builder()
			.withJdbcTemplate(new JdbcTemplate(pool))
			.usingDbTime()
			.build());
		this.lease = lease;
	}

	@Override
	public @Nullable Held tryLock(String key, Duration wait) throws InterruptedException {
		long deadline = System.nanoTime() + wait.toNanos();
		while (true) {
			Optional<SimpleLock> lock = this.provider
				.lock(new LockConfiguration(ClockProvider.now(), key, this.lease, Duration.ZERO));
			if (lock.isPresent()) {
				return lock.get()::unlock;
			}
			if (System.nanoTime() - deadline >= 0) {
				return null;
			}
			Thread.sleep(POLL.toMillis());
		}
	}

	@Override
	public HikariDataSource pool() {
		return this.pool;
	}

	@Override
	public void close() {
		this.pool.close();
	}

}
