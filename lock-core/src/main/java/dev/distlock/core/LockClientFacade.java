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

import dev.distlock.store.support.LockKeyRules;
import dev.distlock.store.support.Stages;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

import dev.distlock.LogSafe;
import dev.distlock.NoSegmentAvailableException;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The {@link LockClient} methods written once for every view of a client (its write
 * locks, their fair view, its read locks): each named and unnamed overload ends in the
 * view's {@link Locks}, after the view's own checks. A view says how it validates a call
 * and what a blocking caller must be refused first.
 *
 * @author distlock
 * @since 0.1.0
 */
abstract class LockClientFacade implements LockClient {

	/**
	 * Return the acquisitions of this view.
	 */
	abstract Locks locks();

	/**
	 * Return the thread-bound holds of this view.
	 */
	abstract ThreadLocks threadLocks();

	/**
	 * Validate a call and return its keys in locking order.
	 * @throws UnsupportedOperationException if the store cannot take this view's locks
	 */
	abstract List<String> validate(String name, Collection<String> keys, Duration waitTime,
			@Nullable Duration leaseTime);

	/**
	 * Check what the calling thread holds before it blocks for {@code keys}; the default
	 * checks nothing.
	 */
	void beforeBlocking(List<String> keys) {
	}

	@Override
	public LockHandle obtain(String name, String key) {
		return new ThreadLockHandle(threadLocks(), locks().requireKey(key), Locks.requireName(name));
	}

	@Override
	public LockHold acquire(String name, String key, Duration waitTime, @Nullable Duration leaseTime)
			throws InterruptedException {
		return acquireAll(name, List.of(locks().requireKey(key)), waitTime, leaseTime).get(0);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Waiting holds no thread. Cancelling the returned future at any instant stops the
	 * acquisition; a lock granted meanwhile is released at once.
	 */
	@Override
	public CompletionStage<LockHold> acquireAsync(String name, String key, Duration waitTime,
			@Nullable Duration leaseTime) {
		return Locks.single(acquireAllAsync(name, List.of(locks().requireKey(key)), waitTime, leaseTime));
	}

	@Override
	public List<LockHold> acquireAll(String name, Collection<String> keys, Duration waitTime,
			@Nullable Duration leaseTime) throws InterruptedException {
		List<String> sorted = validate(name, keys, waitTime, leaseTime);
		beforeBlocking(sorted);
		return locks().acquire(name, sorted, waitTime, leaseTime);
	}

	@Override
	public CompletableFuture<List<LockHold>> acquireAllAsync(String name, Collection<String> keys, Duration waitTime,
			@Nullable Duration leaseTime) {
		return locks().acquireAsync(name, validate(name, keys, waitTime, leaseTime), waitTime, leaseTime);
	}

	/**
	 * Return the acquisitions of one of several keys of this view.
	 * @param keys the keys asked for, for the message
	 * @throws UnsupportedOperationException if this view's locks have no segments
	 */
	Locks segmentLocks(List<String> keys) {
		throw new UnsupportedOperationException(
				"Lock " + LogSafe.escape(keys) + " cannot be segmented: " + getClass().getName() + " has no segments");
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The filter runs on the calling thread before any key is asked for, and again, on
	 * fresh stock, when every accepted segment was found empty while the caller waited.
	 */
	@Override
	public SegmentHold acquireAny(String name, List<String> keys, IntPredicate filter, Duration waitTime,
			@Nullable Duration leaseTime) throws InterruptedException {
		List<String> checked = validateSegments(name, keys, waitTime, leaseTime);
		Assert.notNull(filter, "'filter' must not be null");
		Locks locks = segmentLocks(checked);
		long deadline = System.nanoTime() + Locks.waitNanos(checked.get(0), waitTime);
		Duration wait = waitTime;
		while (true) {
			AcquireGoal goal = new AnyKeyTurns(accepted(checked, filter));
			beforeBlocking(checked);
			try {
				return segment(checked, locks.acquire(name, checked, goal, wait, leaseTime).get(0));
			}
			catch (SegmentsEmptied ex) {
				wait = remaining(deadline);
			}
		}
	}

	private static Duration remaining(long deadline) {
		return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Waiting holds no thread. Cancelling the returned future at any instant, also while
	 * the filter runs, stops the acquisition; a lock granted meanwhile is released at
	 * once.
	 */
	@Override
	public CompletableFuture<SegmentHold> acquireAnyAsync(String name, List<String> keys, IntPredicate filter,
			Executor filterExecutor, Duration waitTime, @Nullable Duration leaseTime) {
		List<String> checked = validateSegments(name, keys, waitTime, leaseTime);
		Assert.notNull(filter, "'filter' must not be null");
		Assert.notNull(filterExecutor, "'filterExecutor' must not be null");
		Locks locks = segmentLocks(checked);
		CompletableFuture<SegmentHold> result = new CompletableFuture<>();
		String caller = LockCaller.current();
		long deadline = System.nanoTime() + Locks.waitNanos(checked.get(0), waitTime);
		Runnable start = new Runnable() {

			private boolean retried;

			@Override
			public void run() {
				if (result.isDone()) {
					return;
				}
				Duration wait = this.retried ? remaining(deadline) : waitTime;
				this.retried = true;
				Runnable again = () -> execute(filterExecutor, this, result);
				if (caller != null && !caller.equals(LockCaller.current())) {
					// The code that asked names itself on the filter's thread too
					LockCaller.<@Nullable Void, RuntimeException>call(caller, () -> {
						startSegments(result, again, locks, name, checked, filter, wait, leaseTime);
						return null;
					});
					return;
				}
				startSegments(result, again, locks, name, checked, filter, wait, leaseTime);
			}

		};
		execute(filterExecutor, start, result);
		return result;
	}

	private static void execute(Executor executor, Runnable task, CompletableFuture<?> result) {
		try {
			executor.execute(task);
		}
		catch (RuntimeException ex) {
			result.completeExceptionally(ex);
		}
	}

	/**
	 * Run the filter and start acquiring one of the accepted keys for {@code result},
	 * passing a cancellation of {@code result} on to the acquisition; run {@code again}
	 * when every accepted segment was found empty meanwhile.
	 */
	private static void startSegments(CompletableFuture<SegmentHold> result, Runnable again, Locks locks, String name,
			List<String> checked, IntPredicate filter, Duration waitTime, @Nullable Duration leaseTime) {
		AcquireGoal goal;
		try {
			goal = new AnyKeyTurns(accepted(checked, filter));
		}
		catch (RuntimeException | Error ex) {
			result.completeExceptionally(ex);
			return;
		}
		CompletableFuture<SegmentHold> hold = Locks.single(locks.acquireAsync(name, checked, goal, waitTime, leaseTime),
				(held) -> segment(checked, held));
		result.whenComplete((held, failure) -> {
			if (result.isCancelled()) {
				hold.cancel(false);
			}
			else if (failure != null) {
				hold.completeExceptionally(Stages.unwrap(failure));
			}
		});
		hold.whenComplete((held, failure) -> {
			if (failure != null && Stages.unwrap(failure) instanceof SegmentsEmptied) {
				again.run();
			}
			else if (failure != null) {
				result.completeExceptionally(Stages.unwrap(failure));
			}
			else if (!result.complete(held)) {
				held.releaseAsync();
			}
		});
	}

	private List<String> validateSegments(String name, List<String> keys, Duration waitTime,
			@Nullable Duration leaseTime) {
		Locks.requireName(name);
		List<String> checked = LockKeyRules.requireDistinctKeys(keys, locks().engine.settings.maxKeyLength(),
				locks().engine.settings.maxKeys());
		Locks.waitNanos(checked.get(0), waitTime);
		Locks.validateLease(checked.get(0), leaseTime);
		return checked;
	}

	/**
	 * Return the indexes of the keys {@code filter} accepts, in key order.
	 * @throws NoSegmentAvailableException if it accepts none
	 */
	private static int[] accepted(List<String> keys, IntPredicate filter) {
		int[] accepted = IntStream.range(0, keys.size()).filter(filter).toArray();
		if (accepted.length == 0) {
			throw new NoSegmentAvailableException(keys);
		}
		return accepted;
	}

	private static SegmentHold segment(List<String> keys, LockHold hold) {
		return new SegmentCallHold((CallHold) hold, keys.indexOf(hold.key()));
	}

	/**
	 * Check the name, keys, wait and lease every view checks, and return the keys in
	 * locking order.
	 */
	final List<String> validateCommon(String name, Collection<String> keys, Duration waitTime,
			@Nullable Duration leaseTime) {
		Locks.requireName(name);
		List<String> sorted = locks().sortedKeys(keys);
		Locks.waitNanos(sorted.get(0), waitTime);
		Locks.validateLease(sorted.get(0), leaseTime);
		return sorted;
	}

}
