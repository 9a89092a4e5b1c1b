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
import java.util.List;

import com.baomidou.lock.LockInfo;
import com.baomidou.lock.LockTemplate;
import com.baomidou.lock.executor.RedisTemplateLockExecutor;
import com.baomidou.lock.spring.boot.autoconfigure.Lock4jProperties;
import dev.distlock.benchmarks.RedisEndpoint;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * lock4j's {@link LockTemplate} with its {@link RedisTemplateLockExecutor}, wired by hand
 * because lock4j's Spring Boot 2 auto-configuration does not load on Spring Boot 4. It
 * waits by retrying at its default retry interval. With {@code renew} it asks for
 * lock4j's renewal (an expire of {@code -1}), else it takes the lease as a fixed expire.
 *
 * @author distlock
 * @since 0.1.0
 */
final class Lock4jContender implements LockContender {

	/** The expire that makes lock4j's Redis executor renew the lock. */
	private static final long RENEWING_EXPIRE = -1;

	private final LettuceConnectionFactory connectionFactory;

	private final LockTemplate template;

	private final long expireMillis;

	Lock4jContender(RedisEndpoint endpoint, Duration lease, boolean renew) throws Exception {
		this.connectionFactory = SpringRedis.connectionFactory(endpoint);
		Lock4jProperties properties = new Lock4jProperties();
		properties.setPrimaryExecutor(RedisTemplateLockExecutor.class);
		this.template = new LockTemplate();
		this.template.setProperties(properties);
		this.template.setExecutors(
				List.of(new RedisTemplateLockExecutor(new StringRedisTemplate(this.connectionFactory), properties)));
		this.template.afterPropertiesSet();
		this.expireMillis = renew ? RENEWING_EXPIRE : lease.toMillis();
	}

	@Override
	public @Nullable Held tryLock(String key, Duration wait) {
		LockInfo info = this.template.lock(key, this.expireMillis, wait.toMillis(), RedisTemplateLockExecutor.class);
		if (info == null) {
			return null;
		}
		return () -> {
			if (!this.template.releaseLock(info)) {
				throw new IllegalStateException("lock4j could not release '" + key + "': it was no longer held");
			}
		};
	}

	@Override
	public void close() {
		this.connectionFactory.destroy();
	}

}
