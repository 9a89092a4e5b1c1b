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
import java.util.UUID;

import dev.distlock.benchmarks.RedisEndpoint;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A diagnostic, not a target: the {@link FloorContender floor}'s two commands sent
 * through Spring Data Redis's {@link StringRedisTemplate} on the connection factory
 * distlock uses, to separate the cost of that client stack from distlock's own.
 *
 * @author distlock
 * @since 0.1.0
 */
final class TemplateFloorContender implements LockContender {

	private static final RedisScript<Long> RELEASE = RedisScript.of(FloorContender.RELEASE, Long.class);

	private final LettuceConnectionFactory connectionFactory;

	private final StringRedisTemplate redis;

	private final Duration lease;

	TemplateFloorContender(RedisEndpoint endpoint, Duration lease) {
		this.connectionFactory = SpringRedis.connectionFactory(endpoint);
		this.redis = new StringRedisTemplate(this.connectionFactory);
		this.lease = lease;
	}

	@Override
	public @Nullable Held tryLock(String key, Duration wait) throws InterruptedException {
		String lockKey = "template-floor:" + key;
		String token = UUID.randomUUID().toString();
		long deadline = System.nanoTime() + wait.toNanos();
		while (!Boolean.TRUE.equals(this.redis.opsForValue().setIfAbsent(lockKey, token, this.lease))) {
			if (System.nanoTime() - deadline >= 0) {
				return null;
			}
			Thread.sleep(FloorContender.POLL_MILLIS);
		}
		return () -> release(lockKey, token);
	}

	private void release(String lockKey, String token) {
		Long deleted = this.redis.execute(RELEASE, List.of(lockKey), token);
		if (deleted == null || deleted != 1L) {
			throw new IllegalStateException("Floor lock '" + lockKey + "' was no longer held at release");
		}
	}

	@Override
	public void close() {
		this.connectionFactory.destroy();
	}

}
