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
package dev.distlock.store.support;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.util.Assert;

/**
 * The bounded executor of a store whose backend client blocks: a fixed number of daemon
 * threads, idle ones ending after 30 seconds, and a bounded queue. A task it cannot take
 * is refused at once with a {@link RejectedExecutionException} that says so, rather than
 * blocking the caller. {@link dev.distlock.store.BlockingLockStore} runs its operations
 * on one; a store whose own client library blocks can too.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class BoundedExecutor implements Executor {

	private final ThreadPoolExecutor executor;

	/**
	 * Create an executor.
	 * @param threadPrefix the prefix of its threads' names, followed by a number
	 * @param threads how many tasks may run at once
	 * @param queueCapacity how many tasks may wait for a thread
	 */
	public BoundedExecutor(String threadPrefix, int threads, int queueCapacity) {
		Assert.hasText(threadPrefix, "'threadPrefix' must not be empty");
		Assert.isTrue(threads > 0, "'threads' must be positive");
		Assert.isTrue(queueCapacity > 0, "'queueCapacity' must be positive");
		AtomicInteger count = new AtomicInteger();
		this.executor = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
				new ArrayBlockingQueue<>(queueCapacity), (task) -> {
					Thread thread = new Thread(task, threadPrefix + count.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				}, new ThreadPoolExecutor.AbortPolicy());
		this.executor.allowCoreThreadTimeOut(true);
	}

	/**
	 * Run {@code task} on a thread of this executor, or queue it.
	 * @throws RejectedExecutionException at once when every thread is busy and the queue
	 * is full, or after {@link #shutdown()}
	 */
	@Override
	public void execute(Runnable task) {
		try {
			this.executor.execute(task);
		}
		catch (RejectedExecutionException ex) {
			throw new RejectedExecutionException("All " + this.executor.getMaximumPoolSize()
					+ " command threads are busy and " + this.executor.getQueue().size()
					+ " commands wait: the store refuses more rather than block the caller", ex);
		}
	}

	/**
	 * Return whether tasks wait in the queue for a thread.
	 * @return whether the queue holds a task
	 */
	public boolean hasQueuedTasks() {
		return !this.executor.getQueue().isEmpty();
	}

	/**
	 * Stop taking tasks; queued ones still run.
	 */
	public void shutdown() {
		this.executor.shutdown();
	}

}
