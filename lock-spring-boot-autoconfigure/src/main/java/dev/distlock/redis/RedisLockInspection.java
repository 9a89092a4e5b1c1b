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

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import dev.distlock.LockBackendException;
import dev.distlock.core.LockStore.KeyState;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.StringUtils;

/**
 * The operator's view of Redis locks, for {@link RedisLockStore#inspect(String)} and
 * {@link RedisLockStore#forceRelease(String)}: scripts, so that they run on the master
 * even when the application reads from replicas.
 *
 * @author distlock
 * @since 0.3.0
 */
final class RedisLockInspection {

	/**
	 * The owner of a lock key as a Lua function {@code owner(key)}: the writer's token,
	 * one reader's token (the first in the hash) when readers hold it, or {@code nil}.
	 */
	private static final String OWNER = """
			local function owner(key)
			  local held = redis.call('type', key)['ok']
			  if held == 'string' then
			    return redis.call('get', key)
			  end
			  if held == 'hash' then
			    return redis.call('hkeys', key)[1]
			  end
			  return nil
			end
			""";

	/**
	 * Inspect: the owner token ({@code ""} when free; one reader's token when readers
	 * hold the key), the {@code PTTL} of the lock and the last fencing token ({@code ""}
	 * when unknown), all as strings. KEYS: lock, fence.
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static final RedisScript<List<String>> INSPECT = (RedisScript) RedisScript.of(OWNER + """
			local held = owner(KEYS[1])
			local fence = redis.call('get', KEYS[2])
			return {held or '', tostring(redis.call('pttl', KEYS[1])), fence or ''}
			""", List.class);

	/**
	 * Force release: delete the lock whoever owns it (the writer or every reader) and
	 * tell waiters on the release channel. Returns the deleted owner token (one reader's
	 * token when readers held it), or {@code ""} when the lock was free. KEYS: lock,
	 * channel (same hash slot). ARGV: publish command.
	 */
	static final RedisScript<String> FORCE_RELEASE = RedisScript.of(OWNER + """
			local held = owner(KEYS[1])
			if held then
			  redis.call('del', KEYS[1])
			  redis.call(ARGV[1], KEYS[2], 'released')
			  return held
			end
			return ''
			""", String.class);

	private final StringRedisTemplate redis;

	RedisLockInspection(StringRedisTemplate redis) {
		this.redis = redis;
	}

	KeyState inspect(LockKeys keys) {
		List<String> reply = call(keys, "inspect",
				() -> this.redis.execute(INSPECT, List.of(keys.lockKey(), keys.fenceKey())));
		if (reply == null || reply.size() < 3) {
			throw new LockBackendException(keys.name(), "inspect",
					new IllegalStateException("Redis returned no reply; is the template pipelining?"));
		}
		String owner = StringUtils.hasLength(reply.get(0)) ? reply.get(0) : null;
		long pttl = Long.parseLong(reply.get(1));
		Duration ttl = (owner != null && pttl >= 0) ? Duration.ofMillis(pttl) : null;
		long fence = StringUtils.hasLength(reply.get(2)) ? Long.parseLong(reply.get(2)) : 0;
		return new KeyState(owner, ttl, fence);
	}

	@Nullable String forceRelease(LockKeys keys, String publishCommand) {
		String owner = call(keys, "force-release",
				() -> this.redis.execute(FORCE_RELEASE, List.of(keys.lockKey(), keys.channel()), publishCommand));
		return StringUtils.hasLength(owner) ? owner : null;
	}

	private static <T> @Nullable T call(LockKeys keys, String operation, Supplier<? extends @Nullable T> call) {
		try {
			return call.get();
		}
		catch (DataAccessException ex) {
			throw new LockBackendException(keys.name(), operation, ex);
		}
	}

}
