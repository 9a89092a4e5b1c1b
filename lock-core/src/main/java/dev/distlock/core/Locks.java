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

import dev.distlock.store.BlockingCaller;
import dev.distlock.store.support.LockKeyRules;
import dev.distlock.store.support.Stages;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import dev.distlock.LogSafe;
import dev.distlock.LockAcquisitionException;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * One kind of lock of a client (write, fair or read): starts {@link Acquisition}s of its
 * {@link AcquireVariant} and gives their grants to callers, blocking only the calling
 * thread of the blocking API, and passing a caller's cancellation down to the acquisition
 * itself for the asynchronous one.
 *
 * @author distlock
 * @since 0.1.0
 */
final class Locks {

	private static final long FOREVER = Long.MAX_VALUE / 4;

	final LockEngine engine;

	final AcquireVariant variant;

	final HoldRelease releases;

	private final String kind;

	Locks(LockEngine engine, AcquireVariant variant, HoldRelease releases, String kind) {
		this.engine = engine;
		this.variant = variant;
		this.releases = releases;
		this.kind = kind;
	}

	/**
	 * Take the locks of {@code keys}, blocking the calling thread (interruptibly) until
	 * granted or given up.
	 * @return the grants in key order, or {@code null} if busy and not
	 * {@code throwIfBusy}
	 * @throws InterruptedException if interrupted; the acquisition is stopped and a grant
	 * it got meanwhile released
	 */
	@Nullable List<Lease> await(String name, List<String> keys, long waitNanos, Duration waitTime, @Nullable Duration leaseTime,
			boolean throwIfBusy) throws InterruptedException {
		return await(name, keys, new AcquireGoal.AllKeys(keys.size()), waitNanos, waitTime, leaseTime, throwIfBusy);
	}

	/**
	 * Take the locks of {@code keys} that {@code goal} asks for, blocking the calling
	 * thread (interruptibly) until granted or given up.
	 * @return the grants in key order, or {@code null} if busy and not
	 * {@code throwIfBusy}
	 * @throws InterruptedException if interrupted; the acquisition is stopped and a grant
	 * it got meanwhile released
	 */
	@Nullable List<Lease> await(String name, List<String> keys, AcquireGoal goal, long waitNanos, Duration waitTime,
			@Nullable Duration leaseTime, boolean throwIfBusy) throws InterruptedException {
		this.engine.ensureOpen();
		Acquiring acquisition = acquisition(name, keys, goal, waitNanos, waitTime, leaseTime);
		// This thread blocks for the first request anyway: a blocking store may send it
		// from here
		CompletableFuture<List<Lease>> grants = BlockingCaller.run(acquisition::start);
		try {
			List<Lease> leases = grants.get();
			this.engine.awaitListener();
			return leases;
		}
		catch (InterruptedException ex) {
			acquisition.stop(ex);
			grants.thenAccept(this::abandon);
			this.engine.awaitListener();
			throw ex;
		}
		catch (ExecutionException ex) {
			this.engine.awaitListener();
			Throwable cause = Stages.unwrap(ex);
			if (!throwIfBusy && isBusy(cause)) {
				return null;
			}
			throw Stages.asUnchecked(cause);
		}
	}

	/**
	 * Take the locks of {@code keys}, blocking the calling thread.
	 * @return the holds in key order
	 * @throws LockAcquisitionException if busy
	 */
	List<LockHold> acquire(String name, List<String> keys, Duration waitTime, @Nullable Duration leaseTime)
			throws InterruptedException {
		return acquire(name, keys, new AcquireGoal.AllKeys(keys.size()), waitTime, leaseTime);
	}

	/**
	 * Take the locks of {@code keys} that {@code goal} asks for, blocking the calling
	 * thread.
	 * @return the holds in key order
	 * @throws LockAcquisitionException if busy
	 */
	List<LockHold> acquire(String name, List<String> keys, AcquireGoal goal, Duration waitTime,
			@Nullable Duration leaseTime) throws InterruptedException {
		List<Lease> leases = await(name, keys, goal, waitNanos(keys.get(0), waitTime), waitTime, leaseTime, true);
		return holds((leases != null) ? leases : List.of());
	}

	/**
	 * Take the locks of {@code keys} without blocking. Cancelling the returned future at
	 * any instant, or completing it exceptionally (as {@code orTimeout} does), stops the
	 * acquisition, and a grant it got, or that was not yet handed to the caller, is
	 * released.
	 * @return the holds in key order
	 */
	CompletableFuture<List<LockHold>> acquireAsync(String name, List<String> keys, Duration waitTime,
			@Nullable Duration leaseTime) {
		return acquireAsync(name, keys, new AcquireGoal.AllKeys(keys.size()), waitTime, leaseTime);
	}

	/**
	 * Take the locks of {@code keys} that {@code goal} asks for without blocking, as
	 * {@link #acquireAsync(String, List, Duration, Duration)} does.
	 * @return the holds in key order
	 */
	CompletableFuture<List<LockHold>> acquireAsync(String name, List<String> keys, AcquireGoal goal, Duration waitTime,
			@Nullable Duration leaseTime) {
		CompletableFuture<List<LockHold>> result = new CompletableFuture<>();
		Acquiring acquisition = acquisition(name, keys, goal, waitNanos(keys.get(0), waitTime), waitTime, leaseTime);
		CompletableFuture<List<Lease>> grants = acquisition.start();
		result.whenComplete((holds, failure) -> {
			if (failure != null && !grants.isCompletedExceptionally()) {
				acquisition.stop(givenUp(keys, result, failure));
				grants.thenAccept(this::abandon);
			}
		});
		grants.whenCompleteAsync((leases, failure) -> {
			if (failure != null) {
				result.completeExceptionally(Stages.unwrap(failure));
			}
			else if (!result.complete(holds(leases))) {
				abandon(leases);
			}
		}, this.engine.callbacks());
		return result;
	}

	/**
	 * Wait for a release or an ownership check of the blocking API, and until the
	 * listener has heard of its outcome.
	 * @throws RuntimeException what the stage failed with
	 */
	void join(CompletionStage<?> stage) {
		try {
			Stages.join(stage);
		}
		finally {
			this.engine.awaitListener();
		}
	}

	/**
	 * Return why an acquisition stops whose caller's future {@code result} completed with
	 * {@code failure} first: cancelled, or given up (timed out, or completed
	 * exceptionally by the caller).
	 */
	private static CancellationException givenUp(List<String> keys, CompletableFuture<?> result, Throwable failure) {
		if (result.isCancelled()) {
			return new CancellationException("Acquisition of lock " + LogSafe.escape(keys) + " was cancelled");
		}
		CancellationException givenUp = new CancellationException("Acquisition of lock " + LogSafe.escape(keys)
				+ " was given up by its caller: " + Stages.unwrap(failure));
		givenUp.initCause(Stages.unwrap(failure));
		return givenUp;
	}

	/**
	 * Return the one hold of a single-key acquisition, passing a cancellation or an
	 * exceptional completion (such as {@code orTimeout}) on to the acquisition and
	 * releasing a hold that arrives after it.
	 */
	static CompletableFuture<LockHold> single(CompletableFuture<List<LockHold>> holds) {
		return single(holds, Function.identity());
	}

	/**
	 * Return the one hold of an acquisition as {@code view} presents it, passing a
	 * cancellation or an exceptional completion on to the acquisition and releasing a
	 * hold that arrives after it.
	 */
	static <T extends LockHold> CompletableFuture<T> single(CompletableFuture<List<LockHold>> holds,
			Function<LockHold, T> view) {
		CompletableFuture<T> single = new CompletableFuture<>();
		single.whenComplete((hold, failure) -> {
			if (single.isCancelled()) {
				holds.cancel(false);
			}
			else if (failure != null) {
				holds.completeExceptionally(Stages.unwrap(failure));
			}
		});
		holds.whenComplete((all, failure) -> {
			if (failure != null) {
				single.completeExceptionally(Stages.unwrap(failure));
			}
			else if (!single.complete(view.apply(all.get(0)))) {
				all.get(0).releaseAsync();
			}
		});
		return single;
	}

	/**
	 * Return the acquisition of {@code keys}: for a lock of one key whose variant has one
	 * (write and read locks), its {@link UncontendedAttempt uncontended fast path} unless
	 * the settings switch it off.
	 */
	private Acquiring acquisition(String name, List<String> keys, AcquireGoal goal, long waitNanos, Duration waitTime,
			@Nullable Duration leaseTime) {
		this.engine.extensions.requireFixedLeases(keys, leaseTime);
		if (this.variant.hasFastPath() && keys.size() == 1 && goal instanceof AcquireGoal.AllKeys
				&& this.engine.settings.uncontendedFastPath()) {
			return new UncontendedAttempt(this.engine, this.variant, entry(keys.get(0)), name, waitNanos, waitTime,
					leaseTime);
		}
		List<LockEntry> entries = keys.stream().map(this::entry).toList();
		return new Acquisition(this.engine, this.variant, goal, entries, name, waitNanos, waitTime, leaseTime);
	}

	/**
	 * Return the local entry of {@code key}: the shared one, reserved, for a variant that
	 * takes a local turn, else one of the caller's own, its turn taken.
	 */
	private LockEntry entry(String key) {
		return this.variant.takesTurn() ? this.engine.reserve(key) : LockEntry.unshared(key, this.variant.ownership());
	}

	List<LockHold> holds(List<Lease> leases) {
		List<LockHold> holds = new ArrayList<>(leases.size());
		leases.forEach((lease) -> holds.add(new CallHold(this, lease)));
		return holds;
	}

	private void abandon(List<Lease> leases) {
		leases.forEach(this.engine::abandon);
	}

	String kind() {
		return this.kind;
	}

	// Arguments

	static boolean isBusy(Throwable failure) {
		return failure.getClass() == LockAcquisitionException.class && failure.getCause() == null;
	}

	static String requireName(String name) {
		Assert.isTrue(StringUtils.hasText(name),
				() -> "Lock name must not be null or blank, but was '" + LogSafe.escape(name) + "'");
		return name;
	}

	String requireKey(String key) {
		return LockKeyRules.requireKey(key, this.engine.settings.maxKeyLength());
	}

	List<String> sortedKeys(Collection<String> keys) {
		return LockKeyRules.requireKeys(keys, this.engine.settings.maxKeyLength(), this.engine.settings.maxKeys());
	}

	static long waitNanos(String key, Duration waitTime) {
		Assert.notNull(waitTime, "'waitTime' must not be null");
		Assert.isTrue(!waitTime.isNegative(), () -> "'waitTime' must not be negative, but was " + waitTime
				+ " for lock '" + LogSafe.escape(key) + "'");
		return (waitTime.compareTo(Duration.ofNanos(FOREVER)) >= 0) ? FOREVER : waitTime.toNanos();
	}

	static long waitNanos(long time, TimeUnit unit) {
		Assert.notNull(unit, "'unit' must not be null");
		return Math.min(FOREVER, Math.max(0, unit.toNanos(time)));
	}

	static long forever() {
		return FOREVER;
	}

	static void validateLease(String key, @Nullable Duration leaseTime) {
		Assert.isTrue(leaseTime == null || leaseTime.toMillis() > 0, () -> "'leaseTime' must be at least 1 ms, but was "
				+ leaseTime + " for lock '" + LogSafe.escape(key) + "'");
	}

}
