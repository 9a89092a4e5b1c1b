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

import dev.distlock.store.SeveralKeysExtension;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.IntPredicate;

import dev.distlock.LockAcquisitionException;
import dev.distlock.LockBackendException;
import dev.distlock.NoSegmentAvailableException;
import org.jspecify.annotations.Nullable;

/**
 * Entry point of the lock engine. Locks come in two forms:
 * <ul>
 * <li>{@link LockHandle lock handles} ({@link #obtain(String)}): a reentrant
 * {@link java.util.concurrent.locks.Lock} owned by the thread that locked it;</li>
 * <li>{@link LockHold holds} ({@link #acquire}, {@link #acquireAsync}): one acquisition
 * owned by a call, releasable from any thread, for work that continues elsewhere.</li>
 * </ul>
 * Both share one local queue per key, so threads and calls of one client take turns
 * before any of them talks to the backend. <pre class="code">
 * lockClient.execute("order:" + userId, Duration.ofSeconds(2), (lock) -&gt; {
 *     return orders.place(userId, lock.fencingToken());
 * });
 * </pre>
 *
 * @author distlock
 * @since 0.1.0
 * @see DefaultLockClient
 */
public interface LockClient extends AutoCloseable {

	/**
	 * The name of locks acquired without one, in metrics and traces.
	 * @since 0.1.0
	 */
	String UNNAMED = "unnamed";

	/**
	 * Return a handle for the given key. Obtaining a handle does not talk to the store.
	 * @param key the lock key, not blank
	 * @return the lock handle
	 * @throws IllegalArgumentException if the key is blank
	 */
	LockHandle obtain(String key);

	/**
	 * Acquire the lock on {@code key} for the calling code, blocking the calling thread
	 * for at most {@code waitTime} (plus the backend's command timeout).
	 * @param key the lock key, not blank
	 * @param waitTime how long to wait; {@link Duration#ZERO} for a single attempt
	 * @param leaseTime a fixed lease, or {@code null} for the renewed watchdog lease
	 * @return the hold; release it when done
	 * @throws LockAcquisitionException if the lock stayed busy for the whole wait time
	 * @throws LockBackendException if the backend failed; nothing is left locked
	 * @throws InterruptedException if interrupted while waiting; nothing is left locked
	 * @throws IllegalStateException if the client is closed
	 */
	LockHold acquire(String key, Duration waitTime, @Nullable Duration leaseTime) throws InterruptedException;

	/**
	 * Acquire the lock on {@code key} without blocking the calling thread. The stage
	 * completes on a thread of the client, never the caller's: with the hold, or
	 * exceptionally with {@link LockAcquisitionException} (busy for the whole wait time),
	 * {@link LockBackendException} or {@link IllegalStateException} (closed). Cancelling
	 * its {@link CompletionStage#toCompletableFuture() future}, or completing it
	 * exceptionally (as {@code orTimeout} does), gives up the wait; a lock taken after
	 * that is released at once.
	 * @param key the lock key, not blank
	 * @param waitTime how long to wait; {@link Duration#ZERO} for a single attempt
	 * @param leaseTime a fixed lease, or {@code null} for the renewed watchdog lease
	 * @return the pending hold
	 */
	CompletionStage<LockHold> acquireAsync(String key, Duration waitTime, @Nullable Duration leaseTime);

	/**
	 * Return a handle for the given key whose acquisitions carry {@code name} in metrics
	 * and traces. Handles of one key share their state whatever their name; the name of
	 * the acquisition that took the lock is the one reported while it is held.
	 * Implementations that do not report names ignore it.
	 * @param name a low-cardinality name for the lock, such as
	 * {@code "OrderService.placeOrder"}: never the key or anything else with many values
	 * @param key the lock key, not blank
	 * @return the lock handle
	 * @since 0.1.0
	 */
	default LockHandle obtain(String name, String key) {
		return obtain(key);
	}

	/**
	 * As {@link #acquire(String, Duration, Duration)}, with a name for metrics and
	 * traces. Implementations that do not report names ignore it.
	 * @param name a low-cardinality name for the lock, such as
	 * {@code "OrderService.placeOrder"}: never the key or anything else with many values
	 * @param key the lock key, not blank
	 * @param waitTime how long to wait; {@link Duration#ZERO} for a single attempt
	 * @param leaseTime a fixed lease, or {@code null} for the renewed watchdog lease
	 * @return the hold; release it when done
	 * @throws InterruptedException if interrupted while waiting; nothing is left locked
	 * @since 0.1.0
	 */
	default LockHold acquire(String name, String key, Duration waitTime, @Nullable Duration leaseTime)
			throws InterruptedException {
		return acquire(key, waitTime, leaseTime);
	}

	/**
	 * As {@link #acquireAsync(String, Duration, Duration)}, with a name for metrics and
	 * traces. Implementations that do not report names ignore it.
	 * @param name a low-cardinality name for the lock, such as
	 * {@code "OrderService.placeOrder"}: never the key or anything else with many values
	 * @param key the lock key, not blank
	 * @param waitTime how long to wait; {@link Duration#ZERO} for a single attempt
	 * @param leaseTime a fixed lease, or {@code null} for the renewed watchdog lease
	 * @return the pending hold
	 * @since 0.1.0
	 */
	default CompletionStage<LockHold> acquireAsync(String name, String key, Duration waitTime,
			@Nullable Duration leaseTime) {
		return acquireAsync(key, waitTime, leaseTime);
	}

	/**
	 * Acquire the locks on every key, all or nothing, blocking the calling thread for at
	 * most {@code waitTime}. Duplicates count once, and keys are locked in their natural
	 * order, so callers with overlapping sets cannot deadlock; where the store can (a
	 * {@link SeveralKeysExtension}) all of them are taken in one atomic step.
	 * @param keys the lock keys, not empty, none blank
	 * @param waitTime how long to wait for all of them
	 * @param leaseTime a fixed lease, or {@code null} for the renewed watchdog lease
	 * @return one hold per distinct key, in key order; release every one when done
	 * @throws LockAcquisitionException if a lock stayed busy for the whole wait time;
	 * none is then held
	 * @throws LockBackendException if the backend failed; none is then held
	 * @throws InterruptedException if interrupted while waiting; none is then held
	 */
	List<LockHold> acquireAll(Collection<String> keys, Duration waitTime, @Nullable Duration leaseTime)
			throws InterruptedException;

	/**
	 * Acquire the locks on every key as {@link #acquireAll} does, without blocking the
	 * calling thread: a thread of the client waits instead, and the stage completes
	 * there.
	 * @param keys the lock keys, not empty, none blank
	 * @param waitTime how long to wait for all of them
	 * @param leaseTime a fixed lease, or {@code null} for the renewed watchdog lease
	 * @return the pending holds
	 */
	CompletionStage<List<LockHold>> acquireAllAsync(Collection<String> keys, Duration waitTime,
			@Nullable Duration leaseTime);

	/**
	 * As {@link #acquireAll(Collection, Duration, Duration)}, with a name for metrics and
	 * traces. Implementations that do not report names ignore it.
	 * @param name a low-cardinality name for the locks
	 * @param keys the lock keys, not empty, none blank
	 * @param waitTime how long to wait for all of them
	 * @param leaseTime a fixed lease, or {@code null} for the renewed watchdog lease
	 * @return one hold per distinct key, in key order
	 * @throws InterruptedException if interrupted while waiting; none is then held
	 * @since 0.1.0
	 */
	default List<LockHold> acquireAll(String name, Collection<String> keys, Duration waitTime,
			@Nullable Duration leaseTime) throws InterruptedException {
		return acquireAll(keys, waitTime, leaseTime);
	}

	/**
	 * As {@link #acquireAllAsync(Collection, Duration, Duration)}, with a name for
	 * metrics and traces. Implementations that do not report names ignore it.
	 * @param name a low-cardinality name for the locks
	 * @param keys the lock keys, not empty, none blank
	 * @param waitTime how long to wait for all of them
	 * @param leaseTime a fixed lease, or {@code null} for the renewed watchdog lease
	 * @return the pending holds
	 * @since 0.1.0
	 */
	default CompletionStage<List<LockHold>> acquireAllAsync(String name, Collection<String> keys, Duration waitTime,
			@Nullable Duration leaseTime) {
		return acquireAllAsync(keys, waitTime, leaseTime);
	}

	/**
	 * Acquire the lock on exactly one of {@code keys} (the segments of one item),
	 * blocking the calling thread for at most {@code waitTime}: the keys are asked for
	 * from a random start, the first free one is taken without waiting, and only when
	 * every key is busy does the caller wait, for the first release among them. Reported
	 * to listeners as one acquisition. <pre class="code">
	 * try (SegmentHold hold = lockClient.acquireAny("stock", keys, Duration.ofSeconds(2), null)) {
	 *     stock.decrement(voucherId, hold.segment());
	 * }
	 * </pre>
	 * @param name a low-cardinality name for the lock
	 * @param keys the segment keys, not empty, distinct, none blank; a hold's
	 * {@link SegmentHold#segment() segment} is an index in this list
	 * @param waitTime how long to wait when every key is busy; {@link Duration#ZERO} for
	 * one attempt of each
	 * @param leaseTime a fixed lease, or {@code null} for the renewed watchdog lease
	 * @return the hold on one key; release it when done
	 * @throws LockAcquisitionException if every key stayed busy for the whole wait time
	 * @throws LockBackendException if the backend failed; nothing is left locked
	 * @throws InterruptedException if interrupted while waiting; nothing is left locked
	 * @throws UnsupportedOperationException for fair and read locks, which have no
	 * segments
	 * @since 0.1.0
	 */
	default SegmentHold acquireAny(String name, List<String> keys, Duration waitTime, @Nullable Duration leaseTime)
			throws InterruptedException {
		return acquireAny(name, keys, (segment) -> true, waitTime, leaseTime);
	}

	/**
	 * As {@link #acquireAny(String, List, Duration, Duration)}, asking only for the keys
	 * whose index {@code filter} accepts, such as the segments that still have stock. The
	 * filter runs on the calling thread, once per key, before any key is asked for.
	 * @param name a low-cardinality name for the lock
	 * @param keys the segment keys, not empty, distinct, none blank
	 * @param filter whether the key at an index may serve this call
	 * @param waitTime how long to wait when every accepted key is busy
	 * @param leaseTime a fixed lease, or {@code null} for the renewed watchdog lease
	 * @return the hold on one accepted key; release it when done
	 * @throws NoSegmentAvailableException if the filter rejected every key; no lock was
	 * asked for
	 * @throws LockAcquisitionException if every accepted key stayed busy for the whole
	 * wait time
	 * @throws InterruptedException if interrupted while waiting; nothing is left locked
	 * @since 0.1.0
	 */
	default SegmentHold acquireAny(String name, List<String> keys, IntPredicate filter, Duration waitTime,
			@Nullable Duration leaseTime) throws InterruptedException {
		throw new UnsupportedOperationException(getClass().getName() + " cannot take one of several keys");
	}

	/**
	 * As {@link #acquireAny(String, List, Duration, Duration)}, without blocking the
	 * calling thread. The stage completes on a thread of the client; cancelling its
	 * future, or completing it exceptionally, at any instant gives up the acquisition,
	 * and a lock taken after that is released at once.
	 * @param name a low-cardinality name for the lock
	 * @param keys the segment keys, not empty, distinct, none blank
	 * @param waitTime how long to wait when every key is busy
	 * @param leaseTime a fixed lease, or {@code null} for the renewed watchdog lease
	 * @return the pending hold
	 * @since 0.1.0
	 */
	default CompletionStage<SegmentHold> acquireAnyAsync(String name, List<String> keys, Duration waitTime,
			@Nullable Duration leaseTime) {
		return acquireAnyAsync(name, keys, (segment) -> true, Runnable::run, waitTime, leaseTime);
	}

	/**
	 * As {@link #acquireAny(String, List, IntPredicate, Duration, Duration)}, without
	 * blocking the calling thread: the filter runs on {@code filterExecutor} (pass
	 * {@code Runnable::run} for the calling thread), never on a thread of the client, and
	 * the stage fails with {@link NoSegmentAvailableException} if it rejects every key.
	 * @param name a low-cardinality name for the lock
	 * @param keys the segment keys, not empty, distinct, none blank
	 * @param filter whether the key at an index may serve this call
	 * @param filterExecutor where the filter runs
	 * @param waitTime how long to wait when every accepted key is busy
	 * @param leaseTime a fixed lease, or {@code null} for the renewed watchdog lease
	 * @return the pending hold
	 * @since 0.1.0
	 */
	default CompletionStage<SegmentHold> acquireAnyAsync(String name, List<String> keys, IntPredicate filter,
			Executor filterExecutor, Duration waitTime, @Nullable Duration leaseTime) {
		throw new UnsupportedOperationException(getClass().getName() + " cannot take one of several keys");
	}

	/**
	 * Return the read locks of this client: a view with the same methods whose locks are
	 * shared read locks on the key (many readers at once), while this client's own locks
	 * are the write locks (one writer, no readers). A writer waiting for readers keeps
	 * new readers out, so a stream of readers cannot starve it. <pre class="code">
	 * try (LockHold hold = lockClient.readLocks().acquire("prices", Duration.ofSeconds(2), null)) {
	 *     return prices.current();
	 * }
	 * </pre>
	 * @return the read-lock view
	 * @throws UnsupportedOperationException if this client has no read locks
	 * @since 0.1.0
	 */
	default LockClient readLocks() {
		throw new UnsupportedOperationException(getClass().getName() + " has no read locks");
	}

	/**
	 * Acquire the lock on {@code key} with the watchdog lease, run {@code callback} and
	 * release the lock, whatever the callback does.
	 * @param <T> the result type
	 * @param <E> the exception type of the callback
	 * @param key the lock key
	 * @param waitTime how long to wait for the lock
	 * @param callback the code to run under the lock
	 * @return the callback's result
	 * @throws E what the callback throws
	 * @throws LockAcquisitionException if the lock was not acquired in time; the callback
	 * did not run
	 */
	default <T, E extends Throwable> T execute(String key, Duration waitTime, LockedCallback<T, E> callback) throws E {
		return execute(key, waitTime, null, callback);
	}

	/**
	 * Acquire the lock on {@code key}, run {@code callback} and release the lock,
	 * whatever the callback does. If the callback completes but the lock turns out to
	 * have been lost, {@link dev.distlock.LockLostException} is thrown.
	 * @param <T> the result type
	 * @param <E> the exception type of the callback
	 * @param key the lock key
	 * @param waitTime how long to wait for the lock
	 * @param leaseTime a fixed lease, or {@code null} for the renewed watchdog lease
	 * @param callback the code to run under the lock
	 * @return the callback's result
	 * @throws E what the callback throws
	 * @throws LockAcquisitionException if the lock was not acquired in time; the callback
	 * did not run
	 */
	default <T, E extends Throwable> T execute(String key, Duration waitTime, @Nullable Duration leaseTime,
			LockedCallback<T, E> callback) throws E {
		LockHandle lock = obtain(key);
		acquireOrThrow(lock, waitTime, leaseTime);
		T result;
		try {
			result = callback.doWithLock(lock);
		}
		catch (Throwable ex) {
			unlockAfterFailure(lock, ex);
			throw ex;
		}
		lock.unlock();
		return result;
	}

	/**
	 * Return the view of this client whose locks are fair: across every client of the
	 * store, callers get a lock in the order they started waiting for it, and a release
	 * hands the lock to the next waiter directly. The view has the same methods, shares
	 * this client's lifetime, and its locks exclude this client's non-fair locks on the
	 * same key. Example: {@code client.fair().acquire("orders", Duration.ofSeconds(5),
	 * null)}.
	 * @return the fair view
	 * @throws UnsupportedOperationException if this client has no fair locks
	 * @since 0.1.0
	 */
	default LockClient fair() {
		throw new UnsupportedOperationException(getClass().getName() + " has no fair locks");
	}

	/**
	 * Stop renewing leases and release every lock this client holds, within a bounded
	 * time. Further acquisitions fail with {@link IllegalStateException}.
	 */
	@Override
	void close();

	private static void acquireOrThrow(LockHandle lock, Duration waitTime, @Nullable Duration leaseTime) {
		try {
			lock.acquire(waitTime, leaseTime);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException(lock.key(), waitTime, ex);
		}
	}

	private static void unlockAfterFailure(LockHandle lock, Throwable failure) {
		try {
			lock.unlock();
		}
		catch (RuntimeException ex) {
			failure.addSuppressed(ex);
		}
	}

}
