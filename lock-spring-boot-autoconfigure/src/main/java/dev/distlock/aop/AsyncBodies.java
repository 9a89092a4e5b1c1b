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

package dev.distlock.aop;

import java.time.Duration;
import java.util.concurrent.Executor;

import org.springframework.core.task.SimpleAsyncTaskExecutor;

/**
 * Where the bodies of asynchronous {@code @DistributedLock} methods run when the
 * application names no executor: a new daemon thread per call, virtual where asked for. A
 * thread per call never queues a body behind another that blocks or waits for a lock,
 * which a bounded pool would (a body that joins another locked call could then wait for a
 * thread that never frees up).
 *
 * @author distlock
 */
final class AsyncBodies {

	/**
	 * How long a cancelled subscription of a reactive locked method keeps its lock when
	 * nothing else is set: the default lease of the watchdog, as long as the lock would
	 * outlive a holder that crashed.
	 */
	static final Duration DEFAULT_HOLD_AFTER_CANCEL = Duration.ofSeconds(30);

	private static final String THREAD_PREFIX = "distlock-async-";

	private static final Executor platformThreads = newExecutor(false);

	private AsyncBodies() {
	}

	/**
	 * Return the executor used when none is set: a new platform thread per body.
	 * @return the executor
	 */
	static Executor fallbackExecutor() {
		return platformThreads;
	}

	/**
	 * Return a new executor that runs each body on a thread of its own.
	 * @param virtualThreads whether the threads are virtual (Java 21 or later)
	 * @return the executor
	 */
	static Executor newExecutor(boolean virtualThreads) {
		SimpleAsyncTaskExecutor executor = new SimpleAsyncTaskExecutor(THREAD_PREFIX);
		executor.setDaemon(true);
		executor.setVirtualThreads(virtualThreads);
		return executor;
	}

}
