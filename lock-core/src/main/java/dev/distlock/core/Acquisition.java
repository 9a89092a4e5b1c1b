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

import dev.distlock.store.support.Stages;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.LockAcquisitionException;
import dev.distlock.LogSafe;
import dev.distlock.core.LockEntry.CohortGrant;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.LockStore.FairGrant;
import dev.distlock.store.LockStore.Subscription;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * One acquisition of one key or of several keys, as a non-blocking state machine: the one
 * acquisition pipeline of the engine, for every kind of lock ({@link AcquireVariant}) and
 * every API (blocking, {@code CompletionStage}, reactive).
 * <ol>
 * <li>Take the local turn of each key, in key order, for variants that queue locally
 * (adopting a lock the previous holder handed over).</li>
 * <li>Attempt: one store request, for every key at once where the store can, else key by
 * key.</li>
 * <li>Then granted; or, if refused and time is left, waiting: subscribed to the releases
 * that may let this caller in, with one re-check armed on the engine's shared timer,
 * whichever comes first starting the next attempt; or given up: at the deadline, on
 * {@link #stop(Throwable) cancel, interrupt or close}, or on a store failure.</li>
 * </ol>
 * No thread waits on behalf of an acquisition: events (a turn, a reply, a release, a
 * timer) are processed one at a time by whichever thread delivers them, each step short
 * and non-blocking. A grant that arrives after the acquisition was stopped is released at
 * once; a request that failed is followed by an owner-checked release of its token, in
 * case the store runs it late. Giving up leaves the store's waiters, passes every taken
 * turn on, cancels every timer and closes every subscription.
 *
 * @author distlock
 * @since 0.1.0
 */
final class Acquisition {

	private static final Log logger = LogFactory.getLog(Acquisition.class);

	private static final long UNKNOWN_TTL_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private static final long MIN_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	private final LockEngine engine;

	private final AcquireVariant variant;

	private final AcquireGoal goal;

	private final List<LockEntry> entries;

	private final List<Tracking> trackings;

	private final Duration lease;

	private final boolean renewable;

	private final boolean waits;

	private final long deadline;

	/** Whether the caller waits without a bound: then no deadline task is scheduled. */
	private final boolean waitsForever;

	private final Duration waitTime;

	private final CompletableFuture<List<Lease>> result = new CompletableFuture<>();

	private final Queue<Runnable> events = new ConcurrentLinkedQueue<>();

	private final AtomicInteger pendingEvents = new AtomicInteger();

	// State below: read and written only by the event being processed

	private final List<Lease> granted = new ArrayList<>();

	private final List<Subscription> subscriptions = new ArrayList<>();

	private final String[] tokens;

	private int turns;

	private @Nullable CompletableFuture<Void> pendingTurn;

	/** Whether every key is asked for in one request. */
	private boolean all;

	/** The key asked for next, key by key. */
	private int index;

	/** The keys whose subscriptions are open, if any. */
	private @Nullable List<Integer> subscribedKeys;

	/** The key this caller registered as waiting for in the store; -1 for none. */
	private int registered = -1;

	private Phase phase = Phase.TAKING_TURNS;

	/** The key this caller is counted as waiting in the store for, if any. */
	private @Nullable String countedKey;

	private long wakeUps;

	/** The store's clock as the last refusal of one key told it, if it did. */
	private @Nullable StoreClockReading storeClock;

	private long wakeUpsAtRequest;

	private @Nullable ScheduledFuture<?> recheck;

	private @Nullable ScheduledFuture<?> deadlineTask;

	private boolean deadlineArmed;

	private @Nullable Throwable stopped;

	private @Nullable Duration holderLeaseRemaining;

	private @Nullable String busyKey;

	/**
	 * Create an acquisition.
	 * @param engine the client's engine
	 * @param variant the kind of lock
	 * @param goal which of the keys to hold
	 * @param entries the local entries of the keys, in key order; reserved by the caller
	 * (shared entries) or unshared
	 * @param name the lock name, for the listener
	 * @param waitNanos how long to wait, 0 for one attempt
	 * @param waitTime the wait time as given, for messages
	 * @param leaseTime the fixed lease, or {@code null} for the watchdog's
	 */
	Acquisition(LockEngine engine, AcquireVariant variant, AcquireGoal goal, List<LockEntry> entries, String name,
			long waitNanos, Duration waitTime, @Nullable Duration leaseTime) {
		this.engine = engine;
		this.variant = variant;
		this.goal = goal;
		this.entries = entries;
		this.trackings = goal.track(engine, name, entries);
		this.index = goal.start();
		this.lease = (leaseTime != null) ? leaseTime : engine.settings.watchdogLease();
		this.renewable = leaseTime == null;
		this.waits = waitNanos > 0;
		this.waitsForever = waitNanos >= Locks.forever();
		this.deadline = System.nanoTime() + waitNanos;
		this.waitTime = waitTime;
		this.tokens = new String[entries.size()];
	}

	/**
	 * Start the acquisition.
	 * @return its outcome: one lease per key, in key order; or a
	 * {@link LockAcquisitionException} when busy, a {@link CancellationException} when
	 * stopped, the store's failure, or an {@link IllegalStateException} when the client
	 * is closed
	 */
	CompletableFuture<List<Lease>> start() {
		if (!this.engine.register(this)) {
			post(() -> finish(this.engine.closedException()));
			return this.result;
		}
		post(this::takeTurns);
		return this.result;
	}

	/**
	 * Stop the acquisition: it gives up at once unless a request is in flight, in which
	 * case it gives up when the reply arrives, releasing a grant it brings.
	 * @param reason the outcome to report: a {@link CancellationException}, an
	 * interruption, the client's closing
	 */
	void stop(Throwable reason) {
		post(() -> {
			if (isDone() || this.stopped != null) {
				return;
			}
			this.stopped = reason;
			if (!isRequesting()) {
				finish(reason);
			}
		});
	}

	/**
	 * Move to {@code next}: the one place the phase changes. {@link Phase#DONE} is final:
	 * a reply that arrives after the acquisition gave up leaves it done.
	 */
	private void enter(Phase next) {
		if (this.phase != Phase.DONE) {
			this.phase = next;
		}
	}

	private boolean isDone() {
		return this.phase == Phase.DONE;
	}

	private boolean isRequesting() {
		return this.phase == Phase.REQUESTING;
	}

	// Events

	private void post(Runnable event) {
		this.events.add(event);
		if (this.pendingEvents.getAndIncrement() != 0) {
			return;
		}
		do {
			Runnable next = this.events.poll();
			try {
				if (next != null) {
					next.run();
				}
			}
			catch (RuntimeException | Error ex) {
				failed(ex);
			}
		}
		while (this.pendingEvents.decrementAndGet() != 0);
	}

	private void failed(Throwable failure) {
		try {
			finish(failure);
		}
		catch (RuntimeException | Error ex) {
			failure.addSuppressed(ex);
			logger.warn("Acquisition of lock '" + LogSafe.escape(key()) + "' failed", failure);
		}
	}

	private void takeTurns() {
		while (!isDone() && this.variant.takesTurn() && this.turns < this.entries.size()) {
			LockEntry entry = this.entries.get(this.turns);
			if (!this.waits) {
				if (!entry.queue.tryTake()) {
					this.busyKey = entry.key;
					finish(null);
					return;
				}
				tookTurn();
				continue;
			}
			CompletableFuture<Void> turn = entry.queue.enqueue();
			if (!turn.isDone()) {
				armDeadline();
				this.pendingTurn = turn;
				turn.thenRun(() -> post(this::onTurn));
				return;
			}
			tookTurn();
		}
		if (!isDone()) {
			turnsTaken();
		}
	}

	private void onTurn() {
		this.pendingTurn = null;
		if (isDone()) {
			// Granted while giving up: pass it on
			this.engine.passTurn(this.entries.get(this.turns), null);
			return;
		}
		tookTurn();
		takeTurns();
	}

	/**
	 * Count the turn of the next key as taken. A lock the previous holder handed over
	 * with it is for a caller of that key alone: a caller of several keys gives it back
	 * at once, rather than keep it while it queues for its other turns (where two clients
	 * could each keep one the other waits for).
	 */
	private void tookTurn() {
		LockEntry entry = this.entries.get(this.turns++);
		if (this.entries.size() > 1) {
			this.engine.releaseHandOver(entry);
		}
	}

	private void turnsTaken() {
		if (this.stopped != null) {
			finish(this.stopped);
			return;
		}
		if (this.variant.takesTurn() && this.entries.size() == 1) {
			LockEntry entry = this.entries.get(0);
			CohortGrant handedOver = entry.handOver.getAndSet(null);
			if (handedOver != null) {
				adopt(entry, handedOver);
				return;
			}
			long yieldNanos = Math.min(entry.yieldNanos.getAndSet(0), this.deadline - System.nanoTime());
			if (yieldNanos > 0) {
				armDeadline();
				enter(Phase.WAITING);
				this.recheck = this.engine.schedule(() -> post(this::onRecheck), yieldNanos);
				return;
			}
		}
		this.all = this.entries.size() > 1 && this.variant.atomicAll();
		attempt();
	}

	/**
	 * Take the lock the previous holder handed over with the turn, setting the lease this
	 * caller asked for if it differs.
	 */
	private void adopt(LockEntry entry, CohortGrant handedOver) {
		if (this.lease.equals(handedOver.lease())) {
			adopted(entry, handedOver, handedOver.requestedAtNanos());
			return;
		}
		long requestedAt = System.nanoTime();
		enter(Phase.REQUESTING);
		Stages.send(() -> entry.ownership.expireAfter(entry.key, handedOver.token(), this.lease))
			.whenComplete((owned, failure) -> post(() -> {
				enter(Phase.WAITING);
				if (failure == null && Boolean.TRUE.equals(owned)) {
					adopted(entry, handedOver, requestedAt);
					return;
				}
				this.engine.releaseInBackground(entry, handedOver.token());
				if (this.stopped != null) {
					finish(this.stopped);
					return;
				}
				this.all = false;
				attempt();
			}));
	}

	private void adopted(LockEntry entry, CohortGrant handedOver, long requestedAt) {
		this.granted.add(this.engine.grant(entry, handedOver.token(), handedOver.fencingToken(), this.lease,
				this.renewable, requestedAt, this.trackings.get(0), handedOver.handOffs()));
		if (this.stopped != null) {
			finish(this.stopped);
			return;
		}
		succeed();
	}

	private void attempt() {
		if (isDone()) {
			return;
		}
		if (this.engine.isClosed()) {
			finish(this.engine.closedException());
			return;
		}
		enter(Phase.REQUESTING);
		this.wakeUpsAtRequest = this.wakeUps;
		boolean waiting = this.waits && this.stopped == null && this.deadline - System.nanoTime() > 0;
		long requestedAt = System.nanoTime();
		CompletionStage<@Nullable List<Attempt>> request;
		if (this.all) {
			String token = token(0);
			for (int i = 1; i < this.tokens.length; i++) {
				this.tokens[i] = token;
			}
			request = requestAll(token);
		}
		else {
			int at = this.index;
			LockEntry entry = this.entries.get(at);
			request = Stages.send(() -> this.variant.request(entry.key, token(at), this.lease, waiting))
				.thenApply(List::of);
			if (waiting) {
				this.registered = at;
			}
		}
		request.whenComplete((attempts, failure) -> post(() -> onReply(attempts, failure, requestedAt)));
	}

	private void onReply(@Nullable List<Attempt> attempts, @Nullable Throwable failure, long requestedAt) {
		enter(Phase.WAITING);
		if (failure != null) {
			// The store may still run the request: release what it may have granted
			requestedKeys().forEach((i) -> this.engine.releaseInBackground(this.entries.get(i), token(i)));
			finish(Stages.unwrap(failure));
			return;
		}
		if (attempts == null) {
			// The store cannot take these keys in one step: key by key
			this.all = false;
			attempt();
			return;
		}
		if (attempts.get(0).acquired()) {
			for (int i : requestedKeys()) {
				this.granted
					.add(this.engine.grant(this.entries.get(i), token(i), attempts.get(i - first()).fencingToken(),
							this.lease, this.renewable, requestedAt, this.trackings.get(i), 0));
			}
			if (this.registered == this.index) {
				this.registered = -1;
			}
			if (this.stopped != null) {
				finish(this.stopped);
				return;
			}
			int next = this.all ? -1 : this.goal.afterGrant(this.index);
			if (next < 0) {
				succeed();
				return;
			}
			this.index = next;
			closeSubscriptions();
			attempt();
			return;
		}
		refused(attempts);
		Attempt refusal = attempts.get(0);
		this.storeClock = (!this.all && refusal.knowsStoreClock())
				? new StoreClockReading(requestedAt, refusal.storeClockMillis()) : null;
		if (this.stopped != null) {
			finish(this.stopped);
			return;
		}
		int next = this.all ? -1 : this.goal.next();
		if (next >= 0) {
			// Another key may serve: ask for it without waiting
			this.index = next;
			attempt();
			return;
		}
		long remaining = this.deadline - System.nanoTime();
		if (!this.waits || remaining <= 0) {
			finish(null);
			return;
		}
		armDeadline();
		if (!isSubscribed()) {
			subscribe();
			// Ask again: a release before the subscription listened went unheard
			this.index = this.goal.restart(this.index);
			attempt();
			return;
		}
		if (this.wakeUps != this.wakeUpsAtRequest) {
			attempt();
			return;
		}
		if (this.countedKey == null) {
			this.countedKey = key();
			this.engine.waitingInStore(this.countedKey, 1);
		}
		long delay = Math.min(remaining, Math.min(this.variant.maxRecheckNanos(), recheckNanos()));
		this.recheck = this.engine.schedule(() -> post(this::onRecheck), delay);
	}

	private void refused(List<Attempt> attempts) {
		List<Integer> keys = requestedKeys();
		for (int i = 0; i < attempts.size(); i++) {
			Duration remaining = attempts.get(i).holderLeaseRemaining();
			if (remaining != null || i == attempts.size() - 1) {
				this.holderLeaseRemaining = remaining;
				this.busyKey = this.entries.get(keys.get(i)).key;
				return;
			}
		}
	}

	/**
	 * A release that may let this caller in: attempt again, unless the wake-up carries a
	 * grant to the key asked for that has long enough left (a request in flight decides
	 * instead: it claims such a grant).
	 */
	private void onWakeUp(int at, @Nullable FairGrant grant) {
		this.wakeUps++;
		this.goal.released(at);
		ScheduledFuture<?> armed = this.recheck;
		if (!isDone() && !isRequesting() && armed != null && isSubscribed()) {
			armed.cancel(false);
			this.recheck = null;
			int next = this.goal.next();
			if (next >= 0) {
				this.index = next;
			}
			if (grant == null || at != this.index || !takeGrant(grant)) {
				attempt();
			}
		}
	}

	/**
	 * Hold the lock a release granted this caller without asking the store again, if the
	 * store's clock places the grant's end far enough ahead: at least half its lifetime
	 * (an older grant, or one whose message was slow, is claimed by an attempt instead).
	 */
	private boolean takeGrant(FairGrant grant) {
		StoreClockReading clock = this.storeClock;
		if (clock == null) {
			return false;
		}
		long grantEnd = clock.grantEndNanos(grant);
		if (grantEnd - System.nanoTime() < grant.lifetime().toNanos() / 2) {
			return false;
		}
		Lease taken = this.engine.grantFromWakeUp(this.entries.get(this.index), token(this.index), grant.fencingToken(),
				this.lease, this.renewable, grantEnd, this.trackings.get(this.index));
		this.granted.add(taken);
		// The release took this caller out of the store's queue
		this.registered = -1;
		int next = this.goal.afterGrant(this.index);
		if (next < 0) {
			succeed();
			this.engine.extend(taken, this.lease);
			return true;
		}
		this.engine.extend(taken, this.lease);
		this.index = next;
		closeSubscriptions();
		attempt();
		return true;
	}

	private void onRecheck() {
		this.recheck = null;
		if (!isDone() && !isRequesting()) {
			this.index = this.goal.restart(this.index);
			attempt();
		}
	}

	/**
	 * Arm the deadline once the caller waits (for a local turn, a yield or a release): an
	 * acquisition whose first attempt is answered at once needs no timer task. Until then
	 * each reply checks the deadline itself.
	 */
	private void armDeadline() {
		if (this.deadlineArmed || !this.waits || this.waitsForever) {
			return;
		}
		this.deadlineArmed = true;
		this.deadlineTask = this.engine.schedule(() -> post(this::onDeadline), this.deadline - System.nanoTime());
	}

	private void onDeadline() {
		this.deadlineTask = null;
		if (isDone() || isRequesting()) {
			// A reply in flight decides: it comes within the store's command timeout
			return;
		}
		finish(null);
	}

	// Outcomes

	private void succeed() {
		enter(Phase.DONE);
		cleanUp();
		for (int i = 0; i < this.granted.size(); i++) {
			this.trackings.get(i).acquired(this.granted.get(i).fencingToken);
		}
		if (!this.result.complete(List.copyOf(this.granted))) {
			this.granted.forEach(this.engine::abandon);
		}
		this.engine.unregister(this);
	}

	/**
	 * Give up: busy ({@code failure == null}), stopped, closed or failed. Every grant is
	 * released, every turn passed on (after leaving the store's waiters, so that the next
	 * local caller registers after this one left), every entry unreserved.
	 */
	private void finish(@Nullable Throwable failure) {
		if (isDone()) {
			return;
		}
		enter(Phase.DONE);
		cleanUp();
		this.granted.forEach((lease) -> {
			if (this.engine.forget(lease)) {
				this.engine.releaseInBackground(lease.entry, lease.token);
			}
		});
		CompletableFuture<Void> turn = this.pendingTurn;
		if (turn != null) {
			if (failure == null) {
				this.busyKey = this.entries.get(this.turns).key;
			}
			// If the turn came meanwhile, onTurn passes it on
			this.entries.get(this.turns).queue.abandon(turn);
		}
		List<LockEntry> turnsToPass = new ArrayList<>(this.turns);
		for (int i = 0; i < this.turns; i++) {
			// A fixed lease that ran out meanwhile passed its turn on already
			if (i >= this.granted.size() || this.granted.get(i).passTurn()) {
				turnsToPass.add(this.entries.get(i));
			}
		}
		this.engine.track(leave()).whenComplete((ignored, leaveFailure) -> {
			turnsToPass.forEach((entry) -> this.engine.passTurn(entry, null));
			unreserveEntries();
		});
		Throwable outcome = outcome(failure);
		AcquireOutcome kind = (failure == null) ? AcquireOutcome.BUSY
				: (failure instanceof CancellationException || failure instanceof InterruptedException)
						? AcquireOutcome.INTERRUPTED : AcquireOutcome.ERROR;
		this.trackings.forEach((tracking) -> tracking.notAcquired(kind, failure));
		this.result.completeExceptionally(outcome);
		this.engine.unregister(this);
	}

	/**
	 * Give up the reservations of the local entries: a grant's own once (a fixed lease
	 * that ran out meanwhile gave its up already), the others' directly.
	 */
	private void unreserveEntries() {
		for (int i = 0; i < this.entries.size(); i++) {
			if (i < this.granted.size()) {
				this.engine.unreserve(this.granted.get(i));
			}
			else {
				this.engine.unreserve(this.entries.get(i));
			}
		}
	}

	private Throwable outcome(@Nullable Throwable failure) {
		if (failure == null) {
			String key = this.goal.busyKey((this.busyKey != null) ? this.busyKey : key(), keys());
			return LockAcquisitionException.busy(key, this.waitTime, this.holderLeaseRemaining);
		}
		if (failure instanceof InterruptedException) {
			return new LockAcquisitionException(key(), this.waitTime, failure);
		}
		return failure;
	}

	private CompletionStage<Void> leave() {
		int at = this.registered;
		if (at < 0) {
			return CompletableFuture.completedFuture(null);
		}
		String key = this.entries.get(at).key;
		return Stages.send(() -> this.variant.leave(key, token(at))).handle((ignored, failure) -> {
			if (failure != null) {
				logger.debug("Could not stop waiting for lock '" + LogSafe.escape(key)
						+ "'; the registration expires on its own", Stages.unwrap(failure));
			}
			return null;
		});
	}

	/**
	 * Cancel the timer tasks and close the subscriptions. The acquisition counts as under
	 * way until it unregisters, after sending what it gives back.
	 */
	private void cleanUp() {
		cancel(this.recheck);
		cancel(this.deadlineTask);
		this.recheck = null;
		this.deadlineTask = null;
		closeSubscriptions();
	}

	// Helpers

	private void subscribe() {
		List<Integer> keys = waitKeys();
		for (int i : keys) {
			LockEntry entry = this.entries.get(i);
			this.subscriptions
				.add(this.variant.subscribe(entry.key, token(i), (grant) -> post(() -> onWakeUp(i, grant))));
		}
		this.subscribedKeys = keys;
	}

	private boolean isSubscribed() {
		return waitKeys().equals(this.subscribedKeys);
	}

	private List<Integer> waitKeys() {
		return this.all ? requestedKeys() : this.goal.waitKeys(this.index);
	}

	private void closeSubscriptions() {
		this.subscriptions.forEach(Subscription::close);
		this.subscriptions.clear();
		this.subscribedKeys = null;
		String counted = this.countedKey;
		if (counted != null) {
			this.countedKey = null;
			this.engine.waitingInStore(counted, -1);
		}
	}

	private List<Integer> requestedKeys() {
		if (!this.all) {
			return List.of(this.index);
		}
		List<Integer> keys = new ArrayList<>(this.entries.size());
		for (int i = 0; i < this.entries.size(); i++) {
			keys.add(i);
		}
		return keys;
	}

	private int first() {
		return this.all ? 0 : this.index;
	}

	private List<String> keys() {
		return this.entries.stream().map((entry) -> entry.key).toList();
	}

	private String key() {
		return this.entries.get(Math.min(this.index, this.entries.size() - 1)).key;
	}

	private String token(int at) {
		String token = this.tokens[at];
		if (token == null) {
			token = this.engine.newToken();
			this.tokens[at] = token;
		}
		return token;
	}

	private long recheckNanos() {
		Duration remaining = this.holderLeaseRemaining;
		if (remaining == null) {
			return UNKNOWN_TTL_RECHECK_NANOS;
		}
		return Math.max(MIN_RECHECK_NANOS, remaining.toNanos());
	}

	// Not Stages.send: NullAway cannot match a lambda's nullable type argument there
	private CompletionStage<@Nullable List<Attempt>> requestAll(String token) {
		try {
			return this.variant.requestAll(keys(), token, this.lease);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	private static void cancel(@Nullable ScheduledFuture<?> task) {
		if (task != null) {
			task.cancel(false);
		}
	}

	/**
	 * Where an acquisition is: each event reads it, and only {@link #enter(Phase)}
	 * changes it.
	 */
	private enum Phase {

		/** Queued for the local turn of each key, for variants that take one. */
		TAKING_TURNS,

		/** A store request is in flight; its reply decides what comes next. */
		REQUESTING,

		/**
		 * Refused, or handed a turn with a yield: waiting for a release, a re-check or
		 * the deadline, whichever comes first.
		 */
		WAITING,

		/** Granted or given up; nothing changes any more. */
		DONE

	}

}
