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

import java.time.Duration;
import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Bounds stages in time on one scheduler thread shared by every store of the JVM, like
 * {@link CompletableFuture#orTimeout} but on a thread of the store's own, and without a
 * timer task per stage: the bounded stages wait in one queue that a tick checks every
 * {@value #TICK_MILLIS} ms while some are pending (dropping those completed, failing
 * those past their bound), and the ticking stops when none is left. A request thus costs
 * the scheduler thread no wake-up of its own, and a bound fires up to one tick late.
 * <p>
 * For store authors: the request bound of a store whose client applies none of its own
 * (or one longer than the store's command timeout).
 * {@link dev.distlock.store.BlockingLockStore} bounds every operation with it. Completing
 * a bounded stage on this thread runs the stage's dependent actions here, so they must
 * not block.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class StageTimeouts {

	/**
	 * How often the pending bounds are checked, in milliseconds.
	 */
	public static final long TICK_MILLIS = 10;

	private static final ScheduledThreadPoolExecutor scheduler = createScheduler();

	private static final Queue<Bound> pending = new ConcurrentLinkedQueue<>();

	private static final AtomicBoolean ticking = new AtomicBoolean();

	private StageTimeouts() {
	}

	/**
	 * Fail {@code stage} with a {@link TimeoutException} unless it completes within
	 * {@code timeout} (give or take one tick).
	 * @param <T> the result type
	 * @param stage the stage
	 * @param timeout the bound
	 * @param what what the stage does, for the message
	 * @return {@code stage}
	 */
	public static <T> CompletableFuture<T> within(CompletableFuture<T> stage, Duration timeout, String what) {
		return within(stage, timeout, System.nanoTime() + timeout.toNanos(), what);
	}

	/**
	 * Fail {@code stage} with a {@link TimeoutException} unless it completes by
	 * {@code deadlineNanos} (give or take one tick), at once if that has passed: for a
	 * bound of {@code timeout} that started earlier.
	 * @param <T> the result type
	 * @param stage the stage
	 * @param timeout the bound, for the message
	 * @param deadlineNanos when the bound ends, on {@link System#nanoTime()}'s clock
	 * @param what what the stage does, for the message
	 * @return {@code stage}
	 */
	public static <T> CompletableFuture<T> within(CompletableFuture<T> stage, Duration timeout, long deadlineNanos,
			String what) {
		if (stage.isDone()) {
			return stage;
		}
		Bound bound = new Bound(stage, deadlineNanos, timeout, what);
		if (System.nanoTime() - deadlineNanos >= 0) {
			bound.expire();
			return stage;
		}
		pending.add(bound);
		if (ticking.compareAndSet(false, true)) {
			scheduleTick();
		}
		return stage;
	}

	/**
	 * Return how many bounded stages the next tick checks, and how many timer tasks are
	 * scheduled: at most one, the tick.
	 * @return the pending bounds and the scheduled tasks
	 */
	public static int[] pendingAndScheduled() {
		return new int[] { pending.size(), scheduler.getQueue().size() };
	}

	private static void scheduleTick() {
		scheduler.schedule(StageTimeouts::tick, TICK_MILLIS, TimeUnit.MILLISECONDS);
	}

	private static void tick() {
		long now = System.nanoTime();
		for (Iterator<Bound> bounds = pending.iterator(); bounds.hasNext();) {
			Bound bound = bounds.next();
			if (bound.stage.isDone()) {
				bounds.remove();
			}
			else if (now - bound.deadlineNanos >= 0) {
				bounds.remove();
				bound.expire();
			}
		}
		ticking.set(false);
		// A stage added after the check above ticks on, started here or by its adder
		if (!pending.isEmpty() && ticking.compareAndSet(false, true)) {
			scheduleTick();
		}
	}

	private static ScheduledThreadPoolExecutor createScheduler() {
		return new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "distlock-timeouts");
			thread.setDaemon(true);
			return thread;
		});
	}

	/**
	 * One bounded stage.
	 */
	private record Bound(CompletableFuture<?> stage, long deadlineNanos, Duration timeout, String what) {

		void expire() {
			this.stage.completeExceptionally(new TimeoutException(
					"The lock store did not answer " + this.what + " within " + this.timeout.toMillis() + " ms"));
		}

	}

}
