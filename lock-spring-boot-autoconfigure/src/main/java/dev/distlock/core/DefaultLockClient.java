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
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.distlock.LockAcquisitionException;
import dev.distlock.LockBackendException;
import dev.distlock.LockLostException;
import dev.distlock.core.LockEntry.CohortGrant;
import dev.distlock.core.LockStore.Attempt;
import dev.distlock.core.LockStore.KeyState;
import dev.distlock.core.LockStore.Subscription;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * The {@link LockClient} for any {@link LockStore}: everything about locking that does
 * not depend on the backend.
 * <ul>
 * <li>Callers of one client queue locally per key, first come first served, so only the
 * caller at the head talks to the store for that key, and re-entry of a thread-bound
 * {@link LockHandle} never does.</li>
 * <li>The caller at the head waits for the store's release notifications, re-checking on
 * its own when the holder's lease should have ended, at least every second, so a missed
 * notification costs at most that.</li>
 * <li>One watchdog renews every lock held without a fixed lease.</li>
 * <li>A failed or timed-out acquire request is followed by an owner-checked release of
 * its token, so a request the store runs late never leaves a lock behind.</li>
 * <li>Releases and ownership checks work on an interrupted thread and leave its flag as
 * it was.</li>
 * </ul>
 * Closing the client closes its store.
 *
 * @author distlock
 * @since 0.2.0
 */
public final class DefaultLockClient implements LockClient {

	private static final Log logger = LogFactory.getLog(DefaultLockClient.class);

	static final String CLOSED = "the LockClient was closed while it was held";

	static final String NOT_OWNER = "the store no longer records this holder as the owner";

	private static final String GONE = "its key expired or has another owner when it was released";

	static final String FORCED = "an operator force-released it";

	private static final long FOREVER = Long.MAX_VALUE / 4;

	private static final long MAX_RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

	private static final long UNKNOWN_TTL_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private static final long MIN_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	/**
	 * How long a client's registration as waiting for a release lasts unless a re-check
	 * refreshes it: several of the longest re-check intervals.
	 */
	private static final Duration WAITER_TTL = Duration.ofSeconds(3);

	/**
	 * The longest a caller waits before it asks the store after a run of cohort hand-offs
	 * ended.
	 */
	private static final long MAX_YIELD_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	/** Marks a store that cannot take a set of keys in one step. */
	private static final List<Lease> ONE_BY_ONE = List.of();

	private final String clientId;

	private final LockStore store;

	private final LockClientSettings settings;

	private final LeaseWatchdog watchdog;

	private final Map<String, LockEntry> entries = new ConcurrentHashMap<>();

	private final Set<Lease> held;

	private final boolean fair;

	private final DefaultLockClient fairView;

	private final DefaultLockClient root;

	private final ThreadPoolExecutor workers;

	private final ScheduledExecutorService timer;

	private final AtomicLong grants;

	private final AtomicInteger storeWaiters;

	private final AtomicBoolean closed;

	private final LockClientListener listener;

	private final ReadLocks readLocks;

	private final ThreadLocks writeLocks = new WriteLocks();

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
	 * @since 0.3.0
	 */
	public DefaultLockClient(LockStore store, LockClientSettings settings, LockClientListener listener) {
		Assert.notNull(store, "'store' must not be null");
		Assert.notNull(settings, "'settings' must not be null");
		Assert.notNull(listener, "'listener' must not be null");
		this.clientId = UUID.randomUUID().toString();
		String name = "distlock-" + this.clientId.substring(0, 8);
		this.held = ConcurrentHashMap.newKeySet();
		this.grants = new AtomicLong();
		this.storeWaiters = new AtomicInteger();
		this.closed = new AtomicBoolean();
		this.fair = false;
		this.root = this;
		this.store = store;
		this.settings = settings;
		this.listener = listener;
		this.watchdog = new LeaseWatchdog(store, settings.watchdogLease(), settings.renewalInterval(),
				settings.renewalBatchSize(), name + "-watchdog", listener);
		this.workers = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(),
				daemonThreads(name + "-worker-"));
		this.timer = Executors.newSingleThreadScheduledExecutor(daemonThreads(name + "-timer-"));
		this.readLocks = new ReadLocks(this, store, settings, this.watchdog, this.held, listener);
		this.fairView = new DefaultLockClient(this);
	}

	/**
	 * Create the {@link #fair() fair view} of {@code client}: everything shared but the
	 * per-key local state.
	 */
	private DefaultLockClient(DefaultLockClient client) {
		this.clientId = client.clientId;
		this.store = client.store;
		this.settings = client.settings;
		this.listener = client.listener;
		this.watchdog = client.watchdog;
		this.held = client.held;
		this.workers = client.workers;
		this.timer = client.timer;
		this.grants = client.grants;
		this.storeWaiters = client.storeWaiters;
		this.closed = client.closed;
		this.readLocks = client.readLocks;
		this.fair = true;
		this.fairView = this;
		this.root = client;
	}

	/**
	 * Return the view of this client whose locks are fair: its callers, in every client
	 * on the store, get a lock in the order they started waiting for it, each thread or
	 * call with its own place in the store's queue (no local queue ahead of it), and a
	 * release grants the lock to the next live waiter directly and wakes only that one.
	 * The view shares this client's store, watchdog, held locks and lifetime (closing
	 * either closes both); its locks and this client's non-fair locks on the same key are
	 * one lock in the store. Several keys are taken one by one in key order, each fairly.
	 * @return the fair view; the fair view returns itself
	 * @throws UnsupportedOperationException when a lock is taken, if the store has no
	 * fair locks
	 * @since 0.2.0
	 */
	@Override
	public DefaultLockClient fair() {
		return this.fairView;
	}

	/**
	 * Return whether the locks of this client (or view) are fair.
	 * @return whether this is the {@link #fair() fair view}
	 * @since 0.2.0
	 */
	public boolean isFair() {
		return this.fair;
	}

	/**
	 * Return the id that makes this client's owner tokens unique.
	 * @return the client id
	 */
	public String clientId() {
		return this.clientId;
	}

	/**
	 * Return the settings of this client.
	 * @return the settings
	 */
	public LockClientSettings settings() {
		return this.settings;
	}

	/**
	 * Return how many leases the watchdog is renewing.
	 * @return the number of held watchdog-mode locks
	 */
	public int renewedLeaseCount() {
		return this.watchdog.watchedCount();
	}

	/**
	 * Return how many callers of this client (and of its {@link #fair() fair view}) wait
	 * for {@code key}: queued locally, or waiting in the store (at the head of the local
	 * queue, or for a fair lock).
	 * @param key the lock key
	 * @return the number of waiting callers
	 */
	public int waitingCount(String key) {
		return waitingIn(this.root.entries, key) + waitingIn(this.root.fairView.entries, key);
	}

	private static int waitingIn(Map<String, LockEntry> entries, String key) {
		LockEntry entry = entries.get(key);
		return (entry != null) ? entry.queue.waitingCount() + entry.storeWaiting.get() : 0;
	}

	/**
	 * Return the locks this client holds now, oldest first, as seen locally (no store
	 * round trip). For operators: names, keys, fencing tokens and how long each lease has
	 * left.
	 * @return a snapshot of the held locks
	 * @since 0.3.0
	 */
	public List<HeldLock> heldLocks() {
		return this.held.stream()
			.filter((lease) -> !lease.isEnded())
			.map(this::snapshot)
			.sorted(Comparator.comparing(HeldLock::acquiredAt))
			.toList();
	}

	/**
	 * Return how many locks this client holds now.
	 * @return the number of held locks
	 * @since 0.3.0
	 */
	public int heldCount() {
		return this.held.size();
	}

	/**
	 * Return the state of the lease watchdog: whether its last renewal round failed, and
	 * the last batch and failure.
	 * @return the watchdog status
	 * @since 0.3.0
	 */
	public WatchdogStatus watchdogStatus() {
		return this.watchdog.status();
	}

	/**
	 * Return the state of the lock on {@code key} in the store (held or free, time to
	 * live, holder) and whether this client holds it.
	 * @param key the lock key
	 * @return the key's state
	 * @throws LockBackendException if the store failed
	 * @throws UnsupportedOperationException if the store cannot inspect keys
	 * @since 0.3.0
	 */
	public LockState inspect(String key) {
		requireKey(key);
		KeyState state = this.store.inspect(key);
		Lease local = heldLease(key, state.ownerToken());
		return new LockState(key, state.held(), state.ttl(), clientIdOf(state.ownerToken()), local != null,
				state.lastFencingToken(), (local != null) ? snapshot(local) : null);
	}

	/**
	 * Delete the lock on {@code key} in the store whoever holds it, and wake its waiters:
	 * for operators clearing a stuck lock. The holder may still be working, so another
	 * caller can now take the lock while it does. If this client is the holder, its hold
	 * is marked lost ({@link LossReason#FORCED}): it is no longer renewed and its holder
	 * gets a {@link LockLostException} at the next ownership check or at its release.
	 * Callers of this client that queue locally for the key keep waiting until that
	 * holder releases.
	 * @param key the lock key
	 * @return what was released
	 * @throws LockBackendException if the store failed
	 * @throws UnsupportedOperationException if the store cannot force a release
	 * @since 0.3.0
	 */
	public ForcedRelease forceRelease(String key) {
		requireKey(key);
		String owner = this.store.forceRelease(key);
		if (owner == null) {
			return new ForcedRelease(key, false, null, false);
		}
		Lease local = heldLease(key, owner);
		if (local != null) {
			this.watchdog.unwatch(local);
			local.reportLost(LossReason.FORCED, FORCED);
		}
		return new ForcedRelease(key, true, clientIdOf(owner), local != null);
	}

	private @Nullable Lease heldLease(String key, @Nullable String token) {
		if (token == null) {
			return null;
		}
		for (Lease lease : this.held) {
			if (lease.token.equals(token) && lease.key().equals(key)) {
				return lease;
			}
		}
		return null;
	}

	private static @Nullable String clientIdOf(@Nullable String token) {
		if (token == null) {
			return null;
		}
		int separator = token.lastIndexOf(':');
		return (separator > 0) ? token.substring(0, separator) : null;
	}

	private HeldLock snapshot(Lease lease) {
		Thread owner = lease.entry.owner;
		String thread = (owner != null && lease.entry.threadLease == lease) ? owner.getName() : null;
		return new HeldLock(lease.tracking.name, lease.key(), lease.acquiredAt, lease.remaining(), lease.renewable,
				lease.fencingToken, thread, lease.lossKind(), waitingCount(lease.key()));
	}

	/**
	 * Return how many callers of this client wait in the store, one at most per key.
	 * @return the number of callers waiting for a release notification
	 */
	int storeWaiterCount() {
		return this.storeWaiters.get();
	}

	@Override
	public LockHandle obtain(String key) {
		return new ThreadLockHandle(this.writeLocks, requireKey(key), UNNAMED, "LockHandle");
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
	 * @since 0.2.0
	 */
	@Override
	public LockClient readLocks() {
		return this.readLocks;
	}

	@Override
	public LockHandle obtain(String name, String key) {
		return new ThreadLockHandle(this.writeLocks, requireKey(key), requireName(name), "LockHandle");
	}

	@Override
	public LockHold acquire(String key, Duration waitTime, @Nullable Duration leaseTime) throws InterruptedException {
		return acquire(UNNAMED, key, waitTime, leaseTime);
	}

	@Override
	public LockHold acquire(String name, String key, Duration waitTime, @Nullable Duration leaseTime)
			throws InterruptedException {
		requireName(name);
		long waitNanos = waitNanos(key, waitTime);
		validateLease(key, leaseTime);
		ensureOpen();
		this.readLocks.refuseUpgrade(key);
		LockEntry entry = reserve(requireKey(key));
		Acquisition acquisition = new Acquisition(name);
		Lease lease = acquireLease(entry, waitNanos, leaseTime, acquisition);
		if (lease == null) {
			throw LockAcquisitionException.busy(key, waitTime, acquisition.holderLeaseRemaining);
		}
		return new CallHold(this, lease);
	}

	@Override
	public CompletionStage<LockHold> acquireAsync(String key, Duration waitTime, @Nullable Duration leaseTime) {
		return acquireAsync(UNNAMED, key, waitTime, leaseTime);
	}

	@Override
	public CompletionStage<LockHold> acquireAsync(String name, String key, Duration waitTime,
			@Nullable Duration leaseTime) {
		requireName(name);
		long waitNanos = waitNanos(key, waitTime);
		validateLease(key, leaseTime);
		CompletableFuture<LockHold> result = new CompletableFuture<>();
		if (this.closed.get()) {
			dispatch(() -> result.completeExceptionally(closedException()));
			return result;
		}
		LockEntry entry = reserve(requireKey(key));
		AsyncAcquisition acquisition = new AsyncAcquisition(name, entry, System.nanoTime() + waitNanos, waitTime,
				leaseTime, result);
		acquisition.tracking = Tracking.start(this.listener, name, entry.key);
		if (this.fair) {
			// No local turn: every fair caller has its own place in the store's queue.
			result.whenComplete((hold, failure) -> {
				if (result.isCancelled()) {
					acquisition.cancelled = true;
					acquisition.wakeUp();
				}
			});
			dispatch(acquisition::runWithTurn);
			return result;
		}
		if (waitNanos == 0) {
			if (entry.queue.tryTake()) {
				dispatch(acquisition::runWithTurn);
			}
			else {
				unreserve(entry);
				acquisition.giveUp(null);
			}
			return result;
		}
		CompletableFuture<Void> turn = entry.queue.enqueue();
		result.whenComplete((hold, failure) -> {
			if (result.isCancelled()) {
				acquisition.cancel(turn);
			}
		});
		if (!turn.isDone()) {
			this.timer.schedule(() -> acquisition.timeOut(turn), waitNanos, TimeUnit.NANOSECONDS);
		}
		turn.thenRun(() -> dispatch(acquisition::runWithTurn));
		return result;
	}

	@Override
	public List<LockHold> acquireAll(Collection<String> keys, Duration waitTime, @Nullable Duration leaseTime)
			throws InterruptedException {
		return acquireAll(UNNAMED, keys, waitTime, leaseTime);
	}

	@Override
	public List<LockHold> acquireAll(String name, Collection<String> keys, Duration waitTime,
			@Nullable Duration leaseTime) throws InterruptedException {
		requireName(name);
		List<String> sorted = sortedKeys(keys);
		long waitNanos = waitNanos(sorted.get(0), waitTime);
		validateLease(sorted.get(0), leaseTime);
		ensureOpen();
		sorted.forEach(this.readLocks::refuseUpgrade);
		long deadline = System.nanoTime() + waitNanos;
		List<LockEntry> entries = new ArrayList<>(sorted.size());
		List<LockEntry> turns = new ArrayList<>(sorted.size());
		Acquisition acquisition = new Acquisition(name);
		List<Tracking> trackings = sorted.stream().map((key) -> Tracking.start(this.listener, name, key)).toList();
		List<Lease> leases = null;
		Throwable failure = null;
		try {
			sorted.forEach((key) -> entries.add(reserve(key)));
			for (LockEntry entry : entries) {
				if (!takeTurn(entry, Math.max(0, deadline - System.nanoTime()))) {
					acquisition.busyKey = entry.key;
					break;
				}
				turns.add(entry);
				// A lock handed over with the turn is for a single-key caller: give it
				// back
				// now, not when every turn is taken.
				releaseHandOver(entry);
			}
			if (turns.size() == entries.size()) {
				leases = acquireAllInStore(entries, deadline, leaseTime, acquisition, trackings);
			}
		}
		catch (InterruptedException | RuntimeException | Error ex) {
			failure = ex;
			throw ex;
		}
		finally {
			for (int i = 0; i < trackings.size(); i++) {
				acquisition.finished(trackings.get(i), (leases != null) ? leases.get(i) : null, failure);
			}
			if (leases == null) {
				turns.forEach((entry) -> passTurn(entry, null));
				entries.forEach(this::unreserve);
			}
		}
		if (leases == null) {
			String busyKey = acquisition.busyKey;
			throw LockAcquisitionException.busy((busyKey != null) ? busyKey : sorted.get(0), waitTime,
					acquisition.holderLeaseRemaining);
		}
		return leases.stream().map((lease) -> (LockHold) new CallHold(this, lease)).toList();
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
		List<String> sorted = sortedKeys(keys);
		waitNanos(sorted.get(0), waitTime);
		validateLease(sorted.get(0), leaseTime);
		CompletableFuture<List<LockHold>> result = new CompletableFuture<>();
		dispatch(() -> {
			try {
				List<LockHold> holds = acquireAll(name, sorted, waitTime, leaseTime);
				if (!result.complete(holds)) {
					holds.forEach(DefaultLockClient::releaseUnwanted);
				}
			}
			catch (InterruptedException ex) {
				result.completeExceptionally(new LockAcquisitionException(sorted.get(0), waitTime, ex));
			}
			catch (Throwable ex) {
				result.completeExceptionally(ex);
			}
		});
		return result;
	}

	private List<String> sortedKeys(Collection<String> keys) {
		return LockKeyRules.requireKeys(keys, this.settings);
	}

	private static void releaseUnwanted(LockHold hold) {
		try {
			hold.release();
		}
		catch (RuntimeException ex) {
			logger.debug("Could not release lock '" + LogSafe.escape(hold.key()) + "' taken after its caller gave up",
					ex);
		}
	}

	/**
	 * Take every key in the store, with every local turn held: in one atomic step where
	 * the store can, else one by one in key order, so that callers with overlapping sets
	 * cannot deadlock.
	 */
	private @Nullable List<Lease> acquireAllInStore(List<LockEntry> entries, long deadline,
			@Nullable Duration leaseTime, Acquisition acquisition, List<Tracking> trackings)
			throws InterruptedException {
		if (this.fair) {
			return acquireOneByOne(entries, deadline, leaseTime, acquisition, trackings);
		}
		Duration lease = (leaseTime != null) ? leaseTime : this.settings.watchdogLease();
		String token = newToken();
		List<Lease> granted = attemptAll(entries, token, lease, leaseTime == null, acquisition, trackings);
		if (granted == null && deadline - System.nanoTime() > 0) {
			LockEntry first = entries.get(0);
			List<Subscription> subscriptions = entries.stream()
				.map((entry) -> this.store.onRelease(entry.key, first.signal::wake))
				.toList();
			try {
				while (granted == null) {
					long seen = first.signal.count();
					granted = attemptAll(entries, token, lease, leaseTime == null, acquisition, trackings);
					long remaining = deadline - System.nanoTime();
					if (granted != null || remaining <= 0) {
						break;
					}
					first.signal.await(seen, Math.min(remaining, recheckNanos(acquisition.holderLeaseRemaining)));
				}
			}
			finally {
				subscriptions.forEach(Subscription::close);
			}
		}
		return (granted == ONE_BY_ONE) ? acquireOneByOne(entries, deadline, leaseTime, acquisition, trackings)
				: granted;
	}

	private @Nullable List<Lease> attemptAll(List<LockEntry> entries, String token, Duration lease, boolean renewable,
			Acquisition acquisition, List<Tracking> trackings) throws InterruptedException {
		ensureOpen();
		List<String> keys = entries.stream().map((entry) -> entry.key).toList();
		long requestedAt = System.nanoTime();
		List<Attempt> attempts;
		try {
			attempts = this.store.tryAcquireAll(keys, token, lease);
		}
		catch (LockBackendException ex) {
			keys.forEach((key) -> releaseInBackground(key, token));
			if (Thread.interrupted()) {
				InterruptedException interrupted = new InterruptedException(
						"Interrupted while acquiring locks " + keys);
				interrupted.initCause(ex);
				throw interrupted;
			}
			throw ex;
		}
		if (attempts == null) {
			return ONE_BY_ONE;
		}
		if (!attempts.get(0).acquired()) {
			for (int i = 0; i < attempts.size(); i++) {
				if (attempts.get(i).holderLeaseRemaining() != null) {
					acquisition.holderLeaseRemaining = attempts.get(i).holderLeaseRemaining();
					acquisition.busyKey = keys.get(i);
					break;
				}
			}
			return null;
		}
		List<Lease> granted = new ArrayList<>(entries.size());
		for (int i = 0; i < entries.size(); i++) {
			Lease grant = new Lease(entries.get(i), token, attempts.get(i).fencingToken(), lease, renewable,
					requestedAt, trackings.get(i));
			this.held.add(grant);
			if (renewable) {
				this.watchdog.watch(grant);
			}
			granted.add(grant);
		}
		if (this.closed.get()) {
			granted.forEach(this::abandon);
			throw closedException();
		}
		return granted;
	}

	private @Nullable List<Lease> acquireOneByOne(List<LockEntry> entries, long deadline, @Nullable Duration leaseTime,
			Acquisition acquisition, List<Tracking> trackings) throws InterruptedException {
		List<Lease> granted = new ArrayList<>(entries.size());
		boolean complete = false;
		try {
			for (int i = 0; i < entries.size(); i++) {
				LockEntry entry = entries.get(i);
				acquisition.tracking = trackings.get(i);
				Lease lease = acquireInStore(entry, deadline, leaseTime, acquisition);
				if (lease == null) {
					acquisition.busyKey = entry.key;
					return null;
				}
				granted.add(lease);
			}
			complete = true;
			return granted;
		}
		finally {
			if (!complete) {
				granted.forEach(this::abandon);
			}
		}
	}

	/**
	 * Give back a grant the caller will not get, keeping its local turn for the caller to
	 * pass on.
	 */
	private void abandon(Lease lease) {
		this.watchdog.unwatch(lease);
		this.held.remove(lease);
		if (lease.end()) {
			releaseQuietly(lease.key(), lease.token);
		}
	}

	// Thread-bound holds (LockHandle)

	boolean lockForThread(String key, long waitNanos, @Nullable Duration leaseTime, Acquisition acquisition)
			throws InterruptedException {
		ensureOpen();
		this.readLocks.refuseUpgrade(key);
		LockEntry entry = reserve(key);
		Thread caller = Thread.currentThread();
		if (entry.isOwnedBy(caller)) {
			unreserve(entry);
			Lease current = threadLease(entry);
			String loss = current.lossReason();
			if (loss != null) {
				reportLost(current, loss);
				throw new LockLostException(key, loss);
			}
			entry.holdCount++;
			return true;
		}
		Lease lease = acquireLease(entry, waitNanos, leaseTime, acquisition);
		if (lease == null) {
			return false;
		}
		entry.threadLease = lease;
		entry.holdCount = 1;
		entry.owner = caller;
		return true;
	}

	void unlockForThread(String key, @Nullable Duration holdAtLeast) {
		LockEntry entry = ownedEntry(key);
		if (--entry.holdCount > 0) {
			return;
		}
		Lease lease = threadLease(entry);
		entry.owner = null;
		entry.threadLease = null;
		end(lease, holdAtLeast);
	}

	boolean isHeldByCurrentThread(String key) {
		LockEntry entry = this.entries.get(key);
		if (entry == null || !entry.isOwnedBy(Thread.currentThread())) {
			return false;
		}
		Lease lease = entry.threadLease;
		return lease != null && lease.lossReason() == null;
	}

	int holdCount(String key) {
		LockEntry entry = this.entries.get(key);
		return (entry != null && entry.isOwnedBy(Thread.currentThread())) ? entry.holdCount : 0;
	}

	Lease heldLease(String key) {
		return threadLease(ownedEntry(key));
	}

	private LockEntry ownedEntry(String key) {
		LockEntry entry = this.entries.get(key);
		if (entry == null || !entry.isOwnedBy(Thread.currentThread())) {
			throw new IllegalMonitorStateException("Lock '" + key + "' is not held by the current thread");
		}
		return entry;
	}

	private static Lease threadLease(LockEntry entry) {
		Lease lease = entry.threadLease;
		if (lease == null) {
			throw new IllegalStateException("Lock '" + entry.key + "' has no lease");
		}
		return lease;
	}

	// Acquiring

	/**
	 * Take the local turn, then the lock in the store, for a caller that reserved
	 * {@code entry}; a caller that ends up without the lock has its reservation undone.
	 */
	private @Nullable Lease acquireLease(LockEntry entry, long waitNanos, @Nullable Duration leaseTime,
			Acquisition acquisition) throws InterruptedException {
		acquisition.tracking = Tracking.start(this.listener, acquisition.name, entry.key);
		long deadline = System.nanoTime() + waitNanos;
		Lease lease = null;
		try {
			if (takeTurn(entry, waitNanos)) {
				lease = acquireWithTurn(entry, deadline, leaseTime, acquisition);
			}
			acquisition.finished(lease, null);
			return lease;
		}
		catch (InterruptedException | RuntimeException | Error ex) {
			acquisition.finished(null, ex);
			throw ex;
		}
		finally {
			if (lease == null) {
				unreserve(entry);
			}
		}
	}

	private @Nullable Lease acquireWithTurn(LockEntry entry, long deadline, @Nullable Duration leaseTime,
			Acquisition acquisition) throws InterruptedException {
		Lease lease = null;
		try {
			lease = acquireInStore(entry, deadline, leaseTime, acquisition);
			return lease;
		}
		finally {
			if (lease == null) {
				passTurn(entry, null);
			}
		}
	}

	/**
	 * Take the local turn of {@code entry}: at once for a fair lock, which has none.
	 */
	private boolean takeTurn(LockEntry entry, long waitNanos) throws InterruptedException {
		try {
			return this.fair || entry.queue.await(waitNanos);
		}
		catch (InterruptedException ex) {
			// The turn may have come with a lock handed over, and gone on to nobody
			releaseHandOver(entry);
			throw ex;
		}
	}

	private @Nullable Lease acquireInStore(LockEntry entry, long deadline, @Nullable Duration leaseTime,
			Acquisition acquisition) throws InterruptedException {
		if (this.fair) {
			return acquireFairInStore(entry, deadline, leaseTime, acquisition);
		}
		Duration lease = (leaseTime != null) ? leaseTime : this.settings.watchdogLease();
		boolean renewable = leaseTime == null;
		CohortGrant handedOver = entry.handOver.getAndSet(null);
		if (handedOver != null) {
			Lease adopted = adopt(entry, handedOver, lease, renewable, acquisition);
			if (adopted != null) {
				return adopted;
			}
		}
		long yieldNanos = Math.min(entry.yieldNanos.getAndSet(0), deadline - System.nanoTime());
		if (yieldNanos > 0) {
			entry.signal.await(entry.signal.count(), yieldNanos);
		}
		String token = newToken();
		if (deadline - System.nanoTime() <= 0 || acquisition.cancelled) {
			return attempt(entry, token, lease, renewable, acquisition,
					() -> this.store.tryAcquire(entry.key, token, lease));
		}
		// A waiting client registers with the store, so that a release wakes one waiting
		// client (not every one), and leaves when it gives up.
		StoreRequest request = () -> this.store.tryAcquire(entry.key, token, lease, this.clientId, WAITER_TTL);
		Lease granted = null;
		try {
			granted = attempt(entry, token, lease, renewable, acquisition, request);
			if (granted != null || deadline - System.nanoTime() <= 0 || acquisition.cancelled) {
				return granted;
			}
			granted = awaitRelease(entry, deadline, acquisition,
					() -> attempt(entry, token, lease, renewable, acquisition, request));
			return granted;
		}
		finally {
			if (granted == null) {
				leaveQuietly(entry.key, this.clientId);
			}
		}
	}

	private @Nullable Lease awaitRelease(LockEntry entry, long deadline, Acquisition acquisition, LeaseRequest request)
			throws InterruptedException {
		entry.storeWaiting.incrementAndGet();
		this.storeWaiters.incrementAndGet();
		try (Subscription subscription = this.store.onRelease(entry.key, this.clientId, entry.signal::wake)) {
			while (true) {
				long seen = entry.signal.count();
				Lease granted = request.send();
				long remaining = deadline - System.nanoTime();
				if (granted != null || remaining <= 0) {
					return granted;
				}
				entry.signal.await(seen, Math.min(remaining, recheckNanos(acquisition.holderLeaseRemaining)));
				if (acquisition.cancelled) {
					return null;
				}
			}
		}
		finally {
			entry.storeWaiting.decrementAndGet();
			this.storeWaiters.decrementAndGet();
		}
	}

	/**
	 * Wait in the store's queue for a fair lock with a place of this caller's own, taken
	 * by its first attempt (so its place is its arrival), re-checking (which keeps the
	 * place alive) at least every third of the fair grant timeout, woken by a release
	 * only when it granted the lock to this caller (or woke everyone). A caller that does
	 * not wait asks once without joining the queue; one that gives up leaves the queue,
	 * giving back a grant made to it meanwhile.
	 */
	private @Nullable Lease acquireFairInStore(LockEntry entry, long deadline, @Nullable Duration leaseTime,
			Acquisition acquisition) throws InterruptedException {
		Duration lease = (leaseTime != null) ? leaseTime : this.settings.watchdogLease();
		boolean renewable = leaseTime == null;
		String token = newToken();
		if (deadline - System.nanoTime() <= 0 || acquisition.cancelled) {
			return attempt(entry, token, lease, renewable, acquisition,
					() -> this.store.tryAcquireFair(entry.key, token, lease, null));
		}
		Duration grantTimeout = this.settings.fairGrantTimeout();
		StoreRequest request = () -> this.store.tryAcquireFair(entry.key, token, lease, grantTimeout);
		Lease granted = null;
		try {
			// An uncontended caller is granted at once, without a subscription.
			granted = attempt(entry, token, lease, renewable, acquisition, request);
			if (granted == null) {
				granted = awaitFairGrant(entry, token, deadline, grantTimeout.toNanos() / 3, acquisition,
						() -> attempt(entry, token, lease, renewable, acquisition, request));
			}
			return granted;
		}
		finally {
			if (granted == null) {
				leaveQuietly(entry.key, token);
			}
		}
	}

	/**
	 * Wait for a release that grants the lock to {@code token}: subscribe, then ask again
	 * at once (which claims a grant made before the subscription listened), and again on
	 * every wake-up and re-check.
	 */
	private @Nullable Lease awaitFairGrant(LockEntry entry, String token, long deadline, long maxRecheckNanos,
			Acquisition acquisition, LeaseRequest request) throws InterruptedException {
		ReleaseSignal signal = new ReleaseSignal();
		acquisition.signal = signal;
		entry.fairSignals.add(signal);
		entry.storeWaiting.incrementAndGet();
		this.storeWaiters.incrementAndGet();
		try (Subscription subscription = this.store.onRelease(entry.key, token, signal::wake)) {
			Lease granted = null;
			while (granted == null && !acquisition.cancelled) {
				long seen = signal.count();
				granted = request.send();
				long remaining = deadline - System.nanoTime();
				if (granted != null || remaining <= 0) {
					break;
				}
				signal.await(seen,
						Math.min(remaining, Math.min(maxRecheckNanos, recheckNanos(acquisition.holderLeaseRemaining))));
			}
			return granted;
		}
		finally {
			entry.fairSignals.remove(signal);
			entry.storeWaiting.decrementAndGet();
			this.storeWaiters.decrementAndGet();
		}
	}

	/**
	 * Leave the store's waiters, on this thread so that a caller taking the local turn
	 * next registers after it; a failure leaves a registration that expires on its own.
	 */
	private void leaveQuietly(String key, String waiter) {
		boolean interrupted = Thread.interrupted();
		try {
			this.store.leave(key, waiter);
		}
		catch (RuntimeException ex) {
			logger.debug("Could not stop waiting for lock '" + LogSafe.escape(key)
					+ "'; the registration expires on its own", ex);
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * Ask the store once. If the request fails, the store may still run it later (a
	 * command queued on a connection to a paused server, say), so an owner-checked
	 * release of the token follows it in the background; an interrupt that broke the
	 * request is reported as such.
	 */
	private @Nullable Lease attempt(LockEntry entry, String token, Duration lease, boolean renewable,
			Acquisition acquisition, StoreRequest request) throws InterruptedException {
		ensureOpen();
		long requestedAt = System.nanoTime();
		Attempt attempt;
		try {
			attempt = request.send();
		}
		catch (LockBackendException ex) {
			releaseInBackground(entry.key, token);
			if (Thread.interrupted()) {
				InterruptedException interrupted = new InterruptedException(
						"Interrupted while acquiring lock '" + entry.key + "'");
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
		if (this.closed.get()) {
			this.watchdog.unwatch(granted);
			this.held.remove(granted);
			releaseQuietly(entry.key, token);
			throw closedException();
		}
		return granted;
	}

	static long recheckNanos(@Nullable Duration holderLeaseRemaining) {
		if (holderLeaseRemaining == null) {
			return UNKNOWN_TTL_RECHECK_NANOS;
		}
		return Math.max(MIN_RECHECK_NANOS, Math.min(MAX_RECHECK_NANOS, holderLeaseRemaining.toNanos()));
	}

	// Releasing and checking

	/**
	 * End a hold: release it in the store, then pass the local turn on, whatever the
	 * store said.
	 */
	void end(Lease lease, @Nullable Duration holdAtLeast) {
		RuntimeException failure = null;
		CohortGrant handedOver = null;
		try {
			handedOver = releaseInStore(lease, holdAtLeast);
		}
		catch (RuntimeException ex) {
			failure = ex;
			throw ex;
		}
		finally {
			passTurn(lease.entry, handedOver);
			unreserve(lease.entry);
			lease.tracking.released(failure);
		}
	}

	/**
	 * Release the lease in the store, or, while a minimum hold time is not over, shorten
	 * its lease to what is left of it instead, or hand it over to a new token for the
	 * caller of this client waiting next (lock cohorting, at most
	 * {@link LockClientSettings#cohortHandOffs()} times in a row).
	 * @return the lock handed over, or {@code null} if released
	 */
	private @Nullable CohortGrant releaseInStore(Lease lease, @Nullable Duration holdAtLeast) {
		this.watchdog.unwatch(lease);
		this.held.remove(lease);
		if (!lease.end()) {
			String loss = lease.lossReason();
			throw new LockLostException(lease.key(), (loss != null) ? loss : CLOSED);
		}
		long heldNanos = System.nanoTime() - lease.acquiredAtNanos;
		long keepNanos = (holdAtLeast != null) ? holdAtLeast.toNanos() - heldNanos : 0;
		boolean interrupted = Thread.interrupted();
		try {
			CohortGrant handedOver = null;
			boolean owned;
			if (keepNanos >= MIN_RECHECK_NANOS) {
				owned = this.store.expireAfter(lease.key(), lease.token, Duration.ofNanos(keepNanos));
			}
			else {
				String nextToken = mayHandOver(lease) ? newToken() : null;
				long requestedAt = System.nanoTime();
				Attempt handOver = (nextToken != null) ? handOver(lease, nextToken) : null;
				if (nextToken == null || handOver == null) {
					long releasedAt = System.nanoTime();
					owned = this.store.release(lease.key(), lease.token);
					if (this.settings.cohortHandOffs() > 0 && lease.handOffs >= this.settings.cohortHandOffs()
							&& lease.entry.queue.waitingCount() > 0) {
						// A run of hand-offs ends: let a client elsewhere take the lock
						lease.entry.yieldNanos.set(Math.min(MAX_YIELD_NANOS, 3 * (System.nanoTime() - releasedAt)));
					}
				}
				else {
					owned = handOver.acquired();
					if (owned) {
						handedOver = new CohortGrant(nextToken, handOver.fencingToken(), this.settings.watchdogLease(),
								requestedAt, lease.handOffs + 1);
					}
				}
			}
			if (!owned) {
				String loss = lease.lossReason();
				reportLost(lease, (loss != null) ? loss : GONE);
				throw new LockLostException(lease.key(), (loss != null) ? loss : GONE);
			}
			return handedOver;
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * Whether the holder of {@code lease} may hand the lock to the caller of this client
	 * waiting next instead of releasing it: a non-fair lock, not lost, with a caller
	 * waiting locally, within the bound of hand-offs in a row.
	 */
	private boolean mayHandOver(Lease lease) {
		return !this.fair && lease.handOffs < this.settings.cohortHandOffs() && lease.lossReason() == null
				&& lease.entry.queue.waitingCount() > 0;
	}

	/**
	 * Hand the lock over in the store to {@code nextToken}; if the request fails, the
	 * store may still run it later, so an owner-checked release of the next token follows
	 * in the background.
	 * @return the outcome, or {@code null} if the store released nothing and wants a
	 * release instead
	 */
	private @Nullable Attempt handOver(Lease lease, String nextToken) {
		try {
			return this.store.handOver(lease.key(), lease.token, nextToken, this.settings.watchdogLease());
		}
		catch (LockBackendException ex) {
			releaseInBackground(lease.key(), nextToken);
			throw ex;
		}
	}

	/**
	 * Pass the local turn of {@code entry} on, with the lock if it was handed over in the
	 * store; a hand-over nobody took the turn for is released.
	 */
	private void passTurn(LockEntry entry, @Nullable CohortGrant handedOver) {
		if (handedOver != null) {
			entry.handOver.set(handedOver);
		}
		if (!entry.queue.pass()) {
			releaseHandOver(entry);
		}
	}

	/**
	 * Release a lock handed over to the next caller taking the local turn of
	 * {@code entry}, if it is still there: for a caller that took the turn but cannot use
	 * it, or when nobody took the turn.
	 */
	private void releaseHandOver(LockEntry entry) {
		CohortGrant handedOver = entry.handOver.getAndSet(null);
		if (handedOver != null) {
			releaseQuietly(entry.key, handedOver.token());
		}
	}

	/**
	 * Take the lock handed over to this caller, setting its lease if it asked for
	 * another.
	 * @return the lease, or {@code null} if the hand-over was lost meanwhile
	 */
	private @Nullable Lease adopt(LockEntry entry, CohortGrant grant, Duration lease, boolean renewable,
			Acquisition acquisition) {
		if (this.closed.get()) {
			releaseQuietly(entry.key, grant.token());
			throw closedException();
		}
		long requestedAt = grant.requestedAtNanos();
		if (!lease.equals(grant.lease())) {
			requestedAt = System.nanoTime();
			try {
				if (!this.store.expireAfter(entry.key, grant.token(), lease)) {
					return null;
				}
			}
			catch (LockBackendException ex) {
				releaseInBackground(entry.key, grant.token());
				return null;
			}
		}
		Lease adopted = new Lease(entry, grant.token(), grant.fencingToken(), lease, renewable, requestedAt,
				acquisition.tracking);
		adopted.handOffs = grant.handOffs();
		this.held.add(adopted);
		if (renewable) {
			this.watchdog.watch(adopted);
		}
		if (this.closed.get()) {
			this.watchdog.unwatch(adopted);
			this.held.remove(adopted);
			releaseQuietly(entry.key, grant.token());
			throw closedException();
		}
		return adopted;
	}

	void confirmOwnership(Lease lease) {
		boolean interrupted = Thread.interrupted();
		try {
			if (!this.store.isOwner(lease.key(), lease.token)) {
				lease.reportLost(LossReason.TAKEN, NOT_OWNER);
				throw new LockLostException(lease.key(), NOT_OWNER);
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * Tell the listener that the holder of {@code lease} learns of its loss: the kind
	 * recorded, or the one its local view shows, or {@link LossReason#TAKEN}.
	 */
	private static void reportLost(Lease lease, String reason) {
		lease.reportLost(LossReason.TAKEN, reason);
	}

	void releaseInBackground(String key, String token) {
		dispatch(() -> releaseQuietly(key, token));
	}

	private void releaseQuietly(String key, String token) {
		try {
			this.store.release(key, token);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not release lock '" + LogSafe.escape(key) + "'; it expires with its lease", ex);
		}
	}

	// Bookkeeping

	private LockEntry reserve(String key) {
		return this.entries.compute(key, (name, existing) -> {
			LockEntry entry = (existing != null) ? existing : new LockEntry(name);
			entry.users++;
			return entry;
		});
	}

	private void unreserve(LockEntry entry) {
		this.entries.computeIfPresent(entry.key, (name, current) -> {
			if (current != entry) {
				return current;
			}
			return (--current.users == 0) ? null : current;
		});
	}

	void ensureOpen() {
		if (this.closed.get()) {
			throw closedException();
		}
	}

	boolean isClosed() {
		return this.closed.get();
	}

	/**
	 * Return a new owner token, unique per acquisition.
	 */
	String newToken() {
		return this.clientId + ":" + this.grants.incrementAndGet();
	}

	private IllegalStateException closedException() {
		return new IllegalStateException("LockClient " + this.clientId + " is closed");
	}

	void dispatch(Runnable task) {
		try {
			this.workers.execute(task);
		}
		catch (RejectedExecutionException ex) {
			task.run();
		}
	}

	private static String requireName(String name) {
		Assert.isTrue(StringUtils.hasText(name), () -> "Lock name must not be null or blank, but was '" + name + "'");
		return name;
	}

	private String requireKey(String key) {
		return LockKeyRules.requireKey(key, this.settings);
	}

	static long waitNanos(String key, Duration waitTime) {
		Assert.notNull(waitTime, "'waitTime' must not be null");
		Assert.isTrue(!waitTime.isNegative(),
				() -> "'waitTime' must not be negative, but was " + waitTime + " for lock '" + key + "'");
		return (waitTime.compareTo(Duration.ofNanos(FOREVER)) >= 0) ? FOREVER : waitTime.toNanos();
	}

	static void validateLease(String key, @Nullable Duration leaseTime) {
		Assert.isTrue(leaseTime == null || leaseTime.toMillis() > 0,
				() -> "'leaseTime' must be at least 1 ms, but was " + leaseTime + " for lock '" + key + "'");
	}

	static long forever() {
		return FOREVER;
	}

	/**
	 * Stop renewing, wake every caller waiting in the store, and release every held lock
	 * and close the store, giving up after the {@link LockClientSettings#closeTimeout()
	 * close timeout}; locks not released by then expire when their lease ends. Holders
	 * learn of the release as a {@link LockLostException} when they release.
	 */
	@Override
	public void close() {
		if (this.root != this) {
			this.root.close();
			return;
		}
		if (!this.closed.compareAndSet(false, true)) {
			return;
		}
		this.watchdog.close();
		this.entries.values().forEach(LockEntry::wakeAll);
		this.fairView.entries.values().forEach(LockEntry::wakeAll);
		this.readLocks.wakeWaiting();
		List<Lease> leases = List.copyOf(this.held);
		Thread releaser = new Thread(() -> {
			leases.forEach(this::releaseOnClose);
			this.store.close();
		}, "distlock-close-" + this.clientId);
		releaser.setDaemon(true);
		releaser.start();
		try {
			releaser.join(this.settings.closeTimeout().toMillis() + 1);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (releaser.isAlive()) {
			logger.warn("Closing LockClient " + this.clientId + " timed out; remaining locks expire with their lease");
		}
		this.workers.shutdown();
		this.timer.shutdown();
	}

	private void releaseOnClose(Lease lease) {
		if (lease.end()) {
			lease.reportLost(LossReason.CLOSED, CLOSED);
			this.held.remove(lease);
			releaseQuietly(lease.key(), lease.token);
			lease.tracking.released(null);
		}
	}

	private static ThreadFactory daemonThreads(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, prefix + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	/**
	 * The thread-bound write locks of this client (or view), for its lock handles.
	 */
	private final class WriteLocks implements ThreadLocks {

		@Override
		public boolean lockForThread(String key, long waitNanos, @Nullable Duration leaseTime, Acquisition acquisition)
				throws InterruptedException {
			return DefaultLockClient.this.lockForThread(key, waitNanos, leaseTime, acquisition);
		}

		@Override
		public void unlockForThread(String key, @Nullable Duration holdAtLeast) {
			DefaultLockClient.this.unlockForThread(key, holdAtLeast);
		}

		@Override
		public boolean isHeldByCurrentThread(String key) {
			return DefaultLockClient.this.isHeldByCurrentThread(key);
		}

		@Override
		public int holdCount(String key) {
			return DefaultLockClient.this.holdCount(key);
		}

		@Override
		public Lease heldLease(String key) {
			return DefaultLockClient.this.heldLease(key);
		}

		@Override
		public void confirmOwnership(Lease lease) {
			DefaultLockClient.this.confirmOwnership(lease);
		}

	}

	/**
	 * What one acquisition learned on the way, and whether its caller gave up.
	 */
	static class Acquisition {

		final String name;

		volatile Tracking tracking = Tracking.NONE;

		volatile @Nullable Duration holderLeaseRemaining;

		volatile @Nullable String busyKey;

		volatile boolean cancelled;

		/** The signal a fair acquisition waits on, once it waits. */
		volatile @Nullable ReleaseSignal signal;

		Acquisition() {
			this(UNNAMED);
		}

		Acquisition(String name) {
			this.name = name;
		}

		/**
		 * Wake this acquisition if it waits for a fair lock, so it sees it was cancelled.
		 */
		void wakeUp() {
			ReleaseSignal waiting = this.signal;
			if (waiting != null) {
				waiting.wake();
			}
		}

		/**
		 * Report the outcome of this acquisition to its tracker.
		 * @param lease the grant, or {@code null}
		 * @param failure why there is no grant, or {@code null} for a busy lock (or a
		 * cancelled acquisition)
		 */
		void finished(@Nullable Lease lease, @Nullable Throwable failure) {
			finished(this.tracking, lease, failure);
		}

		/**
		 * Report the outcome of this acquisition for one of its keys.
		 * @param tracking the tracker of the key
		 * @param lease the key's grant, or {@code null}
		 * @param failure why there is no grant, or {@code null} for a busy lock (or a
		 * cancelled acquisition)
		 */
		void finished(Tracking tracking, @Nullable Lease lease, @Nullable Throwable failure) {
			if (lease != null) {
				tracking.acquired(lease.fencingToken);
			}
			else if (failure instanceof InterruptedException || (failure == null && this.cancelled)) {
				tracking.notAcquired(AcquireOutcome.INTERRUPTED, failure);
			}
			else if (failure != null) {
				tracking.notAcquired(AcquireOutcome.ERROR, failure);
			}
			else {
				tracking.notAcquired(AcquireOutcome.BUSY, null);
			}
		}

	}

	/**
	 * A non-blocking acquisition: queued for the local turn without a thread, then run in
	 * the store by a worker.
	 */
	private final class AsyncAcquisition extends Acquisition {

		private final LockEntry entry;

		private final long deadline;

		private final Duration waitTime;

		private final @Nullable Duration leaseTime;

		private final CompletableFuture<LockHold> result;

		AsyncAcquisition(String name, LockEntry entry, long deadline, Duration waitTime, @Nullable Duration leaseTime,
				CompletableFuture<LockHold> result) {
			super(name);
			this.entry = entry;
			this.deadline = deadline;
			this.waitTime = waitTime;
			this.leaseTime = leaseTime;
			this.result = result;
		}

		/**
		 * Run in the store, with the local turn; on a worker thread.
		 */
		void runWithTurn() {
			Lease lease = null;
			Throwable failure = null;
			try {
				if (!this.cancelled) {
					lease = acquireWithTurn(this.entry, this.deadline, this.leaseTime, this);
				}
				else {
					passTurn(this.entry, null);
				}
			}
			catch (Throwable ex) {
				failure = ex;
			}
			if (lease == null) {
				unreserve(this.entry);
				giveUp(failure);
				return;
			}
			finished(lease, null);
			CallHold hold = new CallHold(DefaultLockClient.this, lease);
			if (!this.result.complete(hold)) {
				try {
					hold.release();
				}
				catch (RuntimeException ex) {
					logger.debug("Could not release lock '" + LogSafe.escape(hold.key())
							+ "' taken after its caller gave up", ex);
				}
			}
		}

		void giveUp(@Nullable Throwable failure) {
			finished(null, failure);
			Throwable outcome;
			if (failure instanceof InterruptedException) {
				outcome = new LockAcquisitionException(this.entry.key, this.waitTime, failure);
			}
			else if (failure != null) {
				outcome = failure;
			}
			else if (this.cancelled) {
				outcome = new CancellationException("Acquisition of lock '" + this.entry.key + "' was cancelled");
			}
			else {
				outcome = LockAcquisitionException.busy(this.entry.key, this.waitTime, this.holderLeaseRemaining);
			}
			dispatch(() -> this.result.completeExceptionally(outcome));
		}

		void timeOut(CompletableFuture<Void> turn) {
			if (this.entry.queue.abandon(turn)) {
				unreserve(this.entry);
				giveUp(null);
			}
		}

		void cancel(CompletableFuture<Void> turn) {
			this.cancelled = true;
			if (this.entry.queue.abandon(turn)) {
				unreserve(this.entry);
				finished(null, null);
			}
			else {
				this.entry.signal.wake();
				wakeUp();
			}
		}

	}

	/**
	 * One acquire request to the store.
	 */
	@FunctionalInterface
	private interface StoreRequest {

		Attempt send();

	}

	/**
	 * One attempt to take a lease.
	 */
	@FunctionalInterface
	private interface LeaseRequest {

		@Nullable Lease send() throws InterruptedException;

	}

}
