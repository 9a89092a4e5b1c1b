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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.store.support.BoundedExecutor;
import dev.distlock.store.support.StageTimeouts;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Runs scripts through the application's {@link StringRedisTemplate} on a small bounded
 * executor of the store's own, for a client with no asynchronous API (Jedis, or any other
 * connection factory but Lettuce's): a few threads and a bounded queue. The caller never
 * blocks: a full queue fails the stage at once with a {@link RejectedExecutionException},
 * and a stage still waiting for its reply after the command timeout fails with a
 * {@link java.util.concurrent.TimeoutException} (a task whose stage already failed is
 * skipped when its turn comes).
 *
 * @author distlock
 * @since 0.1.0
 */
final class PooledScriptExecutor implements ScriptExecutor {

	/**
	 * Threads that run commands, by default.
	 */
	static final int DEFAULT_THREADS = 4;

	/**
	 * Commands that may wait for a thread, by default.
	 */
	static final int DEFAULT_QUEUE_CAPACITY = 16_384;

	private static final AtomicInteger executors = new AtomicInteger();

	private final StringRedisTemplate redis;

	private final Duration commandTimeout;

	private final BoundedExecutor executor;

	PooledScriptExecutor(StringRedisTemplate redis, Duration commandTimeout, int threads, int queueCapacity) {
		this.redis = redis;
		this.commandTimeout = commandTimeout;
		this.executor = new BoundedExecutor("distlock-redis-" + executors.incrementAndGet() + "-", threads,
				queueCapacity);
	}

	@Override
	public Duration commandTimeout() {
		return this.commandTimeout;
	}

	@Override
	public CompletableFuture<Object> run(LuaScript script, List<String> keys, List<String> args) {
		CompletableFuture<Object> reply = new CompletableFuture<>();
		Object[] argv = args.toArray();
		try {
			this.executor.execute(() -> {
				if (reply.isDone()) {
					return;
				}
				try {
					Object answer = this.redis.execute(script.redisScript(), keys, argv);
					reply.complete((answer != null) ? answer : NO_REPLY);
				}
				catch (Throwable ex) {
					reply.completeExceptionally(ex);
				}
			});
		}
		catch (RejectedExecutionException ex) {
			reply.completeExceptionally(ex);
			return reply;
		}
		return StageTimeouts.within(reply, this.commandTimeout, script.description());
	}

	@Override
	public void close() {
		this.executor.shutdown();
	}

}
