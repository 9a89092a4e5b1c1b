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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

import dev.distlock.LockBackendException;
import dev.distlock.core.LockStore.Attempt;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Runs the store's Redis scripts and turns Redis client failures into
 * {@link LockBackendException}.
 *
 * @author distlock
 * @since 0.1.0
 */
final class RedisLockCommands {

	/**
	 * How soon a writer refused by readers for the first time is told to try again, so
	 * that, if it waits, it sets its writer-waiting mark soon (the scripts hold the same
	 * figure).
	 */
	static final Duration PENDING_WRITER_RECHECK = Duration.ofMillis(20);

	/**
	 * How long a writer's mark that it waits for readers lives unless the writer, trying
	 * again, sets it anew: longer than the client's longest re-check interval (one
	 * second), so new readers back off for as long as a writer waits, and for at most
	 * this long after it gave up.
	 */
	static final Duration WRITER_WAITING = Duration.ofSeconds(2);

	static final String WRITER_WAITING_MILLIS = Long.toString(WRITER_WAITING.toMillis());

	private final StringRedisTemplate redis;

	private final FirstConnection firstConnection;

	RedisLockCommands(StringRedisTemplate redis, FirstConnection firstConnection) {
		this.redis = redis;
		this.firstConnection = firstConnection;
	}

	/**
	 * Try once to acquire the lock.
	 * @param keys the lock's keys
	 * @param token the owner token to store
	 * @param lease the lease
	 * @return the outcome
	 */
	Attempt tryAcquire(LockKeys keys, String token, Duration lease) {
		this.firstConnection.await(keys.name(), "acquire");
		List<Long> reply = requireReply(keys, "acquire",
				call(keys, "acquire",
						() -> this.redis.execute(LockScripts.ACQUIRE,
								List.of(keys.lockKey(), keys.fenceKey(), keys.writerWaitingKey()), token,
								Long.toString(lease.toMillis()), WRITER_WAITING_MILLIS)));
		return toAttempt(reply);
	}

	/**
	 * Try once to acquire a read lock.
	 * @param keys the lock's keys
	 * @param token the reader's owner token to store
	 * @param lease the reader's lease
	 * @return the outcome; a grant carries no fencing token ({@code 0})
	 */
	Attempt tryAcquireRead(LockKeys keys, String token, Duration lease) {
		this.firstConnection.await(keys.name(), "acquire");
		List<Long> reply = requireReply(keys, "acquire",
				call(keys, "acquire", () -> this.redis.execute(LockScripts.ACQUIRE_READ,
						List.of(keys.lockKey(), keys.writerWaitingKey()), token, Long.toString(lease.toMillis()))));
		return toAttempt(reply);
	}

	/**
	 * Try once to acquire the lock for a client that waits when refused: a refusal
	 * registers {@code waiter} so that a release can wake it alone.
	 * @param keys the lock's keys
	 * @param token the owner token to store
	 * @param lease the lease
	 * @param waiter the waiting client's id
	 * @param waiterTtl how long the registration lasts unless refreshed
	 * @return the outcome
	 */
	Attempt tryAcquire(LockKeys keys, String token, Duration lease, String waiter, Duration waiterTtl) {
		this.firstConnection.await(keys.name(), "acquire");
		List<Long> reply = requireReply(keys, "acquire",
				call(keys, "acquire",
						() -> this.redis.execute(LockScripts.ACQUIRE,
								List.of(keys.lockKey(), keys.fenceKey(), keys.writerWaitingKey(), keys.waitersKey()),
								token, Long.toString(lease.toMillis()), WRITER_WAITING_MILLIS, waiter,
								Long.toString(waiterTtl.toMillis()))));
		return toAttempt(reply);
	}

	/**
	 * Try once to acquire the lock in arrival order, or claim a grant a release made to
	 * {@code token}; see {@link LockScripts#FAIR_ACQUIRE}.
	 * @param keys the lock's keys
	 * @param token the owner token, which is also the waiter's place in the queue
	 * @param lease the lease
	 * @param grantTimeout how long the waiter counts as alive and how long a grant to it
	 * waits to be claimed, or {@code null} to not join the queue
	 * @param publishCommand {@code publish} or {@code spublish}
	 * @return the outcome
	 */
	Attempt tryAcquireFair(LockKeys keys, String token, Duration lease, @Nullable Duration grantTimeout,
			String publishCommand) {
		this.firstConnection.await(keys.name(), "acquire");
		String grant = (grantTimeout != null) ? Long.toString(grantTimeout.toMillis()) : "";
		List<Long> reply = requireReply(keys, "acquire",
				call(keys, "acquire", () -> this.redis.execute(LockScripts.FAIR_ACQUIRE, keys.handOverKeys(), token,
						Long.toString(lease.toMillis()), grant, publishCommand, WRITER_WAITING_MILLIS)));
		return toAttempt(reply);
	}

	/**
	 * Hand the lock to the next token of the same client; see
	 * {@link LockScripts#HAND_OVER}.
	 * @param keys the lock's keys
	 * @param token the holder's token
	 * @param nextToken the next holder's token
	 * @param lease the next holder's lease
	 * @return the grant, a refusal if {@code token} did not own the lock, or {@code null}
	 * if fair waiters are queued
	 */
	@Nullable Attempt handOver(LockKeys keys, String token, String nextToken, Duration lease) {
		this.firstConnection.await(keys.name(), "release");
		List<Long> reply = requireReply(keys, "release", call(keys, "release", () -> this.redis
			.execute(LockScripts.HAND_OVER, keys.handOverKeys(), token, nextToken, Long.toString(lease.toMillis()))));
		if (reply.get(0) == 2L) {
			return null;
		}
		return (reply.get(0) == 1L) ? Attempt.granted(reply.get(1)) : Attempt.busy(null);
	}

	/**
	 * Drop a waiter that gives up, releasing a grant made to it meanwhile.
	 * @param keys the lock's keys
	 * @param waiter the client id or fair token
	 * @param publishCommand {@code publish} or {@code spublish}
	 */
	void leave(LockKeys keys, String waiter, String publishCommand) {
		this.firstConnection.await(keys.name(), "leave");
		call(keys, "leave", () -> this.redis.execute(LockScripts.LEAVE, keys.handOverKeys(), waiter, publishCommand));
	}

	/**
	 * Read the reply of the acquire script.
	 * @param reply {@code {1, fence}} or {@code {0, pttl}}
	 * @return the outcome
	 */
	static Attempt toAttempt(List<Long> reply) {
		if (reply.get(0) == 1L) {
			return Attempt.granted(reply.get(1));
		}
		return busy(reply.get(1));
	}

	private static Attempt busy(long holderTtl) {
		return Attempt.busy((holderTtl == -1) ? null : Duration.ofMillis(Math.max(0, holderTtl)));
	}

	/**
	 * Try once to acquire several locks, all or nothing, in one script; they must share a
	 * hash slot on a Cluster.
	 * @param keys the locks' keys
	 * @param token the owner token to store
	 * @param lease the lease
	 * @return one outcome per lock, all granted or none
	 */
	List<Attempt> tryAcquireAll(List<LockKeys> keys, String token, Duration lease) {
		LockKeys first = keys.get(0);
		this.firstConnection.await(first.name(), "acquire");
		List<String> redisKeys = new ArrayList<>(keys.size() * 3);
		keys.forEach((key) -> {
			redisKeys.add(key.lockKey());
			redisKeys.add(key.fenceKey());
			redisKeys.add(key.writerWaitingKey());
		});
		List<Long> reply = requireReply(first, "acquire",
				call(first, "acquire", () -> this.redis.execute(LockScripts.ACQUIRE_ALL, redisKeys, token,
						Long.toString(lease.toMillis()), WRITER_WAITING_MILLIS)));
		List<Attempt> attempts = new ArrayList<>(keys.size());
		if (reply.get(0) == 1L) {
			reply.subList(1, reply.size()).forEach((fence) -> attempts.add(Attempt.granted(fence)));
			return attempts;
		}
		int busy = reply.get(1).intValue() - 1;
		for (int i = 0; i < keys.size(); i++) {
			attempts.add((i == busy) ? busy(reply.get(2)) : Attempt.busy(null));
		}
		return attempts;
	}

	/**
	 * Shorten the lease of the lock if it still holds {@code token}.
	 * @param keys the lock's keys
	 * @param token the owner token
	 * @param remaining the new lease
	 * @return whether the lock was ours
	 */
	boolean expireAfter(LockKeys keys, String token, Duration remaining) {
		this.firstConnection.await(keys.name(), "release");
		Long owned = requireReply(keys, "release", call(keys, "release", () -> this.redis
			.execute(LockScripts.EXPIRE_AFTER, List.of(keys.lockKey()), token, Long.toString(remaining.toMillis()))));
		return owned == 1L;
	}

	/**
	 * Delete the lock if it still holds {@code token}, and notify waiters.
	 * @param keys the lock's keys
	 * @param token the owner token
	 * @param publishCommand {@code publish} or {@code spublish}
	 * @return whether the lock was ours and is now released
	 */
	boolean release(LockKeys keys, String token, String publishCommand) {
		this.firstConnection.await(keys.name(), "release");
		Long released = requireReply(keys, "release", call(keys, "release",
				() -> this.redis.execute(LockScripts.RELEASE, keys.handOverKeys(), token, publishCommand)));
		return released == 1L;
	}

	/**
	 * Return whether the lock still holds {@code token}, asking the master.
	 * @param keys the lock's keys
	 * @param token the owner token
	 * @return whether Redis records this owner
	 */
	boolean isOwner(LockKeys keys, String token) {
		this.firstConnection.await(keys.name(), "check");
		Long owner = requireReply(keys, "check",
				call(keys, "check", () -> this.redis.execute(LockScripts.OWNER, List.of(keys.lockKey()), token)));
		return owner == 1L;
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

	private static <T> @Nullable T call(LockKeys keys, String operation, Supplier<? extends @Nullable T> call) {
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

}
