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
	 * Lua functions the release, fair-acquire and leave scripts share. KEYS: lock, fence,
	 * channel, waiters (a sorted set of waiting clients, scored by when their
	 * registration expires), queue (a list of fair waiters, {@code "grantMillis|token"}),
	 * alive (a sorted set of fair waiter tokens, scored by when they count as gone); all
	 * in the lock's hash slot.
	 * <ul>
	 * <li>{@code nowms()}: the server clock in milliseconds.</li>
	 * <li>{@code grant(owner, px)}: set the lock to {@code owner} for {@code px} millis
	 * and return a fencing token as {@link #ACQUIRE} does.</li>
	 * <li>{@code handover(pub)}: after the lock became free, grant it to the first fair
	 * waiter that is still alive (dropping gone ones), for its grant time, and publish
	 * its token; else wake the waiting client whose registration is oldest (publishing
	 * its id and dropping the registration), or publish {@code released} to everyone if
	 * no client is registered.</li>
	 * </ul>
	 */
	private static final String FUNCTIONS = """
			local function nowms()
			  local t = redis.call('time')
			  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
			end
			local function grant(owner, px)
			  redis.call('set', KEYS[1], owner, 'PX', px)
			  local t = redis.call('time')
			  local fence = tonumber(t[1]) * 1000000 + tonumber(t[2])
			  local last = tonumber(redis.call('set', KEYS[2], string.format('%d', fence), 'PX', px, 'GET'))
			  if last ~= nil and last >= fence then
			    fence = last + 1
			    redis.call('set', KEYS[2], string.format('%d', fence), 'PX', px)
			  end
			  return fence
			end
			local function waiterOf(entry)
			  local sep = string.find(entry, '|', 1, true)
			  return string.sub(entry, sep + 1), string.sub(entry, 1, sep - 1)
			end
			local function handover(pub)
			  local now = nowms()
			  while true do
			    local head = redis.call('lpop', KEYS[5])
			    if not head then
			      break
			    end
			    local waiter, grantMillis = waiterOf(head)
			    local deadline = tonumber(redis.call('zscore', KEYS[6], waiter))
			    redis.call('zrem', KEYS[6], waiter)
			    if deadline and deadline >= now then
			      grant(waiter, grantMillis)
			      redis.call(pub, KEYS[3], waiter)
			      return
			    end
			  end
			  redis.call('zremrangebyscore', KEYS[4], '-inf', '(' .. string.format('%d', now))
			  local woken = redis.call('zrange', KEYS[4], 0, 0)[1]
			  if woken then
			    redis.call('zrem', KEYS[4], woken)
			    redis.call(pub, KEYS[3], woken)
			  else
			    redis.call(pub, KEYS[3], 'released')
			  end
			end
			""";

	/**
	 * Acquire: {@code SET NX PX} the owner token; on success grant a fencing token that
	 * is the larger of the server clock in microseconds and the last grant plus one, so
	 * tokens keep increasing even after the fence key expired. The fence key is written
	 * and read in one {@code SET ... GET} (Redis 6.2+), and written again only in the
	 * rare case of two grants within one microsecond. Returns {@code {1, fence}} when
	 * acquired, else {@code {0, pttl}} of the current holder. With a waiter (a client
	 * that waits for a release), a refusal registers it in the waiters set until the
	 * server clock passes now plus its time to live (refreshing an earlier registration),
	 * and a grant removes it. KEYS: lock, fence, and waiters with a waiter. ARGV: token,
	 * lease millis, optionally waiter and its time to live in millis.
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
			  if ARGV[3] then
			    redis.call('zrem', KEYS[3], ARGV[3])
			  end
			  return {1, fence}
			end
			if ARGV[3] then
			  local t = redis.call('time')
			  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
			  redis.call('zadd', KEYS[3], string.format('%d', now + tonumber(ARGV[4])), ARGV[3])
			  if redis.call('pttl', KEYS[3]) < tonumber(ARGV[4]) then
			    redis.call('pexpire', KEYS[3], ARGV[4])
			  end
			end
			return {0, redis.call('pttl', KEYS[1])}
			""", List.class);

	/**
	 * Release: delete the lock only if it holds our token, then hand it over (see
	 * {@link #FUNCTIONS}): to the first live fair waiter directly, else by waking one
	 * waiting client, with {@code PUBLISH}, or {@code SPUBLISH} (sharded pub/sub, Redis
	 * 7+) so that a Cluster sends the message to the channel's shard only. Returns 1 when
	 * released, 0 when the lock belonged to someone else or was gone. KEYS: lock, fence,
	 * channel, waiters, queue, alive. ARGV: token, publish command.
	 */
	static final RedisScript<Long> RELEASE = RedisScript.of(FUNCTIONS + """
			if redis.call('get', KEYS[1]) == ARGV[1] then
			  redis.call('del', KEYS[1])
			  handover(ARGV[2])
			  return 1
			end
			return 0
			""", Long.class);

	/**
	 * Fair acquire. If the lock holds our token (a release granted it to us), claim it:
	 * extend it to our lease and return the fence of that grant. If the lock is free,
	 * drop gone waiters from the head of the queue; take the lock if the queue is empty
	 * or we are its head, else grant it to the live head and wake it. When not acquired
	 * and a grant time is given, join the queue's tail (once) and count as alive until
	 * the server clock passes now plus the grant time. Returns {@code {1, fence}} or
	 * {@code {0, pttl}}. KEYS: lock, fence, channel, waiters, queue, alive. ARGV: token,
	 * lease millis, grant millis (empty to not queue), publish command.
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static final RedisScript<List<Long>> FAIR_ACQUIRE = (RedisScript) RedisScript.of(FUNCTIONS + """
			local owner = redis.call('get', KEYS[1])
			if owner == ARGV[1] then
			  redis.call('pexpire', KEYS[1], ARGV[2])
			  local fence = redis.call('get', KEYS[2])
			  if not fence then
			    return {1, grant(ARGV[1], ARGV[2])}
			  end
			  redis.call('pexpire', KEYS[2], ARGV[2])
			  return {1, tonumber(fence)}
			end
			local now = nowms()
			if not owner then
			  while true do
			    local head = redis.call('lindex', KEYS[5], 0)
			    if not head then
			      return {1, grant(ARGV[1], ARGV[2])}
			    end
			    local waiter = waiterOf(head)
			    if waiter == ARGV[1] then
			      redis.call('lpop', KEYS[5])
			      redis.call('zrem', KEYS[6], waiter)
			      return {1, grant(ARGV[1], ARGV[2])}
			    end
			    local deadline = tonumber(redis.call('zscore', KEYS[6], waiter))
			    if deadline and deadline >= now then
			      break
			    end
			    redis.call('lpop', KEYS[5])
			    redis.call('zrem', KEYS[6], waiter)
			  end
			  handover(ARGV[4])
			end
			if ARGV[3] ~= '' then
			  if redis.call('zadd', KEYS[6], string.format('%d', now + tonumber(ARGV[3])), ARGV[1]) == 1 then
			    redis.call('rpush', KEYS[5], ARGV[3] .. '|' .. ARGV[1])
			  end
			  for i = 5, 6 do
			    if redis.call('pttl', KEYS[i]) < tonumber(ARGV[3]) then
			      redis.call('pexpire', KEYS[i], ARGV[3])
			    end
			  end
			end
			return {0, redis.call('pttl', KEYS[1])}
			""", List.class);

	/**
	 * Cohort hand-off: if the lock holds our token, give it to the next token with a new
	 * fencing token and lease, unless fair waiters are queued. Returns {@code {1, fence}}
	 * when handed over, {@code {0, 0}} when the lock was not ours, {@code {2, 0}} when
	 * fair waiters are queued (nothing changed: release instead). KEYS: lock, fence,
	 * channel, waiters, queue, alive. ARGV: token, next token, lease millis.
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static final RedisScript<List<Long>> HAND_OVER = (RedisScript) RedisScript.of(FUNCTIONS + """
			if redis.call('get', KEYS[1]) ~= ARGV[1] then
			  return {0, 0}
			end
			if redis.call('llen', KEYS[5]) > 0 then
			  return {2, 0}
			end
			return {1, grant(ARGV[2], ARGV[3])}
			""", List.class);

	/**
	 * Leave: a waiter that gives up drops its registration and its place in the fair
	 * queue (its queue entry counts as gone and is dropped when it reaches the head); if
	 * a release granted it the lock meanwhile, release that grant and hand the lock over.
	 * Returns 1 when a grant was released, else 0. KEYS: lock, fence, channel, waiters,
	 * queue, alive. ARGV: waiter (client id or fair token), publish command.
	 */
	static final RedisScript<Long> LEAVE = RedisScript.of(FUNCTIONS + """
			redis.call('zrem', KEYS[4], ARGV[1])
			redis.call('zrem', KEYS[6], ARGV[1])
			if redis.call('get', KEYS[1]) == ARGV[1] then
			  redis.call('del', KEYS[1])
			  handover(ARGV[2])
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
