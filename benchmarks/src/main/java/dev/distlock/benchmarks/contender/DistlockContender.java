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

import dev.distlock.benchmarks.RedisEndpoint;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHandle;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.redis.RedisLockStore;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * distlock's {@link DefaultLockClient} on a {@link RedisLockStore}, in watchdog mode (no
 * lease given).
 *
 * @author distlock
 * @since 0.1.0
 */
final class DistlockContender implements LockContender {

	private final LettuceConnectionFactory connectionFactory;

	private final DefaultLockClient client;

	private final LockClient locks;

	DistlockContender(RedisEndpoint endpoint, Duration lease, boolean fair) {
		this.connectionFactory = SpringRedis.connectionFactory(endpoint);
		this.client = new DefaultLockClient(new RedisLockStore(new StringRedisTemplate(this.connectionFactory)),
				LockClientSettings.defaults().withWatchdogLease(lease));
		this.locks = fair ? this.client.fair() : this.client;
	}

	@Override
	public @Nullable Held tryLock(String key, Duration wait) throws InterruptedException {
		LockHandle handle = this.locks.obtain(key);
		return handle.tryLock(wait) ? handle::unlock : null;
	}

	@Override
	public void close() {
		this.client.close();
		this.connectionFactory.destroy();
	}

}
