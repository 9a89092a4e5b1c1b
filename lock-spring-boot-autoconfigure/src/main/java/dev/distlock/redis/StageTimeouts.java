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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Bounds stages in time on one scheduler thread shared by every store of the JVM (it only
 * completes futures exceptionally, and its task is cancelled when the stage completes in
 * time), like {@link CompletableFuture#orTimeout} but on a thread of the store's own.
 *
 * @author distlock
 * @since 0.1.0
 */
final class StageTimeouts {

	private static final ScheduledThreadPoolExecutor scheduler = createScheduler();

	private StageTimeouts() {
	}

	/**
	 * Fail {@code stage} with a {@link TimeoutException} unless it completes within
	 * {@code timeout}.
	 * @param <T> the result type
	 * @param stage the stage
	 * @param timeout the bound
	 * @param what what the stage does, for the message
	 * @return {@code stage}
	 */
	static <T> CompletableFuture<T> within(CompletableFuture<T> stage, Duration timeout, String what) {
		if (stage.isDone()) {
			return stage;
		}
		ScheduledFuture<?> expiry = scheduler.schedule(
				() -> stage.completeExceptionally(
						new TimeoutException("Redis did not answer " + what + " within " + timeout.toMillis() + " ms")),
				timeout.toNanos(), TimeUnit.NANOSECONDS);
		stage.whenComplete((result, failure) -> expiry.cancel(false));
		return stage;
	}

	private static ScheduledThreadPoolExecutor createScheduler() {
		ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "distlock-redis-timeouts");
			thread.setDaemon(true);
			return thread;
		});
		executor.setRemoveOnCancelPolicy(true);
		return executor;
	}

}
