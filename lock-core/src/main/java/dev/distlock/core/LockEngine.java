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

import dev.distlock.store.LockStore;
import dev.distlock.LossReason;
import dev.distlock.store.SessionLeaseExtension;
import dev.distlock.store.support.Stages;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.distlock.LogSafe;
import dev.distlock.core.LockEntry.CohortGrant;
import dev.distlock.store.LockStore.Renewal;
import dev.distlock.store.LockStore.RenewalOutcome;
import dev.distlock.store.HeldLockOperations;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * What the parts of one {@link DefaultLockClient} share: the store, settings, listener
 * and watchdog; the per-key local entries; the held leases; the acquisitions under way;
 * one timer for every re-check, deadline and fixed-lease expiry; the executor that
 * completes callers' futures. Its methods are the small steps every acquisition and
 * release takes: reserving an entry, registering a grant, passing a local turn, releasing
 * a token in the background.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LockEngine {

	private static final Log logger = LogFactory.getLog(LockEngine.class);

	private static final String GRANT_NOT_EXTENDED = "the grant a release made to it ran out before it was extended";

	/**
	 * How long to wait before asking again to extend a grant a fair waiter's wake-up
	 * carried, after the store failed the request (until the grant ends).
	 */
	static final Duration EXTENSION_RETRY = Duration.ofMillis(100);

	/**
	 * How many threads may complete callers' futures at once (they run the callers'
	 * continuations, never a wait).
	 */
	private static final int CALLBACK_THREADS = 4;

	final String clientId;

	final LockStore store;

	/** The store's optional behaviours, looked up once. */
	final StoreExtensions extensions;

	/** The store operations on write locks. */
	final HeldLockOperations writes;

	final LockClientSettings settings;

	final LockClientListener listener;

	final LeaseWatchdog watchdog;

	final Set<Lease> held = ConcurrentHashMap.newKeySet();

	/** The shared entries of the default-mode (write) locks, by key. */
	private final Map<String, LockEntry> entries = new ConcurrentHashMap<>();

	/** How many acquisitions of this client wait in the store, by key. */
	private final Map<String, AtomicInteger> storeWaiting = new ConcurrentHashMap<>();

	private final Set<Acquiring> active = ConcurrentHashMap.newKeySet();

	/** The acquisitions under way and the releases sent in the background. */
	private final PendingWork pending = new PendingWork();

	private final BackgroundReleases releases;

	private final ScheduledThreadPoolExecutor timer;

	private final ThreadPoolExecutor callbacks;

	/** Where the listener's calls run: never on the timer, callback or I/O threads. */
	final ListenerEvents listenerEvents;

	private final AtomicLong grants = new AtomicLong();

	private final AtomicBoolean closed = new AtomicBoolean();

	/** The engine's registration for interruptions of the store's session, if any. */
	private final LockStore.Subscription sessionInterruptions;

	LockEngine(LockStore store, LockClientSettings settings, LockClientListener listener) {
		this.clientId = UUID.randomUUID().toString();
		String name = "distlock-" + this.clientId.substring(0, 8);
		this.store = store;
		this.extensions = StoreExtensions.of(store);
		this.writes = store;
		this.settings = settings;
		this.listener = listener;
		this.timer = new ScheduledThreadPoolExecutor(1, daemonThreads(name + "-timer-"));
		this.timer.setRemoveOnCancelPolicy(true);
		this.callbacks = new ThreadPoolExecutor(CALLBACK_THREADS, CALLBACK_THREADS, 30, TimeUnit.SECONDS,
				new LinkedBlockingQueue<>(), daemonThreads(name + "-callback-"));
		this.callbacks.allowCoreThreadTimeOut(true);
		this.listenerEvents = new ListenerEvents(listener, name + "-listener");
		this.releases = new BackgroundReleases(this.timer, this.pending);
		this.watchdog = new LeaseWatchdog(store, settings.watchdogLease(), settings.renewalInterval(),
				settings.renewalBatchSize(), this.timer, this.listenerEvents.renewals(listener), this::lost,
				settings.maxHold());
		SessionLeaseExtension sessions = this.extensions.sessionLeases();
		this.sessionInterruptions = (sessions != null)
				? sessions.onSessionInterrupted(() -> sessionInterrupted(sessions)) : () -> {
				};
	}

	/**
	 * The store can no longer confirm its session: end the local view of every lease at
	 * once, for good, with the store's reason; the watchdog's next round learns from the
	 * store that each was lost.
	 */
	private void sessionInterrupted(SessionLeaseExtension sessions) {
		long now = System.nanoTime();
		this.held.forEach((lease) -> lease.endView(now, () -> sessions.lossReason(lease.key(), lease.token)));
	}

	// Tokens, entries and waiting counts

	/**
	 * Return a new owner token, unique per grant: the client id and a counter.
	 */
	String newToken() {
		return this.clientId + ":" + this.grants.incrementAndGet();
	}

	LockEntry reserve(String key) {
		return this.entries.compute(key, (name, existing) -> {
			LockEntry entry = (existing != null) ? existing : new LockEntry(name, this.writes);
			entry.users++;
			return entry;
		});
	}

	void unreserve(LockEntry entry) {
		this.entries.computeIfPresent(entry.key, (name, current) -> {
			if (current != entry) {
				return current;
			}
			return (--current.users == 0) ? null : current;
		});
	}

	void waitingInStore(String key, int delta) {
		this.storeWaiting.compute(key, (name, count) -> {
			AtomicInteger current = (count != null) ? count : new AtomicInteger();
			return (current.addAndGet(delta) == 0) ? null : current;
		});
	}

	/**
	 * Return how many callers of this client wait for {@code key}: for the local turn, or
	 * in the store.
	 */
	int waitingCount(String key) {
		LockEntry entry = this.entries.get(key);
		AtomicInteger inStore = this.storeWaiting.get(key);
		return ((entry != null) ? entry.queue.waitingCount() : 0) + ((inStore != null) ? inStore.get() : 0);
	}

	// Grants

	/**
	 * Register a grant: held, renewed by the watchdog unless its lease is fixed, and, if
	 * it is fixed, set to pass its local turn on when the lease runs out.
	 */
	Lease grant(LockEntry entry, String token, long fencingToken, Duration lease, boolean renewable,
			long requestedAtNanos, Tracking tracking, int handOffs) {
		Lease granted = new Lease(entry, token, fencingToken, lease, renewable, requestedAtNanos, tracking);
		granted.handOffs = handOffs;
		return hold(granted);
	}

	/**
	 * Register a grant that a fair waiter's wake-up carried: held from now, valid until
	 * {@code grantEndNanos} (the grant's end in the store, at the latest) until
	 * {@link #extend(Lease, Duration) extended}.
	 */
	Lease grantFromWakeUp(LockEntry entry, String token, long fencingToken, Duration lease, boolean renewable,
			long grantEndNanos, Tracking tracking) {
		Lease granted = new Lease(entry, token, fencingToken, lease, renewable, System.nanoTime(), tracking);
		granted.endsBy(grantEndNanos);
		return hold(granted);
	}

	/**
	 * Extend a grant that a fair waiter's wake-up carried to {@code lease}, in the
	 * background, owner-checked: an extension that finds the grant gone reports it lost.
	 */
	void extend(Lease granted, Duration lease) {
		sendExtension(granted, lease, granted.validUntilNanos());
	}

	private void sendExtension(Lease granted, Duration lease, long grantEndNanos) {
		long requestedAt = System.nanoTime();
		Stages.send(() -> granted.entry.ownership.renew(List.of(new Renewal(granted.key(), granted.token)), lease))
			.whenComplete((outcomes, failure) -> extended(granted, lease, grantEndNanos,
					(failure != null || outcomes == null) ? null : outcomes.get(0), requestedAt));
	}

	private Lease hold(Lease granted) {
		this.held.add(granted);
		if (granted.renewable) {
			this.watchdog.watch(granted);
		}
		else {
			scheduleExpiry(granted);
		}
		return granted;
	}

	/**
	 * Pass the local turn of a fixed lease on when its local view runs out.
	 */
	private void scheduleExpiry(Lease granted) {
		granted.expiry = schedule(() -> expired(granted), granted.remaining().toNanos());
	}

	/**
	 * Take the answer to the extension of a grant a wake-up carried. A failed extension
	 * is asked for again after {@link #EXTENSION_RETRY} until the grant ends (unless the
	 * watchdog renews it first, or it is released); a grant that ends unextended is
	 * reported lost.
	 */
	private void extended(Lease granted, Duration lease, long grantEndNanos, @Nullable RenewalOutcome outcome,
			long requestedAt) {
		if (granted.isEnded()) {
			return;
		}
		if (outcome == RenewalOutcome.RENEWED) {
			granted.renewed(requestedAt);
			ScheduledFuture<?> expiry = granted.expiry;
			if (expiry != null) {
				expiry.cancel(false);
				scheduleExpiry(granted);
			}
		}
		else if (outcome == RenewalOutcome.LOST) {
			notExtended(granted);
		}
		else {
			logger.debug("Could not extend the lock '" + LogSafe.escape(granted.key())
					+ "' granted by a release; asking again until its grant ends");
			long retryNanos = Math.min(EXTENSION_RETRY.toNanos(), grantEndNanos - System.nanoTime());
			try {
				schedule(() -> retryExtension(granted, lease, grantEndNanos), retryNanos);
			}
			catch (RejectedExecutionException ex) {
				// Closed meanwhile: the close released the grant
			}
		}
	}

	/**
	 * Ask again to extend a grant a wake-up carried, unless it was released or renewed by
	 * the watchdog meanwhile; report it lost if it ended.
	 */
	private void retryExtension(Lease granted, Duration lease, long grantEndNanos) {
		if (granted.isEnded() || granted.validUntilNanos() != grantEndNanos) {
			return;
		}
		if (grantEndNanos - System.nanoTime() <= 0) {
			notExtended(granted);
			return;
		}
		sendExtension(granted, lease, grantEndNanos);
	}

	private void notExtended(Lease granted) {
		this.watchdog.unwatch(granted);
		granted.reportLost(LossReason.EXPIRED, GRANT_NOT_EXTENDED);
		logger.warn("Lock '" + LogSafe.escape(granted.key()) + "' was lost: " + GRANT_NOT_EXTENDED);
		lost(granted);
	}

	/**
	 * Stop holding a grant locally: no more renewal, not held, no expiry task.
	 * @return whether this call ended the grant (and must release it in the store)
	 */
	boolean forget(Lease lease) {
		this.watchdog.unwatch(lease);
		this.held.remove(lease);
		ScheduledFuture<?> expiry = lease.expiry;
		if (expiry != null) {
			expiry.cancel(false);
		}
		return lease.end();
	}

	/**
	 * Give back a grant its caller will not get: released in the store at once, its local
	 * turn passed on.
	 */
	void abandon(Lease lease) {
		// Counted from before forget, so that a close never sees it neither held nor sent
		this.pending.begin();
		try {
			if (forget(lease)) {
				releaseInBackground(lease.entry, lease.token);
				passTurn(lease, null);
				unreserve(lease);
			}
		}
		finally {
			this.pending.end();
		}
	}

	/**
	 * Give up the reservation {@code lease} holds on its key's local entry, once.
	 */
	void unreserve(Lease lease) {
		if (lease.leaveEntry()) {
			unreserve(lease.entry);
		}
	}

	/**
	 * A fixed lease ran out while still held: the key is free in the store for every
	 * client, so the local turn passes on as well, the holder's loss signal completes,
	 * and the client forgets the hold (it no longer counts as held, nor shows to
	 * operators). The holder keeps its hold, which is no longer valid: releasing it asks
	 * the store, owner-checked, and reports the loss.
	 */
	private void expired(Lease lease) {
		if (!lease.isEnded()) {
			lease.ranOut();
			this.held.remove(lease);
			passTurn(lease, null);
			unreserve(lease);
		}
	}

	/**
	 * The watchdog found a lease lost: its local turn passes on.
	 */
	void lost(Lease lease) {
		if (!lease.isEnded()) {
			passTurn(lease, null);
		}
	}

	/**
	 * Pass the local turn a grant holds to the next local caller, once, with the lock if
	 * it was handed over in the store; a hand-over nobody took the turn for is released.
	 */
	void passTurn(Lease lease, @Nullable CohortGrant handedOver) {
		if (lease.passTurn()) {
			passTurn(lease.entry, handedOver);
		}
		else if (handedOver != null) {
			releaseInBackground(lease.entry, handedOver.token());
		}
	}

	void passTurn(LockEntry entry, @Nullable CohortGrant handedOver) {
		if (handedOver != null) {
			entry.handOver.set(handedOver);
		}
		if (!entry.queue.pass()) {
			entry.emptied = false;
			releaseHandOver(entry);
		}
	}

	/**
	 * Release a lock handed over to the caller taking the local turn of {@code entry}
	 * next, if it is still there.
	 */
	void releaseHandOver(LockEntry entry) {
		CohortGrant handedOver = entry.handOver.getAndSet(null);
		if (handedOver != null) {
			releaseInBackground(entry, handedOver.token());
		}
	}

	/**
	 * Release {@code token} in the store without waiting: an owner-checked release that
	 * only ever frees a lock this token still holds. A release the store failed (for
	 * example one sent while the store hung, after the grant it gives back) is sent again
	 * after each of {@link BackgroundReleases#RETRIES}, so that the lock does not stay
	 * taken for its whole lease. Closing the client waits for these releases (within its
	 * close timeout).
	 */
	CompletionStage<Boolean> releaseInBackground(LockEntry entry, String token) {
		return this.releases.release(entry, token);
	}

	/**
	 * Release {@code token} again in the background after the store failed the release
	 * the application asked for: as a {@link #releaseInBackground(LockEntry, String)
	 * background release} whose first request failed, but not before
	 * {@code notBeforeNanos} from now (what is left of a minimum hold time).
	 */
	void releaseAgain(LockEntry entry, String token, Throwable failure, long notBeforeNanos) {
		this.releases.releaseAgain(entry, token, failure, notBeforeNanos);
	}

	// Acquisitions under way

	boolean register(Acquiring acquisition) {
		this.pending.begin();
		this.active.add(acquisition);
		if (this.closed.get()) {
			unregister(acquisition);
			return false;
		}
		return true;
	}

	/**
	 * Count {@code next} as under way in place of {@code first}, the
	 * {@link UncontendedAttempt} it continues: a close never finds neither.
	 * @return whether the client is still open; if not, {@code next} gives up
	 */
	boolean continueAs(Acquiring first, Acquisition next) {
		this.active.add(next);
		if (!this.active.remove(first)) {
			this.pending.begin();
		}
		return !this.closed.get();
	}

	/**
	 * Count an acquisition as ended; called after it sent the releases of what it gives
	 * back.
	 */
	void unregister(Acquiring acquisition) {
		if (this.active.remove(acquisition)) {
			this.pending.end();
		}
	}

	/**
	 * Count {@code stage} (a store request an acquisition sends as it ends) as pending
	 * work until it completes.
	 */
	<T extends @Nullable Object> CompletionStage<T> track(CompletionStage<T> stage) {
		return this.pending.track(stage);
	}

	/**
	 * Return a future completed when no acquisition is under way and no release is
	 * pending in the background (retries included).
	 * @return completed at once if nothing is pending now
	 */
	CompletableFuture<Void> pendingWorkEnded() {
		return this.pending.ended();
	}

	/**
	 * Return how many acquisitions are under way: waiting for a turn, a reply or a
	 * release.
	 */
	int activeCount() {
		return this.active.size();
	}

	// Time and threads

	/**
	 * Return how many tasks the timer holds: re-checks, deadlines, fixed-lease expiries
	 * and the watchdog's round. A task of an acquisition that ended is cancelled and
	 * removed at once.
	 */
	int scheduledCount() {
		return this.timer.getQueue().size();
	}

	ScheduledFuture<?> schedule(Runnable task, long delayNanos) {
		return this.timer.schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
	}

	/**
	 * Return the executor that completes callers' futures, so that their continuations
	 * never run on a backend's I/O thread, once the listener has heard of what they
	 * learn.
	 */
	Executor callbacks() {
		return this::callback;
	}

	private void callback(Runnable task) {
		// after the listener has heard of the outcome the caller is about to learn
		this.listenerEvents.after(() -> completeCaller(task));
	}

	private void completeCaller(Runnable task) {
		try {
			this.callbacks.execute(task);
		}
		catch (RejectedExecutionException ex) {
			// Closed: complete on the calling thread
			task.run();
		}
	}

	/**
	 * Wait until the listener has heard of what was reported so far, before a blocking
	 * call returns.
	 */
	void awaitListener() {
		this.listenerEvents.awaitReported();
	}

	/**
	 * Return how many callers of this client wait in the store, one per key at most for
	 * write locks.
	 */
	int storeWaiterCount() {
		return this.storeWaiting.values().stream().mapToInt(AtomicInteger::get).sum();
	}

	boolean isClosed() {
		return this.closed.get();
	}

	IllegalStateException closedException() {
		return new IllegalStateException("LockClient " + this.clientId + " is closed");
	}

	void ensureOpen() {
		if (isClosed()) {
			throw closedException();
		}
	}

	/**
	 * Mark the engine closed and stop every acquisition under way.
	 * @return whether this call closed it
	 */
	boolean close() {
		if (!this.closed.compareAndSet(false, true)) {
			return false;
		}
		this.watchdog.close();
		this.sessionInterruptions.close();
		this.active.forEach((acquisition) -> acquisition.stop(closedException()));
		this.releases.close();
		return true;
	}

	void shutdownThreads() {
		this.timer.shutdownNow();
		this.callbacks.shutdown();
		this.listenerEvents.shutdown();
	}

	private static ThreadFactory daemonThreads(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, prefix + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

}
