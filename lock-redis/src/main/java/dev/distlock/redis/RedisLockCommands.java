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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.stream.IntStream;

import dev.distlock.LockBackendException;
import dev.distlock.store.FairGrantWakeUpExtension.ClockedAttempt;
import dev.distlock.store.FairQueueLimits;
import dev.distlock.store.HandOverExtension.HandOff;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.ReadWriteTiming;
import dev.distlock.store.support.Stages;
import org.jspecify.annotations.Nullable;

/**
 * Runs the store's scripts ({@link LockScripts}) with their ARGV, reads their replies,
 * and turns every failure into {@link LockBackendException}. Non-blocking: every method
 * returns the stage of its script.
 *
 * @author distlock
 * @since 0.1.0
 */
final class RedisLockCommands {

	static final String PENDING_WRITER_RECHECK_MILLIS = Long
		.toString(ReadWriteTiming.PENDING_WRITER_RECHECK.toMillis());

	static final String WRITER_WAITING_MILLIS = Long.toString(ReadWriteTiming.WRITER_WAITING.toMillis());

	private static final String[] SECONDS = IntStream.rangeClosed(0, 60)
		.mapToObj((seconds) -> Long.toString(seconds * 1000L))
		.toArray(String[]::new);

	/**
	 * How long a client that listens to every release of a key (for a waiting reader, a
	 * caller of several keys, a waiter that is not woken alone) counts as registered
	 * after a refused attempt: several times the engine's longest re-check interval (one
	 * second), so that the re-checks of a waiting caller keep it registered and releases
	 * keep publishing.
	 */
	static final String LISTENER_MILLIS = Long.toString(Duration.ofSeconds(3).toMillis());

	static final String GONE_WAITERS_PER_STEP = Integer.toString(FairQueueLimits.GONE_WAITERS_PER_STEP);

	private final ScriptExecutor executor;

	/**
	 * How long the marker a release leaves lives (at least a second): one command
	 * timeout, the longest a client still re-sends the request after reconnecting. Read
	 * from the connection factory at the first release.
	 */
	private volatile @Nullable String replayMillis;

	RedisLockCommands(ScriptExecutor executor) {
		this.executor = executor;
	}

	/**
	 * Return the arguments the commands pass as these very strings, whatever the request,
	 * whose encodings {@link EncodedStrings} makes once.
	 * @return the constant arguments
	 */
	static List<String> constantArguments() {
		List<String> constants = new ArrayList<>(List.of(SECONDS));
		constants.addAll(List.of(PENDING_WRITER_RECHECK_MILLIS, WRITER_WAITING_MILLIS, LISTENER_MILLIS,
				GONE_WAITERS_PER_STEP, LuaHelpers.EVERY_RELEASE, "", PatternReleaseNotifications.PUBLISH,
				ShardedReleaseNotifications.SPUBLISH));
		return constants;
	}

	private String replayMillis() {
		String replay = this.replayMillis;
		if (replay == null) {
			replay = millis(max(this.executor.commandTimeout(), Duration.ofSeconds(1)));
			this.replayMillis = replay;
		}
		return replay;
	}

	private static Duration max(Duration a, Duration b) {
		return (a.compareTo(b) >= 0) ? a : b;
	}

	CompletableFuture<Attempt> tryAcquire(LockKeys keys, String token, Duration lease, boolean listening) {
		return run(keys, "acquire", LockScripts.ACQUIRE, acquireArgs(token, lease, listening),
				RedisLockCommands::toAttempt);
	}

	/**
	 * Return the ARGV of {@link LockScripts#ACQUIRE} for a caller that names no waiter.
	 * @param token the owner token
	 * @param lease the lease
	 * @param listening whether this client listens to every release of the key, and so
	 * registers as such a listener when refused
	 * @return the arguments
	 */
	static List<String> acquireArgs(String token, Duration lease, boolean listening) {
		return List.of(token, millis(lease), WRITER_WAITING_MILLIS, PENDING_WRITER_RECHECK_MILLIS,
				listening ? LuaHelpers.EVERY_RELEASE : "", listening ? LISTENER_MILLIS : "");
	}

	CompletableFuture<Attempt> tryAcquire(LockKeys keys, String token, Duration lease, String waiter,
			Duration waiterTtl) {
		return run(keys, "acquire", LockScripts.ACQUIRE, List.of(token, millis(lease), WRITER_WAITING_MILLIS,
				PENDING_WRITER_RECHECK_MILLIS, waiter, millis(waiterTtl)), RedisLockCommands::toAttempt);
	}

	CompletableFuture<Attempt> tryAcquireRead(LockKeys keys, String token, Duration lease, boolean listening) {
		return run(keys, "acquire", LockScripts.ACQUIRE_READ,
				List.of(token, millis(lease), listening ? LISTENER_MILLIS : ""), RedisLockCommands::toAttempt);
	}

	CompletableFuture<ClockedAttempt> tryAcquireFair(LockKeys keys, String token, Duration lease,
			@Nullable Duration grantTimeout, String publishCommand) {
		String grant = (grantTimeout != null) ? millis(grantTimeout) : "";
		return run(
				keys, "acquire", LockScripts.FAIR_ACQUIRE, List.of(token, millis(lease), grant, publishCommand,
						WRITER_WAITING_MILLIS, PENDING_WRITER_RECHECK_MILLIS, GONE_WAITERS_PER_STEP),
				RedisLockCommands::toClockedAttempt);
	}

	/**
	 * Hand the lock over to the next token of the same client; see
	 * {@link LockScripts#COHORT_HAND_OVER}.
	 * @param client the id under which the holder's client registers as a waiter, or
	 * {@code ""} when unknown
	 * @return the grant or a refusal if {@code token} did not own the lock, with whether
	 * another client waits; or {@code null} if fair waiters are queued
	 */
	CompletableFuture<@Nullable HandOff> handOver(LockKeys keys, String token, String nextToken, Duration lease,
			String client) {
		return this.<@Nullable HandOff>run(keys, "hand over", LockScripts.COHORT_HAND_OVER,
				List.of(token, nextToken, millis(lease), client), (reply) -> {
					List<Long> answer = longs(reply);
					if (answer.get(0) == 2L) {
						return null;
					}
					return (answer.get(0) == 1L) ? new HandOff(Attempt.granted(answer.get(1)), answer.get(2) == 1L)
							: new HandOff(Attempt.busy(null), true);
				});
	}

	CompletableFuture<Boolean> leave(LockKeys keys, String waiter, String publishCommand) {
		return run(keys, "leave", LockScripts.LEAVE, List.of(waiter, publishCommand, GONE_WAITERS_PER_STEP),
				RedisLockCommands::isOne);
	}

	CompletableFuture<List<Attempt>> tryAcquireAll(List<LockKeys> keys, String token, Duration lease,
			boolean listening) {
		return run(keys.get(0), "acquire", LockScripts.ACQUIRE_ALL, LockScripts.keysOf(keys, 5), List.of(token,
				millis(lease), WRITER_WAITING_MILLIS, PENDING_WRITER_RECHECK_MILLIS, listening ? LISTENER_MILLIS : ""),
				(reply) -> {
					List<Long> answer = longs(reply);
					List<Attempt> attempts = new ArrayList<>(keys.size());
					if (answer.get(0) == 1L) {
						answer.subList(1, answer.size()).forEach((fence) -> attempts.add(Attempt.granted(fence)));
						return attempts;
					}
					int busy = answer.get(1).intValue() - 1;
					for (int i = 0; i < keys.size(); i++) {
						attempts.add((i == busy) ? busy(answer.get(2)) : Attempt.busy(null));
					}
					return attempts;
				});
	}

	CompletableFuture<Boolean> expireAfter(LockKeys keys, String token, Duration remaining) {
		return run(keys, "release", LockScripts.EXPIRE_AFTER, List.of(token, millis(remaining)),
				RedisLockCommands::isOne);
	}

	CompletableFuture<Boolean> release(LockKeys keys, String token, String publishCommand) {
		List<String> redisKeys = EncodedStrings.with(keys.all(), keys.releasedKey(token));
		return run(keys, "release", LockScripts.RELEASE, redisKeys,
				List.of(token, publishCommand, GONE_WAITERS_PER_STEP, replayMillis()), RedisLockCommands::isOne);
	}

	CompletableFuture<Boolean> isOwner(LockKeys keys, String token) {
		return run(keys, "check", LockScripts.OWNER, List.of(token), RedisLockCommands::isOne);
	}

	/**
	 * Extend every lease that still holds its token, in one script. All locks must map to
	 * one hash slot when Redis runs as a cluster.
	 * @param keys the locks
	 * @param tokens the owner token of each lock
	 * @param lease the new lease
	 * @return for each lock, whether its lease was extended
	 */
	CompletableFuture<List<Boolean>> renew(List<LockKeys> keys, List<String> tokens, Duration lease) {
		List<String> args = new ArrayList<>(tokens.size() + 1);
		args.add(millis(lease));
		args.addAll(tokens);
		return run(keys.get(0), "renew", LockScripts.RENEW, LockScripts.keysOf(keys, 2), args,
				(reply) -> longs(reply).stream().map((renewed) -> renewed == 1L).toList());
	}

	/**
	 * Return the server's major version, {@code 0} if it is older than 7.
	 * @param keys a lock whose node to ask
	 * @return the major version
	 */
	CompletableFuture<Integer> serverMajorVersion(LockKeys keys) {
		return run(keys, "check", LockScripts.SERVER_VERSION, List.of(),
				(reply) -> (int) ((((Long) reply) >> 16) & 0xff));
	}

	/**
	 * Run a script on the keys of one lock.
	 * @param <T> the result type
	 * @param keys the lock's keys, passed as KEYS
	 * @param operation the operation, for errors
	 * @param script the script
	 * @param args its ARGV
	 * @param reply reads the reply
	 * @return the stage of the result
	 */
	<T extends @Nullable Object> CompletableFuture<T> run(LockKeys keys, String operation, LuaScript script,
			List<String> args, Function<Object, T> reply) {
		return run(keys, operation, script, keys.all(), args, reply);
	}

	private <T extends @Nullable Object> CompletableFuture<T> run(LockKeys keys, String operation, LuaScript script,
			List<String> redisKeys, List<String> args, Function<Object, T> reply) {
		CompletableFuture<Object> outcome;
		try {
			outcome = this.executor.run(script, redisKeys, args);
		}
		catch (RuntimeException ex) {
			outcome = CompletableFuture.failedFuture(ex);
		}
		return outcome.handle((answer, failure) -> {
			if (failure != null) {
				Throwable cause = Stages.unwrap(failure);
				throw new CompletionException((cause instanceof LockBackendException backend) ? backend
						: new LockBackendException(keys.name(), operation, cause));
			}
			if (answer == ScriptExecutor.NO_REPLY) {
				throw new CompletionException(new LockBackendException(keys.name(), operation,
						new IllegalStateException("Redis returned no reply to script " + script.name()
								+ "; is the template pipelining or in a transaction?")));
			}
			try {
				return reply.apply(answer);
			}
			catch (RuntimeException ex) {
				throw new CompletionException(new LockBackendException(keys.name(), operation, ex));
			}
		});
	}

	/**
	 * Read the reply of an acquire script.
	 * @param reply {@code {1, fence}} or {@code {0, pttl}}
	 * @return the outcome
	 */
	static Attempt toAttempt(Object reply) {
		return toClockedAttempt(reply).attempt();
	}

	/**
	 * Read the reply of an acquire script that may tell Redis's clock.
	 * @param reply {@code {1, fence}}, {@code {0, pttl}} or {@code {0, pttl, clock}}
	 * @return the outcome, with Redis's clock in milliseconds when the reply tells it
	 */
	static ClockedAttempt toClockedAttempt(Object reply) {
		List<Long> answer = longs(reply);
		if (answer.get(0) == 1L) {
			return ClockedAttempt.unclocked(Attempt.granted(answer.get(1)));
		}
		Attempt busy = Attempt.busy(remaining(answer.get(1)));
		return (answer.size() > 2) ? new ClockedAttempt(busy, answer.get(2)) : ClockedAttempt.unclocked(busy);
	}

	private static Attempt busy(long holderTtl) {
		return Attempt.busy(remaining(holderTtl));
	}

	private static @Nullable Duration remaining(long holderTtl) {
		return (holderTtl == -1) ? null : Duration.ofMillis(Math.max(0, holderTtl));
	}

	private static boolean isOne(Object reply) {
		return ((Long) reply) == 1L;
	}

	@SuppressWarnings("unchecked")
	private static List<Long> longs(Object reply) {
		return (List<Long>) reply;
	}

	/**
	 * Return a duration in milliseconds as text, without allocating for the common leases
	 * (whole seconds up to a minute).
	 * @param duration the duration
	 * @return its milliseconds
	 */
	static String millis(Duration duration) {
		long millis = duration.toMillis();
		if (millis % 1000 == 0 && millis >= 0 && millis / 1000 < SECONDS.length) {
			return SECONDS[(int) (millis / 1000)];
		}
		return Long.toString(millis);
	}

}
