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

import java.util.List;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts of the engine. Each runs atomically on the Redis master, so no other
 * client can interleave between its owner check and its write.
 * <p>
 * A lock key holds either a writer (a string: the owner token) or readers (a hash: reader
 * token to the server time in milliseconds when that reader's lease ends, the key's own
 * expiry the latest of them). Every script that touches a hash first drops the readers
 * whose lease ended, so a dead reader keeps writers out no longer than its own lease
 * while other readers keep renewing. A writer that keeps finding readers sets the
 * writer-waiting key for a short time; new readers are refused while it is set, so a
 * stream of readers cannot starve writers. The owner-checked scripts (release, renew,
 * owner check, expire after) work for writer and reader tokens alike and answer 0 (not
 * the owner), never an error, for a token whose key has the other type.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LockScripts {

	/**
	 * Lua helpers shared by the scripts: {@code now()} in server milliseconds;
	 * {@code readers(key, now)} which drops the readers whose lease ended, deletes the
	 * hash when none is left or else sets its expiry to the latest reader's, and returns
	 * how many readers are left and when the first of them ends; and the writer-waiting
	 * mark. A writer refused by readers marks the key {@code pending:<token>} the first
	 * time and {@code <token>} when refused again (so it is waiting, not trying once),
	 * unless another writer's mark is there; only the second form keeps readers out
	 * ({@code marked}); the writer's grant deletes its mark. {@code refused} answers how
	 * long the writer should wait before trying again: when the first of the readers
	 * ends, or at most 20 ms after a first refusal, so that a waiting writer sets its
	 * mark soon.
	 */
	private static final String HELPERS = """
			local function now()
			  local t = redis.call('time')
			  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
			end
			local function readers(key, at)
			  local fields = redis.call('hgetall', key)
			  local left, soonest, latest = 0, nil, 0
			  for i = 1, #fields, 2 do
			    local ends = tonumber(fields[i + 1])
			    if ends == nil or ends <= at then
			      redis.call('hdel', key, fields[i])
			    else
			      left = left + 1
			      if soonest == nil or ends < soonest then soonest = ends end
			      if ends > latest then latest = ends end
			    end
			  end
			  if left == 0 then
			    redis.call('del', key)
			    return 0, 0
			  end
			  redis.call('pexpireat', key, latest)
			  return left, soonest - at
			end
			local function kind(key)
			  return redis.call('type', key)['ok']
			end
			local function refused(mark, token, px, first)
			  local current = redis.call('get', mark)
			  if current == token or current == 'pending:' .. token then
			    redis.call('set', mark, token, 'PX', px)
			  elseif not current then
			    redis.call('set', mark, 'pending:' .. token, 'PX', px)
			    return math.min(first, 20)
			  end
			  return first
			end
			local function granted(mark, token)
			  local current = redis.call('get', mark)
			  if current == token or current == 'pending:' .. token then
			    redis.call('del', mark)
			  end
			end
			local function marked(mark)
			  local current = redis.call('get', mark)
			  return current and string.sub(current, 1, 8) ~= 'pending:'
			end
			""";

	/**
	 * Grant a fencing token as {@link #ACQUIRE} does, as a Lua function
	 * {@code fence(fenceKey, leaseMillis)}.
	 */
	private static final String FENCE = """
			local function fence(key, lease)
			  local t = redis.call('time')
			  local issued = tonumber(t[1]) * 1000000 + tonumber(t[2])
			  local last = tonumber(redis.call('set', key, string.format('%d', issued), 'PX', lease, 'GET'))
			  if last ~= nil and last >= issued then
			    issued = last + 1
			    redis.call('set', key, string.format('%d', issued), 'PX', lease)
			  end
			  return issued
			end
			""";

	/**
	 * Lua functions of the hand-off, shared by the release, fair-acquire, cohort hand-off
	 * and leave scripts, on top of {@link #HELPERS} and {@link #FENCE}. KEYS: lock,
	 * fence, channel, waiters (a sorted set of waiting clients, scored by when their
	 * registration expires), queue (a list of fair waiters, {@code "grantMillis|token"}),
	 * alive (a sorted set of fair waiter tokens, scored by when they count as gone),
	 * writer waiting; all in the lock's hash slot.
	 * <ul>
	 * <li>{@code owner()}: the writer token the lock holds, or {@code false} when it is
	 * free or held by readers.</li>
	 * <li>{@code grantTo(token, px)}: set the lock to {@code token} for {@code px}
	 * millis, clear the token's writer-waiting mark and return a new fencing token.</li>
	 * <li>{@code handover(pub)}: after the lock became free, grant it to the first fair
	 * waiter that is still alive (dropping gone ones), for its grant time, and publish
	 * its token; else wake the waiting client whose registration is oldest (publishing
	 * its id and dropping the registration), or publish {@code released} to everyone if
	 * no client is registered.</li>
	 * </ul>
	 */
	private static final String HAND_OFF = HELPERS + FENCE + """
			local function owner()
			  if kind(KEYS[1]) == 'string' then
			    return redis.call('get', KEYS[1])
			  end
			  return false
			end
			local function grantTo(token, px)
			  redis.call('set', KEYS[1], token, 'PX', px)
			  granted(KEYS[7], token)
			  return fence(KEYS[2], px)
			end
			local function waiterOf(entry)
			  local sep = string.find(entry, '|', 1, true)
			  return string.sub(entry, sep + 1), string.sub(entry, 1, sep - 1)
			end
			local function handover(pub)
			  local at = now()
			  while true do
			    local head = redis.call('lpop', KEYS[5])
			    if not head then
			      break
			    end
			    local waiter, grantMillis = waiterOf(head)
			    local deadline = tonumber(redis.call('zscore', KEYS[6], waiter))
			    redis.call('zrem', KEYS[6], waiter)
			    if deadline and deadline >= at then
			      grantTo(waiter, grantMillis)
			      redis.call(pub, KEYS[3], waiter)
			      return
			    end
			  end
			  redis.call('zremrangebyscore', KEYS[4], '-inf', '(' .. string.format('%d', at))
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
	 * Acquire the write lock: {@code SET NX PX} the owner token; on success grant a
	 * fencing token that is the larger of the server clock in microseconds and the last
	 * grant plus one, so tokens keep increasing even after the fence key expired. The
	 * fence key is written and read in one {@code SET ... GET} (Redis 6.2+), and written
	 * again only in the rare case of two grants within one microsecond. If readers hold
	 * the key, those whose lease ended are dropped first; while some are left, the
	 * writer-waiting key is set for the given time (see {@link #HELPERS}). A grant clears
	 * the writer-waiting key if it is ours. With a waiter (a client that waits for a
	 * release), a refusal registers it in the waiters set until the server clock passes
	 * now plus its time to live (refreshing an earlier registration), and a grant removes
	 * it. Returns {@code {1, fence}} when acquired, else {@code {0, pttl}} of the current
	 * holder (for readers: until the first of them ends, or at most 20 ms after a first
	 * refusal). KEYS: lock, fence, writer waiting, and waiters with a waiter. ARGV:
	 * token, lease millis, writer-waiting millis, optionally waiter and its time to live
	 * in millis.
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static final RedisScript<List<Long>> ACQUIRE = (RedisScript) RedisScript.of(HELPERS + FENCE + """
			local function grant()
			  granted(KEYS[3], ARGV[1])
			  if ARGV[4] then
			    redis.call('zrem', KEYS[4], ARGV[4])
			  end
			  return {1, fence(KEYS[2], ARGV[2])}
			end
			if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
			  return grant()
			end
			local refusal
			if kind(KEYS[1]) == 'hash' then
			  local left, first = readers(KEYS[1], now())
			  if left == 0 then
			    redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
			    return grant()
			  end
			  refusal = {0, refused(KEYS[3], ARGV[1], ARGV[3], first)}
			else
			  refusal = {0, redis.call('pttl', KEYS[1])}
			end
			if ARGV[4] then
			  redis.call('zadd', KEYS[4], string.format('%d', now() + tonumber(ARGV[5])), ARGV[4])
			  if redis.call('pttl', KEYS[4]) < tonumber(ARGV[5]) then
			    redis.call('pexpire', KEYS[4], ARGV[5])
			  end
			end
			return refusal
			""", List.class);

	/**
	 * Acquire a read lock: refused while a writer holds the key or a writer waits (the
	 * writer-waiting key holds a token, not a pending mark); else add our token to the
	 * readers' hash with its lease end, drop the readers whose lease ended, and set the
	 * key's expiry to the latest reader's. Readers get no fencing token. Returns
	 * {@code {1, 0}} when acquired, else {@code {0, pttl}} of the writer or of the
	 * writer-waiting key. KEYS: lock, writer waiting. ARGV: token, lease millis.
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static final RedisScript<List<Long>> ACQUIRE_READ = (RedisScript) RedisScript.of(HELPERS + """
			local held = kind(KEYS[1])
			if held ~= 'hash' and held ~= 'none' then
			  return {0, redis.call('pttl', KEYS[1])}
			end
			if marked(KEYS[2]) then
			  return {0, redis.call('pttl', KEYS[2])}
			end
			local at = now()
			redis.call('hset', KEYS[1], ARGV[1], string.format('%d', at + tonumber(ARGV[2])))
			readers(KEYS[1], at)
			return {1, 0}
			""", List.class);

	/**
	 * Release: delete the write lock only if it holds our token, or remove our token from
	 * the readers; when the key became free, hand it over (see {@link #HAND_OFF}): to the
	 * first live fair waiter directly, else by waking one waiting client, with
	 * {@code PUBLISH}, or {@code SPUBLISH} (sharded pub/sub, Redis 7+) so that a Cluster
	 * sends the message to the channel's shard only. Returns 1 when released, 0 when the
	 * lock belonged to someone else, was gone, or (a reader) its lease had ended. KEYS:
	 * see {@link #HAND_OFF}. ARGV: token, publish command.
	 */
	static final RedisScript<Long> RELEASE = RedisScript.of(HAND_OFF + """
			local held = kind(KEYS[1])
			if held == 'string' then
			  if redis.call('get', KEYS[1]) == ARGV[1] then
			    redis.call('del', KEYS[1])
			    handover(ARGV[2])
			    return 1
			  end
			  return 0
			end
			if held ~= 'hash' then
			  return 0
			end
			local at = now()
			local ends = tonumber(redis.call('hget', KEYS[1], ARGV[1]))
			if ends == nil then
			  return 0
			end
			redis.call('hdel', KEYS[1], ARGV[1])
			if readers(KEYS[1], at) == 0 then
			  handover(ARGV[2])
			end
			if ends <= at then
			  return 0
			end
			return 1
			""", Long.class);

	/**
	 * Fair acquire of the write lock. If the lock holds our token (a release granted it
	 * to us), claim it: extend it to our lease and return the fence of that grant. If the
	 * lock is free, drop gone waiters from the head of the queue; take the lock if the
	 * queue is empty or we are its head, else grant it to the live head and wake it. If
	 * readers hold it, drop those whose lease ended (the key may then be free) and, while
	 * some are left, set the writer-waiting mark as {@link #ACQUIRE} does. When not
	 * acquired and a grant time is given, join the queue's tail (once) and count as alive
	 * until the server clock passes now plus the grant time. Returns {@code {1, fence}}
	 * or {@code {0, pttl}}. KEYS: see {@link #HAND_OFF}. ARGV: token, lease millis, grant
	 * millis (empty to not queue), publish command, writer-waiting millis.
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static final RedisScript<List<Long>> FAIR_ACQUIRE = (RedisScript) RedisScript.of(HAND_OFF + """
			local held = owner()
			if held == ARGV[1] then
			  redis.call('pexpire', KEYS[1], ARGV[2])
			  local issued = redis.call('get', KEYS[2])
			  if not issued then
			    return {1, fence(KEYS[2], ARGV[2])}
			  end
			  redis.call('pexpire', KEYS[2], ARGV[2])
			  return {1, tonumber(issued)}
			end
			local at = now()
			local refusal = nil
			if not held and kind(KEYS[1]) == 'hash' then
			  local left, first = readers(KEYS[1], at)
			  if left > 0 then
			    refusal = {0, refused(KEYS[7], ARGV[1], ARGV[5], first)}
			  end
			end
			if not held and not refusal then
			  while true do
			    local head = redis.call('lindex', KEYS[5], 0)
			    if not head then
			      return {1, grantTo(ARGV[1], ARGV[2])}
			    end
			    local waiter = waiterOf(head)
			    if waiter == ARGV[1] then
			      redis.call('lpop', KEYS[5])
			      redis.call('zrem', KEYS[6], waiter)
			      return {1, grantTo(ARGV[1], ARGV[2])}
			    end
			    local deadline = tonumber(redis.call('zscore', KEYS[6], waiter))
			    if deadline and deadline >= at then
			      break
			    end
			    redis.call('lpop', KEYS[5])
			    redis.call('zrem', KEYS[6], waiter)
			  end
			  handover(ARGV[4])
			end
			if ARGV[3] ~= '' then
			  if redis.call('zadd', KEYS[6], string.format('%d', at + tonumber(ARGV[3])), ARGV[1]) == 1 then
			    redis.call('rpush', KEYS[5], ARGV[3] .. '|' .. ARGV[1])
			  end
			  for i = 5, 6 do
			    if redis.call('pttl', KEYS[i]) < tonumber(ARGV[3]) then
			      redis.call('pexpire', KEYS[i], ARGV[3])
			    end
			  end
			end
			return refusal or {0, redis.call('pttl', KEYS[1])}
			""", List.class);

	/**
	 * Cohort hand-off: if the write lock holds our token, give it to the next token with
	 * a new fencing token and lease, unless fair waiters are queued. Returns {@code {1,
	 * fence}} when handed over, {@code {0, 0}} when the lock was not ours, {@code {2, 0}}
	 * when fair waiters are queued (nothing changed: release instead). KEYS: see
	 * {@link #HAND_OFF}. ARGV: token, next token, lease millis.
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static final RedisScript<List<Long>> HAND_OVER = (RedisScript) RedisScript.of(HAND_OFF + """
			if owner() ~= ARGV[1] then
			  return {0, 0}
			end
			if redis.call('llen', KEYS[5]) > 0 then
			  return {2, 0}
			end
			return {1, grantTo(ARGV[2], ARGV[3])}
			""", List.class);

	/**
	 * Leave: a waiter that gives up drops its registration and its place in the fair
	 * queue (its queue entry counts as gone and is dropped when it reaches the head); if
	 * a release granted it the lock meanwhile, release that grant and hand the lock over.
	 * Returns 1 when a grant was released, else 0. KEYS: see {@link #HAND_OFF}. ARGV:
	 * waiter (client id or fair token), publish command.
	 */
	static final RedisScript<Long> LEAVE = RedisScript.of(HAND_OFF + """
			redis.call('zrem', KEYS[4], ARGV[1])
			redis.call('zrem', KEYS[6], ARGV[1])
			if owner() == ARGV[1] then
			  redis.call('del', KEYS[1])
			  handover(ARGV[2])
			  return 1
			end
			return 0
			""", Long.class);

	/**
	 * Acquire several write locks at once, all or nothing: drop the readers whose lease
	 * ended from every key held by readers; if any lock key still exists, take none, mark
	 * the writer-waiting key of every key held by readers, and return {@code {0, i,
	 * pttl}} for the first busy key i (1-based); else {@code SET PX} every lock key and
	 * grant each a fencing token as {@link #ACQUIRE} does, returning {@code {1, fence1,
	 * fence2, ...}}. KEYS: lock1, fence1, writer waiting1, lock2, ... (one hash slot).
	 * ARGV: token, lease millis, writer-waiting millis.
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static final RedisScript<List<Long>> ACQUIRE_ALL = (RedisScript) RedisScript.of(HELPERS + FENCE + """
			local at = now()
			local busy = nil
			for i = 1, #KEYS, 3 do
			  local held = kind(KEYS[i])
			  local ttl = nil
			  if held == 'hash' then
			    local left, first = readers(KEYS[i], at)
			    if left > 0 then
			      ttl = refused(KEYS[i + 2], ARGV[1], ARGV[3], first)
			    end
			  elseif held ~= 'none' then
			    ttl = redis.call('pttl', KEYS[i])
			  end
			  if ttl ~= nil and busy == nil then
			    busy = {0, (i + 2) / 3, ttl}
			  end
			end
			if busy ~= nil then
			  return busy
			end
			local grants = {1}
			for i = 1, #KEYS, 3 do
			  redis.call('set', KEYS[i], ARGV[1], 'PX', ARGV[2])
			  granted(KEYS[i + 2], ARGV[1])
			  grants[#grants + 1] = fence(KEYS[i + 1], ARGV[2])
			end
			return grants
			""", List.class);

	/**
	 * Shorten the lease to what a minimum hold time leaves, if the lock (or a read lock)
	 * still holds our token. Returns 1 when owned, else 0. KEYS: lock. ARGV: token,
	 * remaining millis.
	 */
	static final RedisScript<Long> EXPIRE_AFTER = RedisScript.of(HELPERS + """
			local held = kind(KEYS[1])
			if held == 'string' then
			  if redis.call('get', KEYS[1]) == ARGV[1] then
			    redis.call('pexpire', KEYS[1], ARGV[2])
			    return 1
			  end
			  return 0
			end
			if held ~= 'hash' then
			  return 0
			end
			local at = now()
			local ends = tonumber(redis.call('hget', KEYS[1], ARGV[1]))
			if ends == nil or ends <= at then
			  readers(KEYS[1], at)
			  return 0
			end
			redis.call('hset', KEYS[1], ARGV[1], string.format('%d', at + tonumber(ARGV[2])))
			readers(KEYS[1], at)
			return 1
			""", Long.class);

	/**
	 * Owner check, run as a script so that it goes to the master even when the
	 * application reads from replicas. Returns 1 when the lock holds our token as its
	 * writer, or as a reader whose lease has not ended, else 0. KEYS: lock. ARGV: token.
	 */
	static final RedisScript<Long> OWNER = RedisScript.of(HELPERS + """
			local held = kind(KEYS[1])
			if held == 'string' then
			  if redis.call('get', KEYS[1]) == ARGV[1] then
			    return 1
			  end
			  return 0
			end
			if held == 'hash' then
			  local ends = tonumber(redis.call('hget', KEYS[1], ARGV[1]))
			  if ends ~= nil and ends > now() then
			    return 1
			  end
			end
			return 0
			""", Long.class);

	/**
	 * Renew a batch of leases: extend each write lock that still holds its token, and
	 * each reader whose lease has not ended (the readers' key then lives as long as its
	 * latest reader). Returns one 1 (renewed) or 0 (lost) per key. KEYS: locks. ARGV:
	 * lease millis, then one token per key.
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static final RedisScript<List<Long>> RENEW = (RedisScript) RedisScript.of(HELPERS + """
			local renewed = {}
			local at = nil
			for i, key in ipairs(KEYS) do
			  renewed[i] = 0
			  local held = kind(key)
			  if held == 'string' then
			    if redis.call('get', key) == ARGV[i + 1] then
			      redis.call('pexpire', key, ARGV[1])
			      renewed[i] = 1
			    end
			  elseif held == 'hash' then
			    at = at or now()
			    local ends = tonumber(redis.call('hget', key, ARGV[i + 1]))
			    if ends ~= nil and ends > at then
			      redis.call('hset', key, ARGV[i + 1], string.format('%d', at + tonumber(ARGV[1])))
			      renewed[i] = 1
			    end
			    readers(key, at)
			  end
			end
			return renewed
			""", List.class);

	private LockScripts() {
	}

}
