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

package dev.distlock.jdbc;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;

import dev.distlock.store.LockStore.Subscription;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link JdbcLockStore} learns that a key may have become free: a PostgreSQL
 * listener or a poller.
 *
 * @author distlock
 */
interface ReleaseWatcher extends AutoCloseable {

	/**
	 * Call {@code listener} when {@code key} may have become free; does no blocking I/O.
	 */
	Subscription subscribe(String key, Runnable listener);

	/**
	 * Start watching: {@code timer} starts each poll of a watcher that polls every
	 * {@code pollInterval}, and {@code executor} runs it; a watcher with a thread of its
	 * own has nothing to start.
	 */
	default void start(ScheduledExecutorService timer, Duration pollInterval,
			Function<Callable<@Nullable Void>, CompletionStage<?>> executor) {
	}

	/**
	 * Tell the watcher that this store released {@code key} itself.
	 */
	void releasedHere(String key);

	@Override
	void close();

}
