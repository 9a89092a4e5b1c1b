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

package dev.distlock.redis;

import dev.distlock.store.LockStore;
import dev.distlock.redis.RedisLockStore;
import dev.distlock.store.test.LockStoreContractTests;

import dev.distlock.redis.RedisLockStore;
import dev.distlock.redis.LockKeys;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The lock contract on a Redis deployment: each client gets its own
 * {@link RedisLockStore}, as separate application instances would, and the suite tampers
 * with keys directly in Redis.
 *
 * @author distlock
 */
abstract class RedisLockStoreContractTests extends LockStoreContractTests {

	/**
	 * Return a template on the deployment under test.
	 */
	protected abstract StringRedisTemplate redis();

	@Override
	protected boolean fairWakeUpsCarryGrants() {
		return true;
	}

	@Override
	protected LockStore newStore() {
		return new RedisLockStore(redis());
	}

	@Override
	protected boolean isLocked(String key) {
		return Boolean.TRUE.equals(redis().hasKey(lockKey(key)));
	}

	@Override
	protected void takeOver(String key) {
		redis().opsForValue().set(lockKey(key), "someone-else");
	}

	@Override
	protected void expire(String key) {
		redis().delete(lockKey(key));
	}

	/**
	 * Return the Redis key of the lock on {@code key}: the default prefix and the key in
	 * a hash tag, braces and backslashes escaped, as the store names it.
	 */
	static String lockKey(String key) {
		StringBuilder name = new StringBuilder(RedisLockStore.DEFAULT_KEY_PREFIX).append('{');
		for (char c : key.toCharArray()) {
			switch (c) {
				case '\\' -> name.append("\\\\");
				case '{' -> name.append("\\(");
				case '}' -> name.append("\\)");
				default -> name.append(c);
			}
		}
		return name.append('}').toString();
	}

}
