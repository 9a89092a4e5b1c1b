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

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.distlock.LockBackendException;
import org.jspecify.annotations.Nullable;

/**
 * Runs blocking store commands on a small bounded executor of their own, so that no
 * caller, timer or notification thread blocks on one: a full queue fails the command with
 * {@link LockBackendException} instead of blocking.
 *
 * @author distlock
 * @since 0.1.0
 */
final class BlockingCommands implements AutoCloseable {

	private static final int THREADS = 8;

	private static final int QUEUE = 10_000;

	private final ThreadPoolExecutor executor;

	BlockingCommands() {
		AtomicInteger count = new AtomicInteger();
		this.executor = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE),
				(task) -> {
					Thread thread = new Thread(task, "distlock-redis-command-" + count.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
		this.executor.allowCoreThreadTimeOut(true);
	}

	<T extends @Nullable Object> CompletableFuture<T> run(Supplier<T> command) {
		try {
			return CompletableFuture.supplyAsync(command, this.executor);
		}
		catch (RejectedExecutionException ex) {
			return CompletableFuture.failedFuture(new LockBackendException("*", "command", ex));
		}
	}

	@Override
	public void close() {
		this.executor.shutdown();
	}

}
