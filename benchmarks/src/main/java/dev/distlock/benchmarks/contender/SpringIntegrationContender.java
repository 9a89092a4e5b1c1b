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

import dev.distlock.benchmarks.RedisEndpoint;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Spring Integration's {@link RedisLockRegistry} with its default lock type; renewing
 * leases through a task scheduler only where asked, as the registry does not renew by
 * default.
 *
 * @author distlock
 * @since 0.1.0
 */
final class SpringIntegrationContender implements LockContender {

	private final LettuceConnectionFactory connectionFactory;

	private final RedisLockRegistry registry;

	private final @Nullable ThreadPoolTaskScheduler renewalScheduler;

	SpringIntegrationContender(RedisEndpoint endpoint, Duration lease, boolean renew) {
		this.connectionFactory = SpringRedis.connectionFactory(endpoint);
		this.registry = new RedisLockRegistry(this.connectionFactory, "si", lease);
		this.renewalScheduler = renew ? renewalScheduler() : null;
		if (this.renewalScheduler != null) {
			this.registry.setRenewalTaskScheduler(this.renewalScheduler);
		}
	}

	private static ThreadPoolTaskScheduler renewalScheduler() {
		ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
		scheduler.setThreadNamePrefix("si-renewal-");
		scheduler.initialize();
		return scheduler;
	}

	@Override
	public @Nullable Held tryLock(String key, Duration wait) throws InterruptedException {
		Lock lock = this.registry.obtain(key);
		return lock.tryLock(wait.toMillis(), TimeUnit.MILLISECONDS) ? lock::unlock : null;
	}

	@Override
	public void close() {
		this.registry.destroy();
		if (this.renewalScheduler != null) {
			this.renewalScheduler.shutdown();
		}
		this.connectionFactory.destroy();
	}

}
