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

import dev.distlock.LossReason;
import dev.distlock.store.LockStore;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.LockBackendException;
import dev.distlock.LockLostException;
import dev.distlock.store.HeldLockOperations;
import dev.distlock.store.ReadLockExtension;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The {@link LockClient} for any {@link LockStore}: everything about locking that does
 * not depend on the backend.
 * <ul>
 * <li>Every acquisition, blocking or not, of any kind of lock and any number of keys,
 * runs through one non-blocking pipeline ({@link Acquisition}): attempt, then granted, or
 * waiting for a release notification or a timed re-check on the client's one timer, or
 * given up. No thread waits on behalf of an asynchronous caller; the blocking API blocks
 * only its own calling thread, interruptibly.</li>
 * <li>Callers of one client queue locally per key, first come first served, so only the
 * caller at the head talks to the store for that key, and re-entry of a thread-bound
 * {@link LockHandle} never does. When a hold's lease ends (a fixed lease ran out, or the
 * lock was found lost), the local turn passes on, as the store passes the key on to other
 * clients.</li>
 * <li>Cancelling an asynchronous acquisition, or interrupting a blocking one, at any
 * instant leaves no lock behind: a grant that arrives after the caller gave up is
 * released at once, and a failed request is followed by an owner-checked release of its
 * token.</li>
 * <li>One watchdog renews every lock held without a fixed lease.</li>
 * <li>Releases and ownership checks work on an interrupted thread and leave its flag as
 * it was.</li>
 * </ul>
 * Closing the client closes its store.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class DefaultLockClient extends LockClientFacade implements LockOperator {

	private static final Log logger = LogFactory.getLog(DefaultLockClient.class);

	private final LockEngine engine;

	private final Locks locks;

	/** The acquisitions of one of several keys. */
	private final Locks segmentLocks;

	private final ThreadLocks threadLocks;

	private final ReadLocks readLocks;

	private final OperatorView operatorView;

	private final FairLocks fairLocks;

	/**
	 * Create a client with {@link LockClientSettings#defaults() default settings}.
	 * @param store the store to lock in; closed with the client
	 */
	public DefaultLockClient(LockStore store) {
		this(store, LockClientSettings.defaults());
	}

	/**
	 * Create a client.
	 * @param store the store to lock in; closed with the client
	 * @param settings the client settings
	 */
	public DefaultLockClient(LockStore store, LockClientSettings settings) {
		this(store, settings, LockClientListener.NONE);
	}

	/**
	 * Create a client that reports what it does to a listener, for metrics and tracing.
	 * @param store the store to lock in; closed with the client
	 * @param settings the client settings
	 * @param listener told of every acquisition, hold, loss and renewal batch; see
	 * {@link LockClientListener#composite(List)} for several
	 * @since 0.1.0
	 */
	public DefaultLockClient(LockStore store, LockClientSettings settings, LockClientListener listener) {
		Assert.notNull(store, "'store' must not be null");
		Assert.notNull(settings, "'settings' must not be null");
		Assert.notNull(listener, "'listener' must not be null");
		this.engine = new LockEngine(store, settings, listener);
		HoldRelease releases = new HoldRelease(this.engine);
		this.locks = new Locks(this.engine,
				new AcquireVariant.Write(this.engine.extensions, this.engine.writes, this.engine.clientId), releases,
				"LockHandle");
		this.segmentLocks = new Locks(this.engine,
				new AcquireVariant.Write(this.engine.extensions, this.engine.writes, this.engine.clientId), releases,
				"SegmentHold");
		this.threadLocks = new ThreadLocks(this.locks);
		// Without read locks no read grant is ever made (the Read variant refuses first)
		ReadLockExtension readLockExtension = this.engine.extensions.readLocks();
		HeldLockOperations readGrants = (readLockExtension != null) ? readLockExtension.readGrants()
				: this.engine.writes;
		this.readLocks = new ReadLocks(new Locks(this.engine,
				AcquireVariant.Unqueued.read(this.engine.extensions, readGrants), releases, "ReadLockHandle"), this);
		this.readLocks.threadLocks().reenter(this.threadLocks);
		this.threadLocks.refuseUpgradesFrom(this.readLocks.threadLocks());
		this.operatorView = new OperatorView(this.engine);
		this.fairLocks = new FairLocks(new Locks(this.engine, new AcquireVariant.Fair(this.engine.extensions,
				this.engine.writes, this.engine.settings.fairGrantTimeout()), releases, "LockHandle"), this);
		this.fairLocks.threadLocks().refuseUpgradesFrom(this.readLocks.threadLocks());
	}

	/**
	 * Return the view of this client whose locks are fair: its callers, in every client
	 * on the store, get a lock in the order they started waiting for it, each thread or
	 * call with its own place in the store's queue (no local queue ahead of it), and a
	 * release grants the lock to the next live waiter directly and wakes only that one.
	 * The view is no second client: its locks are this client's (held, renewed, counted,
	 * reported to its listener and released at its close as its other locks are), and
	 * closing the view closes this client. Its locks and this client's non-fair locks on
	 * the same key are one lock in the store. Several keys are taken one by one in key
	 * order, each fairly.
	 * @return the fair view; the fair view returns itself
	 * @throws UnsupportedOperationException when a lock is taken, if the store has no
	 * fair locks
	 */
	@Override
	public LockClient fair() {
		return this.fairLocks;
	}

	/**
	 * Return the id that makes this client's owner tokens unique.
	 * @return the client id
	 */
	public String clientId() {
		return this.engine.clientId;
	}

	/**
	 * Return the settings of this client.
	 * @return the settings
	 */
	public LockClientSettings settings() {
		return this.engine.settings;
	}

	/**
	 * Return how many leases the watchdog is renewing.
	 * @return the number of held watchdog-mode locks
	 */
	public int renewedLeaseCount() {
		return this.engine.watchdog.watchedCount();
	}

	/**
	 * Return how many callers of this client (and of its fair and read views) wait for
	 * {@code key}: queued locally, or waiting in the store.
	 * @param key the lock key
	 * @return the number of waiting callers
	 */
	public int waitingCount(String key) {
		return this.engine.waitingCount(key);
	}

	/**
	 * Return how many acquisitions of this client (and of its views) are under way:
	 * waiting for a local turn, a store reply or a release. Each holds no thread.
	 * @return the number of acquisitions under way
	 */
	public int acquiringCount() {
		return this.engine.activeCount();
	}

	/**
	 * Return how many tasks this client's timer holds (package-private, for tests).
	 * @return the number of scheduled tasks
	 */
	int scheduledCount() {
		return this.engine.scheduledCount();
	}

	/**
	 * Return the locks this client holds now, oldest first, as seen locally (no store
	 * round trip). For operators: names, keys, fencing tokens and how long each lease has
	 * left.
	 * @return a snapshot of the held locks
	 */
	public List<HeldLock> heldLocks() {
		return this.operatorView.heldLocks();
	}

	/**
	 * Return how many locks this client holds now.
	 * @return the number of held locks
	 */
	public int heldCount() {
		return this.engine.held.size();
	}

	/**
	 * Return the state of the lease watchdog: whether the last renewal of a held lease
	 * failed, and the last batch and failure.
	 * @return the watchdog status
	 */
	public WatchdogStatus watchdogStatus() {
		return this.engine.watchdog.status();
	}

	/**
	 * Return the state of the lock on {@code key} in the store (held or free, time to
	 * live, holder) and whether this client holds it.
	 * @param key the lock key
	 * @return the key's state
	 * @throws LockBackendException if the store failed
	 * @throws UnsupportedOperationException if the store cannot inspect keys
	 */
	public LockState inspect(String key) {
		return this.operatorView.inspect(this.locks.requireKey(key));
	}

	/**
	 * Delete the lock on {@code key} in the store whoever holds it, and wake its waiters:
	 * for operators clearing a stuck lock. The holder may still be working, so another
	 * caller can now take the lock while it does. If this client is the holder, its hold
	 * is marked lost ({@link LossReason#FORCED}): it is no longer renewed, its holder
	 * gets a {@link LockLostException} at the next ownership check or at its release, and
	 * the next caller of this client queued for the key gets its turn.
	 * @param key the lock key
	 * @return what was released
	 * @throws LockBackendException if the store failed
	 * @throws UnsupportedOperationException if the store cannot force a release
	 */
	public ForcedRelease forceRelease(String key) {
		return this.operatorView.forceRelease(this.locks.requireKey(key));
	}

	/**
	 * Return how many callers of this client wait in the store.
	 * @return the number of callers waiting for a release notification
	 */
	int storeWaiterCount() {
		return this.engine.storeWaiterCount();
	}

	/**
	 * Return the read locks of this client: the same methods, whose locks are shared read
	 * locks on the key, excluded by this client's own (write) locks on that key and by
	 * those of every other client of the store. A thread holding the write lock of a key
	 * may take its read lock (it re-enters the write lock); a thread holding the read
	 * lock of a key through a handle is refused its write lock with
	 * {@link IllegalStateException}. Read grants carry fencing token {@code 0}.
	 * @return the read-lock view of this client
	 * @throws UnsupportedOperationException (from its acquisitions) if the store has no
	 * read locks
	 */
	@Override
	public LockClient readLocks() {
		return this.readLocks;
	}

	@Override
	Locks locks() {
		return this.locks;
	}

	@Override
	ThreadLocks threadLocks() {
		return this.threadLocks;
	}

	@Override
	List<String> validate(String name, Collection<String> keys, Duration waitTime, @Nullable Duration leaseTime) {
		return validateCommon(name, keys, waitTime, leaseTime);
	}

	/**
	 * Return the acquisitions of one of several keys: the write locks', without a local
	 * turn.
	 */
	@Override
	Locks segmentLocks(List<String> keys) {
		return this.segmentLocks;
	}

	/**
	 * A thread holding the read lock of a key through a handle is refused its write lock.
	 */
	@Override
	void beforeBlocking(List<String> keys) {
		keys.forEach(this.threadLocks::refuseUpgrade);
	}

	/**
	 * Stop renewing, stop every acquisition under way, release every held lock, wait for
	 * the acquisitions whose requests are in flight to end (a grant their replies bring
	 * is released) and for the releases pending in the background (those sent again after
	 * a store failure included), then close the store; all within the
	 * {@link LockClientSettings#closeTimeout() close timeout}, after which the store is
	 * closed anyway and locks not released by then expire when their lease ends. Holders
	 * learn of the release as a {@link LockLostException} when they release.
	 */
	@Override
	public void close() {
		if (!this.engine.close()) {
			return;
		}
		long deadline = System.nanoTime() + this.engine.settings.closeTimeout().toNanos();
		releaseHeldOnClose();
		AtomicBoolean storeClosing = new AtomicBoolean();
		CompletableFuture<Void> closed = this.engine.pendingWorkEnded()
			// Acquisitions that ended since may have left grants with their callers
			.thenCompose((ended) -> releaseHeldOnClose())
			.thenCompose((released) -> this.engine.pendingWorkEnded())
			// Closing a store may block (a subscription to a server that is gone): not on
			// this thread, which gives up after the close timeout
			.thenRunAsync(() -> closeStore(storeClosing), this::inNewThread);
		try {
			closed.get(Math.max(0, deadline - System.nanoTime()) + 1_000_000, TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			logger.warn("Closing LockClient " + this.engine.clientId
					+ " timed out; remaining locks expire with their lease");
			inNewThread(() -> closeStore(storeClosing));
		}
		this.engine.shutdownThreads();
	}

	private CompletableFuture<Void> releaseHeldOnClose() {
		CompletableFuture<?>[] releases = List.copyOf(this.engine.held)
			.stream()
			.map(this::releaseOnClose)
			.toArray(CompletableFuture[]::new);
		return CompletableFuture.allOf(releases).handle((released, failure) -> null);
	}

	private void closeStore(AtomicBoolean closing) {
		if (closing.compareAndSet(false, true)) {
			this.engine.store.close();
		}
	}

	private void inNewThread(Runnable task) {
		Thread thread = new Thread(task, "distlock-close-" + this.engine.clientId);
		thread.setDaemon(true);
		thread.start();
	}

	private CompletableFuture<?> releaseOnClose(Lease lease) {
		if (!this.engine.forget(lease)) {
			return CompletableFuture.completedFuture(null);
		}
		lease.reportLost(LossReason.CLOSED, HoldRelease.CLOSED);
		return this.engine.releaseInBackground(lease.entry, lease.token)
			.toCompletableFuture()
			.whenComplete((released, failure) -> lease.tracking.released(null));
	}

}
