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

import dev.distlock.redis.LuaScript.LuaHelper;

/**
 * The Lua helper functions of {@link LockScripts}; each script ships only those it calls.
 * They read the keys of a lock through the named locals every script on one lock starts
 * with ({@link LockScripts#KEY_LOCALS}).
 *
 * @author distlock
 * @since 0.1.0
 */
final class LuaHelpers {

	/**
	 * {@code now()}: the server clock in milliseconds.
	 */
	static final LuaHelper NOW = new LuaHelper("now", """
			local function now()
			  local t = redis.call('time')
			  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
			end
			""");

	/**
	 * {@code kind(key)}: the type of a key ({@code string} for a writer, {@code zset} for
	 * readers, {@code none}).
	 */
	static final LuaHelper KIND = new LuaHelper("kind", """
			local function kind(key)
			  return redis.call('type', key)['ok']
			end
			""");

	/**
	 * {@code readers(key, at)}: drop the readers whose lease ended (a range of the sorted
	 * set by score, never the whole set), set the key's expiry to the latest reader's;
	 * return how many readers are left and how long until the first of them ends. An
	 * empty sorted set no longer exists, so the key is free then. Costs O(log n) plus the
	 * readers dropped; a script calls it at most once per key.
	 */
	static final LuaHelper READERS = new LuaHelper("readers", """
			local function readers(key, at)
			  redis.call('zremrangebyscore', key, '-inf', string.format('%d', at))
			  local first = redis.call('zrange', key, 0, 0, 'WITHSCORES')
			  if #first == 0 then
			    return 0, 0
			  end
			  local latest = redis.call('zrange', key, -1, -1, 'WITHSCORES')
			  redis.call('pexpireat', key, string.format('%d', tonumber(latest[2])))
			  return redis.call('zcard', key), tonumber(first[2]) - at
			end
			""");

	/**
	 * {@code ownership(key, token)}, the owner check: {@code 'writer'} when the key holds
	 * {@code token} as its writer; {@code 'reader'} and the end of its lease (ended or
	 * not) when {@code token} is one of its readers; else {@code nil}. One {@code GET}
	 * for a writer (the common case, no {@code TYPE}); a key that is not a string answers
	 * it with an error, and is then asked for the reader's score.
	 */
	static final LuaHelper OWNERSHIP = new LuaHelper("ownership", """
			local function ownership(key, token)
			  local held = redis.pcall('get', key)
			  if type(held) ~= 'table' then
			    if held == token then
			      return 'writer'
			    end
			    return nil
			  end
			  local ends = redis.pcall('zscore', key, token)
			  if type(ends) == 'string' then
			    return 'reader', tonumber(ends)
			  end
			  return nil
			end
			""");

	/**
	 * {@code writer(key)}: the writer token the key holds, or {@code false} when it is
	 * free or held by readers.
	 */
	static final LuaHelper WRITER = new LuaHelper("writer", """
			local function writer(key)
			  if kind(key) == 'string' then
			    return redis.call('get', key)
			  end
			  return false
			end
			""");

	/**
	 * {@code refused(mark, token, markMillis, first, recheckMillis)}: a writer refused by
	 * readers marks the key {@code pending:<token>} the first time and {@code <token>}
	 * when refused again (so it is waiting, not trying once), unless another writer's
	 * mark is there; only the second form keeps readers out (see {@code marked}). Answers
	 * how long the writer should wait before trying again: when the first of the readers
	 * ends, or at most {@code recheckMillis} after a first refusal, so that a waiting
	 * writer sets its mark soon.
	 */
	static final LuaHelper REFUSED = new LuaHelper("refused", """
			local function refused(mark, token, markMillis, first, recheckMillis)
			  local current = redis.call('get', mark)
			  if current == token or current == PENDING .. token then
			    redis.call('set', mark, token, 'PX', markMillis)
			  elseif not current then
			    redis.call('set', mark, PENDING .. token, 'PX', markMillis)
			    return math.min(first, tonumber(recheckMillis))
			  end
			  return first
			end
			""");

	/**
	 * {@code clearMark(mark, token)}: a writer's grant deletes its writer-waiting mark.
	 */
	static final LuaHelper CLEAR_MARK = new LuaHelper("clearMark", """
			local function clearMark(mark, token)
			  local current = redis.call('get', mark)
			  if current == token or current == PENDING .. token then
			    redis.call('del', mark)
			  end
			end
			""");

	/**
	 * {@code marked(mark)}: whether a writer waits (a token, not a pending mark).
	 */
	static final LuaHelper MARKED = new LuaHelper("marked", """
			local function marked(mark)
			  local current = redis.call('get', mark)
			  return current and string.sub(current, 1, #PENDING) ~= PENDING
			end
			""");

	/**
	 * {@code fence(key, leaseMillis)}: grant a fencing token that is the larger of the
	 * server clock in microseconds and the last grant plus one, so tokens keep increasing
	 * even after the fence key expired. The fence key is written and read in one
	 * {@code SET ... GET} (Redis 6.2+), and written again only in the rare case of two
	 * grants within one microsecond.
	 */
	static final LuaHelper FENCE = new LuaHelper("fence", """
			local function fence(key, leaseMillis)
			  local t = redis.call('time')
			  local issued = tonumber(t[1]) * 1000000 + tonumber(t[2])
			  local last = tonumber(redis.call('set', key, string.format('%d', issued), 'PX', leaseMillis, 'GET'))
			  if last ~= nil and last >= issued then
			    issued = last + 1
			    redis.call('set', key, string.format('%d', issued), 'PX', leaseMillis)
			  end
			  return issued
			end
			""");

	/**
	 * {@code issued(key, leaseMillis)}: the fencing token last granted, for a grant found
	 * again (a replayed request, a claimed fair grant); a new one if the fence key is
	 * gone.
	 */
	static final LuaHelper ISSUED = new LuaHelper("issued", """
			local function issued(key, leaseMillis)
			  local last = tonumber(redis.call('get', key))
			  if last then
			    return last
			  end
			  return fence(key, leaseMillis)
			end
			""");

	/**
	 * {@code grantTo(token, leaseMillis)}: set the lock to {@code token}, clear its
	 * writer-waiting mark and return a new fencing token.
	 */
	static final LuaHelper GRANT_TO = new LuaHelper("grantTo", """
			local function grantTo(token, leaseMillis)
			  redis.call('set', lockKey, token, 'PX', leaseMillis)
			  clearMark(writerWaitingKey, token)
			  return fence(fenceKey, leaseMillis)
			end
			""");

	/**
	 * {@code dequeue(waiter)}: drop a fair waiter from the queue, the alive set and the
	 * grant times, O(log n).
	 */
	static final LuaHelper DEQUEUE = new LuaHelper("dequeue", """
			local function dequeue(waiter)
			  redis.call('zrem', queueKey, waiter)
			  redis.call('zrem', aliveKey, waiter)
			  redis.call('hdel', grantsKey, waiter)
			end
			""");

	/**
	 * {@code handOff(publish, budget)}, the release-time hand-off: after the lock became
	 * free, grant it to the first fair waiter that is still alive, for its grant time,
	 * and publish the grant (its token, the fencing token, the server clock in
	 * milliseconds before the grant and the grant time, read by
	 * {@link ChannelListeners#fairGrant}), dropping at most {@code budget} gone waiters
	 * from the head of the queue on the way (the rest are dropped by later steps); else
	 * wake the waiting client whose registration is oldest (publishing its id, which
	 * every listener of all releases hears too, and dropping the registration), or
	 * publish {@code released} when only listeners of all releases
	 * ({@link #EVERY_RELEASE}) are registered. The fast path: when neither a registration
	 * nor a fair queue exists (one {@code EXISTS}), nobody waits, and nothing is
	 * published.
	 */
	static final LuaHelper HAND_OFF = new LuaHelper("handOff", """
			local function handOff(publish, budget)
			  if redis.call('exists', waitersKey, queueKey) == 0 then
			    return
			  end
			  local at = now()
			  local dropped = 0
			  while true do
			    local head = redis.call('zrange', queueKey, 0, 0)[1]
			    if not head then
			      break
			    end
			    local deadline = tonumber(redis.call('zscore', aliveKey, head))
			    local grantMillis = redis.call('hget', grantsKey, head)
			    if deadline and deadline >= at and grantMillis then
			      dequeue(head)
			      local fence = grantTo(head, grantMillis)
			      local grant = string.format('%d %d %s', fence, at, grantMillis)
			      redis.call(publish, channel, head .. ' ' .. grant)
			      return
			    end
			    if dropped >= budget then
			      break
			    end
			    dequeue(head)
			    dropped = dropped + 1
			  end
			  redis.call('zremrangebyscore', waitersKey, '-inf', '(' .. string.format('%d', at))
			  local first = redis.call('zrange', waitersKey, 0, 1)
			  local woken = first[1]
			  if woken == EVERY_RELEASE then
			    woken = first[2]
			  end
			  if woken then
			    redis.call('zrem', waitersKey, woken)
			    redis.call(publish, channel, woken)
			  elseif first[1] then
			    redis.call(publish, channel, RELEASED)
			  end
			end
			""");

	/**
	 * {@code othersWait(client)}: 1 when the waiters set holds a live registration other
	 * than {@code client}'s (a registration whose time has not run out; a listener of
	 * every release counts, as it may belong to any client), else 0. One {@code EXISTS}
	 * when nobody is registered.
	 */
	static final LuaHelper OTHERS_WAIT = new LuaHelper("othersWait", """
			local function othersWait(client)
			  if redis.call('exists', waitersKey) == 0 then
			    return 0
			  end
			  local at = now()
			  local live = redis.call('zcount', waitersKey, string.format('%d', at), '+inf')
			  local mine = tonumber(redis.call('zscore', waitersKey, client))
			  if mine and mine >= at then
			    live = live - 1
			  end
			  return (live > 0) and 1 or 0
			end
			""");

	/**
	 * {@code listen(key, member, millis)}: register {@code member} in the waiters set
	 * {@code key} until the server clock passes now plus {@code millis} (refreshing an
	 * earlier registration), and keep the set alive at least that long. A client's id
	 * registers a client that a release wakes alone; {@link #EVERY_RELEASE} registers
	 * listeners that hear every release (read locks, several keys, clients that do not
	 * name themselves). A release publishes only while some registration is there.
	 */
	static final LuaHelper LISTEN = new LuaHelper("listen", """
			local function listen(key, member, millis)
			  redis.call('zadd', key, string.format('%d', now() + tonumber(millis)), member)
			  if redis.call('pttl', key) < tonumber(millis) then
			    redis.call('pexpire', key, millis)
			  end
			end
			""");

	/**
	 * The waiters-set member of the listeners that hear every release.
	 */
	static final String EVERY_RELEASE = "*";

	/**
	 * The message a release publishes on its key's channel to wake every listener.
	 */
	static final String RELEASED = "released";

	/**
	 * The prefix of a writer-waiting mark left by a first refusal ({@code REFUSED}).
	 */
	static final String PENDING = "pending:";

	/**
	 * The protocol's literals as Lua locals, first in every script (before the key
	 * locals), so that scripts and the Java side share one spelling of each.
	 */
	static final String PROTOCOL_LOCALS = "local EVERY_RELEASE, RELEASED, PENDING = '" + EVERY_RELEASE + "', '"
			+ RELEASED + "', '" + PENDING + "'\n";

	/**
	 * {@code holder(key)}: the writer's token, one reader's token (the one whose lease
	 * ends first) when readers hold the key, or {@code nil}.
	 */
	static final LuaHelper HOLDER = new LuaHelper("holder", """
			local function holder(key)
			  local held = kind(key)
			  if held == 'string' then
			    return redis.call('get', key)
			  end
			  if held == 'zset' then
			    return redis.call('zrange', key, 0, 0)[1]
			  end
			  return nil
			end
			""");

	private LuaHelpers() {
	}

}
