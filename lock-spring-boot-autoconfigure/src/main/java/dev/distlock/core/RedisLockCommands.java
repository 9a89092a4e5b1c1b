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

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import java.util.function.Supplier;

import dev.distlock.LockBackendException;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Runs the engine's Redis commands and turns Redis client failures into
 * {@link LockBackendException}.
 *
 * @author distlock
 * @since 0.1.0
 */
final class RedisLockCommands {

	private final StringRedisTemplate redis;

	RedisLockCommands(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * Try once to acquire the lock.
	 * @param keys the lock's keys
	 * @param token the owner token to store
	 * @param leaseMillis the lease
	 * @return the outcome
	 */
	AcquireResult tryAcquire(LockKeys keys, String token, long leaseMillis) {
		List<Long> reply = requireReply(keys, "acquire",
				call(keys, "acquire", () -> this.redis.execute(LockScripts.ACQUIRE,
						List.of(keys.lockKey(), keys.fenceKey()), token, Long.toString(leaseMillis))));
		return new AcquireResult(reply.get(0) == 1L, reply.get(1));
	}

	/**
	 * Delete the lock if it still holds {@code token}, and notify waiters.
	 * @param keys the lock's keys
	 * @param token the owner token
	 * @return whether the lock was ours and is now released
	 */
	boolean release(LockKeys keys, String token) {
		Long released = requireReply(keys, "release", call(keys, "release",
				() -> this.redis.execute(LockScripts.RELEASE, List.of(keys.lockKey()), token, keys.channel())));
		return released == 1L;
	}

	/**
	 * Return whether the lock still holds {@code token}.
	 * @param keys the lock's keys
	 * @param token the owner token
	 * @return whether Redis records this owner
	 */
	boolean isOwner(LockKeys keys, String token) {
		return token.equals(call(keys, "check", () -> this.redis.opsForValue().get(keys.lockKey())));
	}

	/**
	 * Extend every lease that still holds its token, in one script. All keys must map to
	 * one hash slot when Redis runs as a cluster.
	 * @param lockKeys the lock keys
	 * @param tokens the owner token of each key
	 * @param leaseMillis the new lease
	 * @return for each key, whether its lease was extended
	 * @throws DataAccessException if Redis failed
	 */
	List<Boolean> renew(List<String> lockKeys, List<String> tokens, long leaseMillis) {
		List<String> args = new ArrayList<>(tokens.size() + 1);
		args.add(Long.toString(leaseMillis));
		args.addAll(tokens);
		List<Long> reply = this.redis.execute(LockScripts.RENEW, lockKeys, args.toArray());
		if (reply == null) {
			return Collections.nCopies(lockKeys.size(), false);
		}
		return reply.stream().map((renewed) -> renewed == 1L).toList();
	}

	private static <T> @Nullable T call(LockKeys keys, String operation, Supplier<@Nullable T> call) {
		try {
			return call.get();
		}
		catch (DataAccessException ex) {
			throw new LockBackendException(keys.name(), operation, ex);
		}
	}

	private static <T> T requireReply(LockKeys keys, String operation, @Nullable T reply) {
		if (reply == null) {
			throw new LockBackendException(keys.name(), operation, new IllegalStateException(
					"Redis returned no reply; is the template pipelining or in a transaction?"));
		}
		return reply;
	}

	/**
	 * The outcome of one acquisition attempt.
	 *
	 * @param acquired whether the lock was acquired
	 * @param value the fencing token when acquired, else the remaining lease of the
	 * current holder in milliseconds (negative if unknown)
	 */
	record AcquireResult(boolean acquired, long value) {

	}

}
