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

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Calls the application's {@link LockClientListener} and {@link LockTracker}s on a thread
 * of their own, one event at a time in the order the client saw them, so that listener
 * code never runs on a thread that completes grants, renews leases or reads the store's
 * replies: a slow listener delays the events after it and the callers whose outcome they
 * report, never a renewal or another store reply. An event that throws is logged and
 * ignored.
 * <p>
 * A caller learns of an outcome only after the listener did: the client completes
 * callers' futures {@link #after after} the events reported before, and its blocking
 * calls {@link #awaitReported() wait} for them, so what a listener records is there when
 * the call returns. Without a listener nothing is handed over: events and completions run
 * where they happen. Once the client has closed, events run on the thread that reports
 * them.
 *
 * @author distlock
 * @since 0.1.0
 */
final class ListenerEvents implements Executor {

	private static final Log logger = LogFactory.getLog(ListenerEvents.class);

	/** The listener's thread, {@code null} without a listener. */
	private final @Nullable ThreadPoolExecutor thread;

	private volatile @Nullable Thread current;

	ListenerEvents(LockClientListener listener, String threadName) {
		if (listener == LockClientListener.NONE) {
			this.thread = null;
			return;
		}
		this.thread = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), (task) -> {
			Thread events = new Thread(task, threadName);
			events.setDaemon(true);
			return events;
		});
		this.thread.allowCoreThreadTimeOut(true);
	}

	/**
	 * Report an event to the listener, on its thread.
	 * @param event calls the listener
	 */
	@Override
	public void execute(Runnable event) {
		after(() -> {
			try {
				event.run();
			}
			catch (RuntimeException ex) {
				logger.warn("A LockClientListener or LockTracker failed", ex);
			}
		});
	}

	/**
	 * Run {@code task} once the events reported so far have been handled: on the
	 * listener's thread, so it must only hand work on.
	 * @param task what to run
	 */
	void after(Runnable task) {
		ThreadPoolExecutor events = this.thread;
		if (events == null) {
			task.run();
			return;
		}
		try {
			events.execute(() -> {
				this.current = Thread.currentThread();
				task.run();
			});
		}
		catch (RejectedExecutionException ex) {
			task.run();
		}
	}

	/**
	 * Wait, uninterruptibly, until the events reported so far have been handled; does not
	 * wait on the listener's own thread (a listener that calls the client).
	 */
	void awaitReported() {
		if (this.thread == null || Thread.currentThread() == this.current) {
			return;
		}
		CompletableFuture<@Nullable Void> reported = new CompletableFuture<>();
		after(() -> reported.complete(null));
		boolean interrupted = false;
		while (!reported.isDone()) {
			try {
				reported.get();
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
			catch (ExecutionException ex) {
				break;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Return a listener that reports renewal batches to {@code listener} through these
	 * events.
	 * @param listener the application's listener
	 * @return the dispatching listener
	 */
	LockClientListener renewals(LockClientListener listener) {
		if (this.thread == null) {
			return listener;
		}
		return new LockClientListener() {

			@Override
			public LockTracker acquisitionStarted(String name, String key) {
				return listener.acquisitionStarted(name, key);
			}

			@Override
			public void renewalBatchFinished(RenewalBatch batch) {
				execute(() -> listener.renewalBatchFinished(batch));
			}

		};
	}

	/**
	 * Handle the events already reported, then stop the thread.
	 */
	void shutdown() {
		ThreadPoolExecutor events = this.thread;
		if (events != null) {
			events.shutdown();
		}
	}

}
