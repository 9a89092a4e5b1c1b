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

package dev.distlock.core;

import java.util.List;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts of the engine. Each runs atomically on the Redis master, so no other
 * client can interleave between its owner check and its write.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LockScripts {

	/**
	 * Acquire: {@code SET NX PX} the owner token; on success grant a fencing token that
	 * is the larger of the server clock in microseconds and the last grant plus one, so
	 * tokens keep increasing even after the fence key expired. The fence key is written
	 * and read in one {@code SET ... GET} (Redis 6.2+), and written again only in the
	 * rare case of two grants within one microsecond. Returns {@code {1, fence}} when
	 * acquired, else {@code {0, pttl}} of the current holder. KEYS: lock, fence. ARGV:
	 * token, lease millis.
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static final RedisScript<List<Long>> ACQUIRE = (RedisScript) RedisScript.of("""
			if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
			  local now = redis.call('time')
			  local fence = tonumber(now[1]) * 1000000 + tonumber(now[2])
			  local last = tonumber(redis.call('set', KEYS[2], string.format('%d', fence), 'PX', ARGV[2], 'GET'))
			  if last ~= nil and last >= fence then
			    fence = last + 1
			    redis.call('set', KEYS[2], string.format('%d', fence), 'PX', ARGV[2])
			  end
			  return {1, fence}
			end
			return {0, redis.call('pttl', KEYS[1])}
			""", List.class);

	/**
	 * Release: delete the lock only if it holds our token, and tell waiters on the
	 * release channel with {@code PUBLISH}, or {@code SPUBLISH} (sharded pub/sub, Redis
	 * 7+) so that a Cluster sends the message to the channel's shard only. Returns 1 when
	 * released, 0 when the lock belonged to someone else or was gone. KEYS: lock, channel
	 * (same hash slot). ARGV: token, publish command.
	 */
	static final RedisScript<Long> RELEASE = RedisScript.of("""
			if redis.call('get', KEYS[1]) == ARGV[1] then
			  redis.call('del', KEYS[1])
			  redis.call(ARGV[2], KEYS[2], 'released')
			  return 1
			end
			return 0
			""", Long.class);

	/**
	 * Acquire several locks at once, all or nothing: if any lock key exists, take none
	 * and return {@code {0, i, pttl}} for the first busy key i (1-based); else
	 * {@code SET PX} every lock key and grant each a fencing token as {@link #ACQUIRE}
	 * does, returning {@code {1, fence1, fence2, ...}}. KEYS: lock1, fence1, lock2,
	 * fence2, ... (one hash slot). ARGV: token, lease millis.
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static final RedisScript<List<Long>> ACQUIRE_ALL = (RedisScript) RedisScript.of("""
			for i = 1, #KEYS, 2 do
			  if redis.call('exists', KEYS[i]) == 1 then
			    return {0, (i + 1) / 2, redis.call('pttl', KEYS[i])}
			  end
			end
			local now = redis.call('time')
			local clock = tonumber(now[1]) * 1000000 + tonumber(now[2])
			local granted = {1}
			for i = 1, #KEYS, 2 do
			  redis.call('set', KEYS[i], ARGV[1], 'PX', ARGV[2])
			  local fence = clock
			  local last = tonumber(redis.call('set', KEYS[i + 1], string.format('%d', fence), 'PX', ARGV[2], 'GET'))
			  if last ~= nil and last >= fence then
			    fence = last + 1
			    redis.call('set', KEYS[i + 1], string.format('%d', fence), 'PX', ARGV[2])
			  end
			  granted[#granted + 1] = fence
			end
			return granted
			""", List.class);

	/**
	 * Shorten the lease to what a minimum hold time leaves, if the lock still holds our
	 * token. Returns 1 when owned, else 0. KEYS: lock. ARGV: token, remaining millis.
	 */
	static final RedisScript<Long> EXPIRE_AFTER = RedisScript.of("""
			if redis.call('get', KEYS[1]) == ARGV[1] then
			  redis.call('pexpire', KEYS[1], ARGV[2])
			  return 1
			end
			return 0
			""", Long.class);

	/**
	 * Owner check, run as a script so that it goes to the master even when the
	 * application reads from replicas. Returns 1 when the lock holds our token, else 0.
	 * KEYS: lock. ARGV: token.
	 */
	static final RedisScript<Long> OWNER = RedisScript.of("""
			if redis.call('get', KEYS[1]) == ARGV[1] then
			  return 1
			end
			return 0
			""", Long.class);

	/**
	 * Renew a batch of leases: extend each lock that still holds its token. Returns one 1
	 * (renewed) or 0 (lost) per key. KEYS: locks. ARGV: lease millis, then one token per
	 * key.
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static final RedisScript<List<Long>> RENEW = (RedisScript) RedisScript.of("""
			local renewed = {}
			for i, key in ipairs(KEYS) do
			  if redis.call('get', key) == ARGV[i + 1] then
			    redis.call('pexpire', key, ARGV[1])
			    renewed[i] = 1
			  else
			    renewed[i] = 0
			  end
			end
			return renewed
			""", List.class);

	private LockScripts() {
	}

}
