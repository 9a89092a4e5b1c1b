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

import java.util.ArrayList;
import java.util.List;

import dev.distlock.redis.LuaScript.Reply;

import static dev.distlock.redis.LuaHelpers.CLEAR_MARK;
import static dev.distlock.redis.LuaHelpers.DEQUEUE;
import static dev.distlock.redis.LuaHelpers.FENCE;
import static dev.distlock.redis.LuaHelpers.GRANT_TO;
import static dev.distlock.redis.LuaHelpers.HAND_OFF;
import static dev.distlock.redis.LuaHelpers.HOLDER;
import static dev.distlock.redis.LuaHelpers.ISSUED;
import static dev.distlock.redis.LuaHelpers.KIND;
import static dev.distlock.redis.LuaHelpers.LISTEN;
import static dev.distlock.redis.LuaHelpers.MARKED;
import static dev.distlock.redis.LuaHelpers.NOW;
import static dev.distlock.redis.LuaHelpers.OTHERS_WAIT;
import static dev.distlock.redis.LuaHelpers.OWNERSHIP;
import static dev.distlock.redis.LuaHelpers.READERS;
import static dev.distlock.redis.LuaHelpers.REFUSED;
import static dev.distlock.redis.LuaHelpers.WRITER;

/**
 * The Lua scripts of the Redis store. Each runs atomically on the Redis master, so no
 * other client can interleave between its owner check and its write.
 * <p>
 * <b>KEYS</b>: every script receives the keys of a lock in the one order of
 * {@link LockKeys} (lock, fence, channel, writer waiting, waiters, queue, alive, grants),
 * named by the same locals at the top of every script ({@link #KEY_LOCALS}); a script on
 * several locks receives, one lock after the other, the first keys of that order it needs
 * (the renewal the lock and fence keys, the several-key acquire lock, fence, channel and
 * writer waiting), so a batch carries no key it does not touch; the release alone
 * receives one key more after the eight, the released-by key of its token
 * ({@link LockKeys#releasedKey}). <b>ARGV</b> is named by locals at the top of each
 * script body; every number the scripts use (leases, the writer-waiting mark's life and
 * re-check time, the fair queue's budget of gone waiters per step) comes from Java
 * through ARGV.
 * <p>
 * A lock key holds either a writer (a string: the owner token) or readers (a sorted set:
 * reader tokens scored by the server time in milliseconds when that reader's lease ends,
 * the key's own expiry the latest of them). A writer's {@code SET NX} fails while the set
 * exists. Every script that touches the readers first drops those whose lease ended, by
 * score ({@code ZREMRANGEBYSCORE}), once per key per script, never reading the whole set,
 * so a dead reader keeps writers out no longer than its own lease while other readers
 * keep renewing, and every operation costs O(log n) in the number of readers.
 * <p>
 * The fair queue is a sorted set of waiter tokens scored by arrival (the last score plus
 * one), next to the alive set (scored by when a waiter counts as gone) and the grant
 * times (a hash); a waiter that leaves is removed from all three in O(log n), and one
 * step (a release, a fair attempt, a leave) drops at most a fixed budget of gone waiters
 * from the head of the queue, the rest being dropped by later steps. A writer that keeps
 * finding readers sets the writer-waiting key for a short time; new readers are refused
 * while it is set, so a stream of readers cannot starve writers. The owner-checked
 * scripts (release, renew, owner check, expire after) work for writer and reader tokens
 * alike ({@code ownership} is the one owner check) and answer 0 (not the owner), never an
 * error, for a token whose key has the other type.
 * <p>
 * Two mechanisms pass a lock on without making it free for everyone: the
 * <em>hand-off</em> ({@code handOff}) of a release to a waiter (the first live fair
 * waiter gets the lock, else one registered waiting client is woken), and the cohort
 * <em>hand-over</em> ({@link #COHORT_HAND_OVER}) of a holder to the next caller of its
 * own client.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LockScripts {

	/**
	 * The keys of one lock as named locals, first in every script on one lock.
	 */
	static final String KEY_LOCALS = """
			local lockKey, fenceKey, channel, writerWaitingKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
			local waitersKey, queueKey, aliveKey, grantsKey = KEYS[5], KEYS[6], KEYS[7], KEYS[8]
			""";

	/**
	 * Start of every script on several locks: how many keys each lock passes, the first
	 * ones of the one order ({@link LockScripts#keysPerLock(int)}).
	 */
	static final String KEYS_PER_LOCK = "local keysPerLock = ";

	/**
	 * Acquire the write lock: {@code SET NX PX} the owner token; on success grant a
	 * fencing token ({@code fence}), and nothing else: the fast path. If readers hold the
	 * key, those whose lease ended are dropped first; while some are left, the
	 * writer-waiting mark is set ({@code refused}). A grant over readers whose lease
	 * ended clears the writer-waiting mark if it is ours; a mark of ours left by a grant
	 * on the fast path is cleared by our release (or hand-over, or shortened lease), or
	 * expires with its time to live. A refusal registers the waiter, if one is given
	 * ({@code listen}), until the server clock passes now plus its time to live: a
	 * client's id (a client that a release wakes alone, whose registration a grant
	 * removes), or {@code *} for a client that listens to every release of the key. A key
	 * that already holds our token is a replay of this very request (a client re-sends a
	 * command after reconnecting when the first reply was lost): it answers granted with
	 * the fencing token already issued ({@code issued}), as the first run did. Returns
	 * {@code {1, fence}} when acquired, else {@code {0, pttl}} of the current holder (for
	 * readers: until the first of them ends, or at most the re-check time after a first
	 * refusal). ARGV: token, lease millis, writer-waiting millis, re-check millis, waiter
	 * ({@code ""} for none) and its time to live in millis.
	 */
	static final LuaScript ACQUIRE = LuaScript.of("acquire", Reply.MULTI, KEY_LOCALS,
			List.of(NOW, KIND, READERS, OWNERSHIP, REFUSED, CLEAR_MARK, FENCE, ISSUED, LISTEN), """
					local token, leaseMillis, markMillis, recheckMillis = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
					local waiter, waiterMillis = ARGV[5], ARGV[6]
					local function grant(fenceToken)
					  if waiter ~= '' and waiter ~= EVERY_RELEASE then
					    redis.call('zrem', waitersKey, waiter)
					  end
					  return {1, fenceToken}
					end
					if redis.call('set', lockKey, token, 'NX', 'PX', leaseMillis) then
					  return grant(fence(fenceKey, leaseMillis))
					end
					local refusal
					if kind(lockKey) == 'zset' then
					  local left, first = readers(lockKey, now())
					  if left == 0 then
					    redis.call('set', lockKey, token, 'PX', leaseMillis)
					    clearMark(writerWaitingKey, token)
					    return grant(fence(fenceKey, leaseMillis))
					  end
					  refusal = {0, refused(writerWaitingKey, token, markMillis, first, recheckMillis)}
					elseif ownership(lockKey, token) == 'writer' then
					  return grant(issued(fenceKey, leaseMillis))
					else
					  refusal = {0, redis.call('pttl', lockKey)}
					end
					if waiter ~= '' then
					  listen(waitersKey, waiter, waiterMillis)
					end
					return refusal
					""");

	/**
	 * Acquire a read lock: refused while a writer holds the key or a writer waits
	 * ({@code marked}); else add our token to the readers' sorted set with its lease end,
	 * drop the readers whose lease ended, and set the key's expiry to the latest
	 * reader's. Readers get no fencing token. A refusal registers a listener of every
	 * release ({@code listen}) when a listener's time to live is given. Returns
	 * {@code {1, 0}} when acquired, else {@code {0, pttl}} of the writer or of the
	 * writer-waiting mark. ARGV: token, lease millis, listener millis ({@code ""} for
	 * none).
	 */
	static final LuaScript ACQUIRE_READ = LuaScript.of("acquire-read", Reply.MULTI, KEY_LOCALS,
			List.of(NOW, KIND, READERS, MARKED, LISTEN), """
					local token, leaseMillis, listenMillis = ARGV[1], ARGV[2], ARGV[3]
					local held = kind(lockKey)
					local function refuse(pttl)
					  if listenMillis ~= '' then
					    listen(waitersKey, EVERY_RELEASE, listenMillis)
					  end
					  return {0, pttl}
					end
					if held ~= 'zset' and held ~= 'none' then
					  return refuse(redis.call('pttl', lockKey))
					end
					if marked(writerWaitingKey) then
					  return refuse(redis.call('pttl', writerWaitingKey))
					end
					local at = now()
					redis.call('zadd', lockKey, string.format('%d', at + tonumber(leaseMillis)), token)
					readers(lockKey, at)
					return {1, 0}
					""");

	/**
	 * Release: delete the write lock only if it holds our token, or remove our token from
	 * the readers; when the key became free, clear our writer-waiting mark if one is left
	 * and hand the key off ({@code handOff}) with {@code PUBLISH}, or {@code SPUBLISH}
	 * (sharded pub/sub, Redis 7+) so that a Cluster sends the message to the channel's
	 * shard only. A release leaves a marker of its token (the released-by key, KEYS[9])
	 * for the replay window, so that a replay of this very request (a client re-sends a
	 * command after reconnecting when the first reply was lost) answers 1 as the first
	 * run did. Returns 1 when released, 0 when the lock belonged to someone else, was
	 * gone, or (a reader) its lease had ended. ARGV: token, publish command, budget of
	 * gone fair waiters to drop, replay window millis.
	 */
	static final LuaScript RELEASE = LuaScript.of("release", Reply.INTEGER, KEY_LOCALS,
			List.of(NOW, READERS, OWNERSHIP, CLEAR_MARK, FENCE, GRANT_TO, DEQUEUE, HAND_OFF), """
					local token, publish, deadBudget = ARGV[1], ARGV[2], tonumber(ARGV[3])
					local releasedKey, replayMillis = KEYS[9], ARGV[4]
					local role, ends = ownership(lockKey, token)
					if role == 'writer' then
					  redis.call('del', lockKey)
					  redis.call('set', releasedKey, '1', 'PX', replayMillis)
					  if redis.call('exists', waitersKey, queueKey, writerWaitingKey) > 0 then
					    clearMark(writerWaitingKey, token)
					    handOff(publish, deadBudget)
					  end
					  return 1
					end
					if role ~= 'reader' then
					  return redis.call('exists', releasedKey)
					end
					local at = now()
					redis.call('zrem', lockKey, token)
					if readers(lockKey, at) == 0 then
					  handOff(publish, deadBudget)
					end
					if ends <= at then
					  return 0
					end
					redis.call('set', releasedKey, '1', 'PX', replayMillis)
					return 1
					""");

	/**
	 * Fair acquire of the write lock. If the lock holds our token (a release granted it
	 * to us), claim it: extend it to our lease and return the fence of that grant. If the
	 * lock is free, drop gone waiters from the head of the queue (at most the budget);
	 * take the lock if the queue is empty or we are its head, else hand it off to the
	 * live head. If readers hold it, drop those whose lease ended (the key may then be
	 * free) and, while some are left, set the writer-waiting mark as {@link #ACQUIRE}
	 * does. When not acquired and a grant time is given, join the queue's tail (once) and
	 * count as alive until the server clock passes now plus the grant time. Returns
	 * {@code {1, fence}}, or {@code {0, pttl, now}} with the server clock in milliseconds
	 * (against which a waiter places the grant a release sends it). ARGV: token, lease
	 * millis, grant millis (empty to not queue), publish command, writer-waiting millis,
	 * re-check millis, budget of gone waiters to drop.
	 */
	static final LuaScript FAIR_ACQUIRE = LuaScript.of("fair-acquire", Reply.MULTI, KEY_LOCALS,
			List.of(NOW, KIND, READERS, WRITER, REFUSED, CLEAR_MARK, FENCE, ISSUED, GRANT_TO, DEQUEUE, HAND_OFF), """
					local token, leaseMillis, grantMillis, publish = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
					local markMillis, recheckMillis, deadBudget = ARGV[5], ARGV[6], tonumber(ARGV[7])
					local held = writer(lockKey)
					if held == token then
					  redis.call('pexpire', lockKey, leaseMillis)
					  redis.call('pexpire', fenceKey, leaseMillis)
					  return {1, issued(fenceKey, leaseMillis)}
					end
					local at = now()
					local refusal = nil
					if not held and kind(lockKey) == 'zset' then
					  local left, first = readers(lockKey, at)
					  if left > 0 then
					    refusal = {0, refused(writerWaitingKey, token, markMillis, first, recheckMillis), at}
					  end
					end
					if not held and not refusal then
					  local dropped = 0
					  while dropped < deadBudget do
					    local head = redis.call('zrange', queueKey, 0, 0)[1]
					    if not head then
					      return {1, grantTo(token, leaseMillis)}
					    end
					    if head == token then
					      dequeue(token)
					      return {1, grantTo(token, leaseMillis)}
					    end
					    local deadline = tonumber(redis.call('zscore', aliveKey, head))
					    if deadline and deadline >= at then
					      break
					    end
					    dequeue(head)
					    dropped = dropped + 1
					  end
					  handOff(publish, deadBudget - dropped)
					end
					if grantMillis ~= '' then
					  if redis.call('zadd', aliveKey, string.format('%d', at + tonumber(grantMillis)), token) == 1 then
					    local last = redis.call('zrange', queueKey, -1, -1, 'WITHSCORES')[2]
					    redis.call('zadd', queueKey, string.format('%d', (tonumber(last) or 0) + 1), token)
					    redis.call('hset', grantsKey, token, grantMillis)
					  end
					  for _, key in ipairs({queueKey, aliveKey, grantsKey}) do
					    if redis.call('pttl', key) < tonumber(grantMillis) then
					      redis.call('pexpire', key, grantMillis)
					    end
					  end
					end
					return refusal or {0, redis.call('pttl', lockKey), at}
					""");

	/**
	 * Cohort hand-over: if the write lock holds our token, give it to the next token with
	 * a new fencing token and lease (clearing our writer-waiting mark), unless fair
	 * waiters are queued. A lock that already holds the next token is a replay of this
	 * very request (the next token is new, known to this request only): it answers handed
	 * over with the fencing token already issued, as the first run did. A hand-over also
	 * tells whether another client waits ({@code othersWait}): a live registration in the
	 * waiters set other than our client's (a listener of every release counts, as it may
	 * be anyone's); a replay reads the waiters again. Returns {@code {1, fence, others}}
	 * when handed over (others 1 when another client waits, else 0), {@code {0, 0}} when
	 * the lock was not ours, {@code {2, 0}} when fair waiters are queued (nothing
	 * changed: release instead). ARGV: token, next token, lease millis, our client's id
	 * as it registers as a waiter ({@code ""} when unknown: every registration counts).
	 */
	static final LuaScript COHORT_HAND_OVER = LuaScript.of("hand-over", Reply.MULTI, KEY_LOCALS,
			List.of(NOW, OWNERSHIP, CLEAR_MARK, FENCE, ISSUED, GRANT_TO, OTHERS_WAIT), """
					local token, nextToken, leaseMillis, client = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
					if ownership(lockKey, token) ~= 'writer' then
					  if ownership(lockKey, nextToken) == 'writer' then
					    return {1, issued(fenceKey, leaseMillis), othersWait(client)}
					  end
					  return {0, 0}
					end
					if redis.call('exists', queueKey) == 1 then
					  return {2, 0}
					end
					clearMark(writerWaitingKey, token)
					return {1, grantTo(nextToken, leaseMillis), othersWait(client)}
					""");

	/**
	 * Leave: a waiter that gives up drops its registration and its place in the fair
	 * queue (its entry, alive mark and grant time, O(log n)); if a release granted it the
	 * lock meanwhile, release that grant and hand the lock off. Returns 1 when a grant
	 * was released, else 0. ARGV: waiter (client id or fair token), publish command,
	 * budget of gone fair waiters to drop.
	 */
	static final LuaScript LEAVE = LuaScript.of("leave", Reply.INTEGER, KEY_LOCALS,
			List.of(NOW, OWNERSHIP, CLEAR_MARK, FENCE, GRANT_TO, DEQUEUE, HAND_OFF), """
					local waiter, publish, deadBudget = ARGV[1], ARGV[2], tonumber(ARGV[3])
					redis.call('zrem', waitersKey, waiter)
					dequeue(waiter)
					if ownership(lockKey, waiter) == 'writer' then
					  redis.call('del', lockKey)
					  handOff(publish, deadBudget)
					  return 1
					end
					return 0
					""");

	/**
	 * Acquire several write locks at once, all or nothing: drop the readers whose lease
	 * ended from every key held by readers; if any lock key still exists, take none, mark
	 * the writer-waiting key of every key held by readers, and return {@code {0, i,
	 * pttl}} for the first busy lock i (1-based), registering a listener of every release
	 * on each busy lock ({@code listen}) when a listener's time to live is given; else
	 * {@code SET PX} every lock key and grant each a fencing token, returning {@code {1,
	 * fence1, fence2, ...}}. A lock that already holds our token (a replay of this very
	 * request) counts as granted with the fencing token already issued. KEYS: lock,
	 * fence, channel, writer waiting and waiters of each lock (one hash slot). ARGV:
	 * token, lease millis, writer-waiting millis, re-check millis, listener millis
	 * ({@code ""} for none).
	 */
	static final LuaScript ACQUIRE_ALL = LuaScript.of("acquire-all", Reply.MULTI, keysPerLock(5),
			List.of(NOW, KIND, READERS, OWNERSHIP, REFUSED, CLEAR_MARK, FENCE, ISSUED, LISTEN), """
					local token, leaseMillis, markMillis, recheckMillis = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
					local listenMillis = ARGV[5]
					local locks = #KEYS / keysPerLock
					local at = now()
					local busy = nil
					local ours = {}
					for i = 1, locks do
					  local base = (i - 1) * keysPerLock
					  local lockKey, writerWaitingKey = KEYS[base + 1], KEYS[base + 4]
					  local held = kind(lockKey)
					  local ttl = nil
					  if held == 'zset' then
					    local left, first = readers(lockKey, at)
					    if left > 0 then
					      ttl = refused(writerWaitingKey, token, markMillis, first, recheckMillis)
					    end
					  elseif held ~= 'none' then
					    if ownership(lockKey, token) == 'writer' then
					      ours[i] = true
					    else
					      ttl = redis.call('pttl', lockKey)
					    end
					  end
					  if ttl ~= nil then
					    if listenMillis ~= '' then
					      listen(KEYS[base + 5], EVERY_RELEASE, listenMillis)
					    end
					    if busy == nil then
					      busy = {0, i, ttl}
					    end
					  end
					end
					if busy ~= nil then
					  return busy
					end
					local grants = {1}
					for i = 1, locks do
					  local base = (i - 1) * keysPerLock
					  local lockKey, fenceKey, writerWaitingKey = KEYS[base + 1], KEYS[base + 2], KEYS[base + 4]
					  if ours[i] then
					    grants[#grants + 1] = issued(fenceKey, leaseMillis)
					  else
					    redis.call('set', lockKey, token, 'PX', leaseMillis)
					    clearMark(writerWaitingKey, token)
					    grants[#grants + 1] = fence(fenceKey, leaseMillis)
					  end
					end
					return grants
					""");

	/**
	 * Shorten the lease to what a minimum hold time leaves, if the lock (or a read lock)
	 * still holds our token (a writer also clears its writer-waiting mark). Returns 1
	 * when owned, else 0. ARGV: token, remaining millis.
	 */
	static final LuaScript EXPIRE_AFTER = LuaScript.of("expire-after", Reply.INTEGER, KEY_LOCALS,
			List.of(NOW, READERS, OWNERSHIP, CLEAR_MARK), """
					local token, remainingMillis = ARGV[1], ARGV[2]
					local role, ends = ownership(lockKey, token)
					if role == 'writer' then
					  redis.call('pexpire', lockKey, remainingMillis)
					  clearMark(writerWaitingKey, token)
					  return 1
					end
					if role ~= 'reader' then
					  return 0
					end
					local at = now()
					if ends <= at then
					  readers(lockKey, at)
					  return 0
					end
					redis.call('zadd', lockKey, string.format('%d', at + tonumber(remainingMillis)), token)
					readers(lockKey, at)
					return 1
					""");

	/**
	 * Owner check, run as a script so that it goes to the master even when the
	 * application reads from replicas. Returns 1 when the lock holds our token as its
	 * writer, or as a reader whose lease has not ended, else 0. ARGV: token.
	 */
	static final LuaScript OWNER = LuaScript.of("owner", Reply.INTEGER, KEY_LOCALS, List.of(NOW, OWNERSHIP), """
			local token = ARGV[1]
			local role, ends = ownership(lockKey, token)
			if role == 'writer' or (role == 'reader' and ends > now()) then
			  return 1
			end
			return 0
			""");

	/**
	 * Renew a batch of leases: extend each write lock that still holds its token with its
	 * fence key (so that the last fencing token outlives the hold: inspection reads it,
	 * and the next grant counts from it), and each reader whose lease has not ended (the
	 * readers' key then lives as long as its latest reader). Returns one 1 (renewed) or 0
	 * (lost) per lock. KEYS: the lock and fence keys of each lock. ARGV: lease millis,
	 * then one token per lock.
	 */
	static final LuaScript RENEW = LuaScript.of("renew", Reply.MULTI, keysPerLock(2), List.of(NOW, READERS, OWNERSHIP),
			"""
					local leaseMillis = ARGV[1]
					local renewed = {}
					local at = nil
					local readKeys = {}
					for i = 1, #KEYS / keysPerLock do
					  local base = (i - 1) * keysPerLock
					  local lockKey, fenceKey, token = KEYS[base + 1], KEYS[base + 2], ARGV[i + 1]
					  renewed[i] = 0
					  local role, ends = ownership(lockKey, token)
					  if role == 'writer' then
					    redis.call('pexpire', lockKey, leaseMillis)
					    redis.call('pexpire', fenceKey, leaseMillis)
					    renewed[i] = 1
					  elseif role == 'reader' then
					    at = at or now()
					    if ends > at then
					      redis.call('zadd', lockKey, 'XX', string.format('%d', at + tonumber(leaseMillis)), token)
					      renewed[i] = 1
					    end
					    readKeys[lockKey] = true
					  end
					end
					for lockKey in pairs(readKeys) do
					  readers(lockKey, at)
					end
					return renewed
					""");

	/**
	 * Inspect, for operators: the owner token ({@code ""} when free; one reader's token
	 * when readers hold the key), the {@code PTTL} of the lock and the last fencing token
	 * ({@code ""} when unknown), all as strings. ARGV: none.
	 */
	static final LuaScript INSPECT = LuaScript.of("inspect", Reply.MULTI, KEY_LOCALS, List.of(KIND, HOLDER), """
			local held = holder(lockKey)
			local issued = redis.call('get', fenceKey)
			return {held or '', tostring(redis.call('pttl', lockKey)), issued or ''}
			""");

	/**
	 * Force release, for operators: delete the lock whoever owns it (the writer or every
	 * reader) and tell every waiter on the release channel. Returns the deleted owner
	 * token (one reader's token when readers held it), or {@code ""} when the lock was
	 * free. ARGV: publish command.
	 */
	static final LuaScript FORCE_RELEASE = LuaScript.of("force-release", Reply.VALUE, KEY_LOCALS,
			List.of(KIND, HOLDER, CLEAR_MARK), """
					local publish = ARGV[1]
					local held = holder(lockKey)
					if held then
					  redis.call('del', lockKey)
					  clearMark(writerWaitingKey, held)
					  redis.call(publish, channel, RELEASED)
					  return held
					end
					return ''
					""");

	/**
	 * The server's version as a number ({@code 0x070000} for 7.0.0), {@code 0} before
	 * Redis 7, which does not tell scripts. ARGV: none.
	 */
	static final LuaScript SERVER_VERSION = LuaScript.of("server-version", Reply.INTEGER, KEY_LOCALS, List.of(), """
			return redis.REDIS_VERSION_NUM or 0
			""");

	/**
	 * Every script, for tests.
	 */
	static final List<LuaScript> ALL = List.of(ACQUIRE, ACQUIRE_READ, RELEASE, FAIR_ACQUIRE, COHORT_HAND_OVER, LEAVE,
			ACQUIRE_ALL, EXPIRE_AFTER, OWNER, RENEW, INSPECT, FORCE_RELEASE, SERVER_VERSION);

	private LockScripts() {
	}

	/**
	 * Return the start of a script on several locks that receives the first {@code keys}
	 * keys of the one order per lock.
	 * @param keys how many keys per lock
	 * @return the Lua line naming that figure
	 */
	static String keysPerLock(int keys) {
		return KEYS_PER_LOCK + keys + "\n";
	}

	/**
	 * Return the KEYS of a script on several locks: the first {@code keysPerLock} keys of
	 * each lock, one lock after the other.
	 * @param locks the locks
	 * @param keysPerLock how many keys per lock
	 * @return the keys
	 */
	static List<String> keysOf(List<LockKeys> locks, int keysPerLock) {
		List<String> keys = new ArrayList<>(locks.size() * keysPerLock);
		locks.forEach((lock) -> keys.addAll(lock.all().subList(0, keysPerLock)));
		return keys;
	}

}
