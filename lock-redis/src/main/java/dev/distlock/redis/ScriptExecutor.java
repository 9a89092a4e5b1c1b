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

/**
 * Runs the store's scripts without blocking the caller: on Lettuce's asynchronous API
 * ({@link LettuceScriptExecutor}), or on a small bounded executor of the store's own for
 * a blocking client such as Jedis ({@link PooledScriptExecutor}). Every stage completes
 * within the command timeout.
 *
 * @author distlock
 * @since 0.1.0
 */
interface ScriptExecutor extends AutoCloseable {

	/**
	 * Stands for a nil reply, or none (a template that pipelines or is in a transaction).
	 */
	Object NO_REPLY = new Object() {

		@Override
		public String toString() {
			return "no reply";
		}

	};

	/**
	 * Run a script.
	 * @param script the script
	 * @param keys its KEYS
	 * @param args its ARGV
	 * @return the reply: a {@link Long}, a {@link String}, a {@link List} of those, or
	 * {@link #NO_REPLY}; failed with what the client threw, or a
	 * {@link java.util.concurrent.TimeoutException} past the command timeout, or a
	 * {@link java.util.concurrent.RejectedExecutionException} when the executor is full
	 */
	CompletableFuture<Object> run(LuaScript script, List<String> keys, List<String> args);

	/**
	 * Return how long one command may take.
	 * @return the command timeout
	 */
	Duration commandTimeout();

	@Override
	void close();

}
