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

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

import dev.distlock.LockAcquisitionException;
import dev.distlock.LockBackendException;
import dev.distlock.LockLostException;
import dev.distlock.core.DefaultLockClient.Acquisition;
import dev.distlock.core.LockStore.Attempt;
import dev.distlock.core.LockStore.Subscription;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * The read locks of a {@link DefaultLockClient} ({@link DefaultLockClient#readLocks()}):
 * the same {@link LockClient} methods, whose locks are shared read locks on the key,
 * while the client's own locks are the write locks.
 * <ul>
 * <li>Readers do not queue locally: each asks the store
 * ({@link LockStore#tryAcquireRead}), so readers of one client overlap as readers of
 * different clients do. A reader refused by the store waits for its release notifications
 * as a writer does.</li>
 * <li>Read leases are renewed by the client's one watchdog, reported to its listener,
 * released at close, and found lost like write leases. Read grants carry fencing token
 * {@code 0}.</li>
 * <li>Thread-bound read handles are reentrant; a thread holding the write lock of a key
 * that takes its read lock re-enters the write lock instead (it stays exclusive until
 * both are released); a thread holding a read handle cannot take the write lock of that
 * key (see {@link #refuseUpgrade(String)}).</li>
 * </ul>
 * Each read acquisition has a {@link LockEntry} of its own, never shared, so the client's
 * release path ({@link DefaultLockClient#end}) passes a turn nobody else waits for.
 *
 * @author distlock
 * @since 0.2.0
 */
final class ReadLocks implements LockClient, ThreadLocks {

	private static final Log logger = LogFactory.getLog(ReadLocks.class);

	private final DefaultLockClient client;

	private final LockStore store;

	private final LockClientSettings settings;

	private final LeaseWatchdog watchdog;

	private final Set<Lease> held;

	private final LockClientListener listener;

	private final Set<LockEntry> waiting = ConcurrentHashMap.newKeySet();

	private final ThreadLocal<@Nullable Map<String, ThreadRead>> threadReads = new ThreadLocal<>();

	ReadLocks(DefaultLockClient client, LockStore store, LockClientSettings settings, LeaseWatchdog watchdog,
			Set<Lease> held, LockClientListener listener) {
		this.client = client;
		this.store = store;
		this.settings = settings;
		this.watchdog = watchdog;
		this.held = held;
		this.listener = listener;
	}

	@Override
	public LockHandle obtain(String key) {
		return new ThreadLockHandle(this, requireKey(key), UNNAMED, "ReadLockHandle");
	}

	@Override
	public LockHandle obtain(String name, String key) {
		return new ThreadLockHandle(this, requireKey(key), requireName(name), "ReadLockHandle");
	}

	@Override
	public LockHold acquire(String key, Duration waitTime, @Nullable Duration leaseTime) throws InterruptedException {
		return acquire(UNNAMED, key, waitTime, leaseTime);
	}

	@Override
	public LockHold acquire(String name, String key, Duration waitTime, @Nullable Duration leaseTime)
			throws InterruptedException {
		requireName(name);
		long waitNanos = DefaultLockClient.waitNanos(requireKey(key), waitTime);
		DefaultLockClient.validateLease(key, leaseTime);
		Acquisition acquisition = new Acquisition(name);
		Lease lease = acquireRead(readerEntry(key), waitNanos, leaseTime, acquisition);
		if (lease == null) {
			throw LockAcquisitionException.busy(key, waitTime, acquisition.holderLeaseRemaining);
		}
		return new CallHold(this.client, lease);
	}

	@Override
	public CompletionStage<LockHold> acquireAsync(String key, Duration waitTime, @Nullable Duration leaseTime) {
		return acquireAsync(UNNAMED, key, waitTime, leaseTime);
	}

	@Override
	public CompletionStage<LockHold> acquireAsync(String name, String key, Duration waitTime,
			@Nullable Duration leaseTime) {
		requireName(name);
		long waitNanos = DefaultLockClient.waitNanos(requireKey(key), waitTime);
		DefaultLockClient.validateLease(key, leaseTime);
		CompletableFuture<LockHold> result = new CompletableFuture<>();
		Acquisition acquisition = new Acquisition(name);
		LockEntry entry = readerEntry(key);
		result.whenComplete((hold, failure) -> {
			if (result.isCancelled()) {
				acquisition.cancelled = true;
				entry.signal.wake();
			}
		});
		this.client.dispatch(() -> {
			try {
				Lease lease = acquireRead(entry, waitNanos, leaseTime, acquisition);
				if (lease == null) {
					result.completeExceptionally(acquisition.cancelled
							? new CancellationException("Acquisition of read lock '" + key + "' was cancelled")
							: LockAcquisitionException.busy(key, waitTime, acquisition.holderLeaseRemaining));
					return;
				}
				CallHold hold = new CallHold(this.client, lease);
				if (!result.complete(hold)) {
					releaseUnwanted(hold);
				}
			}
			catch (InterruptedException ex) {
				result.completeExceptionally(new LockAcquisitionException(key, waitTime, ex));
			}
			catch (Throwable ex) {
				result.completeExceptionally(ex);
			}
		});
		return result;
	}

	@Override
	public List<LockHold> acquireAll(Collection<String> keys, Duration waitTime, @Nullable Duration leaseTime)
			throws InterruptedException {
		return acquireAll(UNNAMED, keys, waitTime, leaseTime);
	}

	/**
	 * Take the read lock of every key, one by one in key order, within one wait time; all
	 * or nothing.
	 */
	@Override
	public List<LockHold> acquireAll(String name, Collection<String> keys, Duration waitTime,
			@Nullable Duration leaseTime) throws InterruptedException {
		requireName(name);
		List<String> sorted = LockKeyRules.requireKeys(keys, this.settings);
		long deadline = System.nanoTime() + DefaultLockClient.waitNanos(sorted.get(0), waitTime);
		DefaultLockClient.validateLease(sorted.get(0), leaseTime);
		List<LockHold> holds = new ArrayList<>(sorted.size());
		boolean complete = false;
		try {
			for (String key : sorted) {
				Acquisition acquisition = new Acquisition(name);
				Lease lease = acquireRead(readerEntry(key), Math.max(0, deadline - System.nanoTime()), leaseTime,
						acquisition);
				if (lease == null) {
					throw LockAcquisitionException.busy(key, waitTime, acquisition.holderLeaseRemaining);
				}
				holds.add(new CallHold(this.client, lease));
			}
			complete = true;
			return holds;
		}
		finally {
			if (!complete) {
				holds.forEach(ReadLocks::releaseUnwanted);
			}
		}
	}

	@Override
	public CompletionStage<List<LockHold>> acquireAllAsync(Collection<String> keys, Duration waitTime,
			@Nullable Duration leaseTime) {
		return acquireAllAsync(UNNAMED, keys, waitTime, leaseTime);
	}

	@Override
	public CompletionStage<List<LockHold>> acquireAllAsync(String name, Collection<String> keys, Duration waitTime,
			@Nullable Duration leaseTime) {
		requireName(name);
		LockKeyRules.requireKeys(keys, this.settings);
		CompletableFuture<List<LockHold>> result = new CompletableFuture<>();
		this.client.dispatch(() -> {
			try {
				List<LockHold> holds = acquireAll(name, keys, waitTime, leaseTime);
				if (!result.complete(holds)) {
					holds.forEach(ReadLocks::releaseUnwanted);
				}
			}
			catch (InterruptedException ex) {
				result.completeExceptionally(new LockAcquisitionException(String.valueOf(keys), waitTime, ex));
			}
			catch (Throwable ex) {
				result.completeExceptionally(ex);
			}
		});
		return result;
	}

	/**
	 * Return this view: its locks are already the read locks.
	 * @return this
	 */
	@Override
	public LockClient readLocks() {
		return this;
	}

	/**
	 * Close the client this view belongs to.
	 */
	@Override
	public void close() {
		this.client.close();
	}

	// Thread-bound read locks (ThreadLocks)

	@Override
	public boolean lockForThread(String key, long waitNanos, @Nullable Duration leaseTime, Acquisition acquisition)
			throws InterruptedException {
		this.client.ensureOpen();
		ThreadRead current = threadRead(key);
		if (current != null) {
			String loss = current.lease.lossReason();
			if (loss != null) {
				current.lease.reportLost(LossReason.TAKEN, loss);
				throw new LockLostException(key, loss);
			}
			current.count++;
			return true;
		}
		if (this.client.holdCount(key) > 0) {
			return this.client.lockForThread(key, waitNanos, leaseTime, acquisition);
		}
		Lease lease = acquireRead(readerEntry(key), waitNanos, leaseTime, acquisition);
		if (lease == null) {
			return false;
		}
		Map<String, ThreadRead> reads = this.threadReads.get();
		if (reads == null) {
			reads = new HashMap<>();
			this.threadReads.set(reads);
		}
		reads.put(key, new ThreadRead(lease));
		return true;
	}

	@Override
	public void unlockForThread(String key, @Nullable Duration holdAtLeast) {
		ThreadRead current = threadRead(key);
		if (current == null) {
			this.client.unlockForThread(key, holdAtLeast);
			return;
		}
		if (--current.count > 0) {
			return;
		}
		Map<String, ThreadRead> reads = this.threadReads.get();
		if (reads != null) {
			reads.remove(key);
			if (reads.isEmpty()) {
				this.threadReads.remove();
			}
		}
		this.client.end(current.lease, holdAtLeast);
	}

	@Override
	public boolean isHeldByCurrentThread(String key) {
		ThreadRead current = threadRead(key);
		if (current == null) {
			return this.client.isHeldByCurrentThread(key);
		}
		return current.lease.lossReason() == null;
	}

	@Override
	public int holdCount(String key) {
		ThreadRead current = threadRead(key);
		return (current != null) ? current.count : this.client.holdCount(key);
	}

	@Override
	public Lease heldLease(String key) {
		ThreadRead current = threadRead(key);
		return (current != null) ? current.lease : this.client.heldLease(key);
	}

	@Override
	public void confirmOwnership(Lease lease) {
		this.client.confirmOwnership(lease);
	}

	/**
	 * Refuse the write lock of {@code key} to a thread holding its read lock through a
	 * handle: it would wait for its own read lock to end (a read lock is not upgraded).
	 * @param key the lock key
	 * @throws IllegalStateException if the current thread holds the read lock of
	 * {@code key}
	 */
	void refuseUpgrade(String key) {
		if (threadRead(key) != null) {
			throw new IllegalStateException("Lock '" + key
					+ "' is read-locked by the current thread; a read lock cannot be upgraded to the write lock"
					+ " (it would wait for itself): release the read lock first, or take the write lock from the start");
		}
	}

	/**
	 * Wake every reader waiting in the store, so that it sees the client closed.
	 */
	void wakeWaiting() {
		this.waiting.forEach((entry) -> entry.signal.wake());
	}

	private @Nullable ThreadRead threadRead(String key) {
		Map<String, ThreadRead> reads = this.threadReads.get();
		return (reads != null) ? reads.get(key) : null;
	}

	// Acquiring in the store

	/**
	 * Return the local state of one read acquisition: an entry of its own, whose turn it
	 * holds, so that {@link DefaultLockClient#end} can pass it as for any lease.
	 */
	private static LockEntry readerEntry(String key) {
		LockEntry entry = new LockEntry(key);
		entry.queue.tryTake();
		return entry;
	}

	private @Nullable Lease acquireRead(LockEntry entry, long waitNanos, @Nullable Duration leaseTime,
			Acquisition acquisition) throws InterruptedException {
		acquisition.tracking = Tracking.start(this.listener, acquisition.name, entry.key);
		long deadline = System.nanoTime() + waitNanos;
		try {
			Lease lease = acquireInStore(entry, deadline, leaseTime, acquisition);
			acquisition.finished(lease, null);
			return lease;
		}
		catch (InterruptedException | RuntimeException | Error ex) {
			acquisition.finished(null, ex);
			throw ex;
		}
	}

	private @Nullable Lease acquireInStore(LockEntry entry, long deadline, @Nullable Duration leaseTime,
			Acquisition acquisition) throws InterruptedException {
		Duration lease = (leaseTime != null) ? leaseTime : this.settings.watchdogLease();
		String token = this.client.newToken();
		Lease granted = attempt(entry, token, lease, leaseTime == null, acquisition);
		if (granted != null || deadline - System.nanoTime() <= 0 || acquisition.cancelled) {
			return granted;
		}
		this.waiting.add(entry);
		try (Subscription subscription = this.store.onRelease(entry.key, entry.signal::wake)) {
			while (true) {
				long seen = entry.signal.count();
				granted = attempt(entry, token, lease, leaseTime == null, acquisition);
				long remaining = deadline - System.nanoTime();
				if (granted != null || remaining <= 0) {
					return granted;
				}
				entry.signal.await(seen,
						Math.min(remaining, DefaultLockClient.recheckNanos(acquisition.holderLeaseRemaining)));
				if (acquisition.cancelled) {
					return null;
				}
			}
		}
		finally {
			this.waiting.remove(entry);
		}
	}

	/**
	 * Ask the store once, as the client does for write locks: a failed request is
	 * followed by an owner-checked release of its token in the background.
	 */
	private @Nullable Lease attempt(LockEntry entry, String token, Duration lease, boolean renewable,
			Acquisition acquisition) throws InterruptedException {
		this.client.ensureOpen();
		long requestedAt = System.nanoTime();
		Attempt attempt;
		try {
			attempt = this.store.tryAcquireRead(entry.key, token, lease);
		}
		catch (LockBackendException ex) {
			this.client.releaseInBackground(entry.key, token);
			if (Thread.interrupted()) {
				InterruptedException interrupted = new InterruptedException(
						"Interrupted while acquiring read lock '" + entry.key + "'");
				interrupted.initCause(ex);
				throw interrupted;
			}
			throw ex;
		}
		if (!attempt.acquired()) {
			acquisition.holderLeaseRemaining = attempt.holderLeaseRemaining();
			return null;
		}
		Lease granted = new Lease(entry, token, attempt.fencingToken(), lease, renewable, requestedAt,
				acquisition.tracking);
		this.held.add(granted);
		if (renewable) {
			this.watchdog.watch(granted);
		}
		if (this.client.isClosed()) {
			this.watchdog.unwatch(granted);
			this.held.remove(granted);
			this.client.releaseInBackground(entry.key, token);
			this.client.ensureOpen();
		}
		return granted;
	}

	private static void releaseUnwanted(LockHold hold) {
		try {
			hold.release();
		}
		catch (RuntimeException ex) {
			logger.debug(
					"Could not release read lock '" + LogSafe.escape(hold.key()) + "' taken after its caller gave up",
					ex);
		}
	}

	private static String requireName(String name) {
		Assert.isTrue(StringUtils.hasText(name), () -> "Lock name must not be null or blank, but was '" + name + "'");
		return name;
	}

	private String requireKey(String key) {
		return LockKeyRules.requireKey(key, this.settings);
	}

	/**
	 * A read lock held by the current thread through a handle, with its re-entries.
	 */
	private static final class ThreadRead {

		final Lease lease;

		int count = 1;

		ThreadRead(Lease lease) {
			this.lease = lease;
		}

	}

}
