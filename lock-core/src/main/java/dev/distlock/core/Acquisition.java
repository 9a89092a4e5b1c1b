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
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import dev.distlock.LockAcquisitionException;
import dev.distlock.LogSafe;
import dev.distlock.core.LockEntry.CohortGrant;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.FairGrantWakeUpExtension.ClockedAttempt;
import dev.distlock.store.FairGrantWakeUpExtension.FairGrant;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * One acquisition of one key or of several keys, as a non-blocking state machine: the one
 * acquisition pipeline of the engine, for every kind of lock ({@link AcquireVariant}) and
 * every API (blocking, {@code CompletionStage}, reactive).
 * <ol>
 * <li>Take the local turn of each key, in key order, for variants that queue locally
 * (adopting a lock the previous holder handed over); for one of several keys, the free
 * turns, queued for the others ({@link TurnTaking}).</li>
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
final class Acquisition implements Acquiring, TurnTaking.Steps {

	private static final Log logger = LogFactory.getLog(Acquisition.class);

	private final LockEngine engine;

	private final AcquireVariant variant;

	private final AcquireGoal goal;

	private final List<LockEntry> entries;

	private final List<Tracking> trackings;

	private final Duration lease;

	private final boolean renewable;

	private final Duration waitTime;

	private final CompletableFuture<List<Lease>> result = new CompletableFuture<>();

	private final SerialEvents events = new SerialEvents(this::failed);

	// State below: read and written only by the event being processed

	private final List<Lease> granted = new ArrayList<>();

	/** The key asked for next, and the owner tokens. */
	private final KeyCursor cursor;

	/** The deadline; once refused, the subscriptions, store-waiter count and re-check. */
	private final AcquireWait waiting;

	private final TurnTaking turns;

	private final LastRefusal refusal = new LastRefusal();

	private AcquisitionPhase phase = AcquisitionPhase.TAKING_TURNS;

	/**
	 * Why the acquisition was stopped while a request was in flight; the reply then gives
	 * up ({@link #replied}).
	 */
	private @Nullable Throwable stopped;

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
		this(engine, variant, goal, entries, track(engine, goal, name, entries), System.nanoTime(), waitNanos, waitTime,
				leaseTime);
	}

	/**
	 * Create an acquisition that an {@link UncontendedAttempt} began.
	 * @param trackings how it is reported to the listener, one per key
	 * @param startedAtNanos when it started, which its deadline counts from
	 */
	Acquisition(LockEngine engine, AcquireVariant variant, AcquireGoal goal, List<LockEntry> entries,
			List<Tracking> trackings, long startedAtNanos, long waitNanos, Duration waitTime,
			@Nullable Duration leaseTime) {
		this.engine = engine;
		this.variant = variant;
		this.goal = goal;
		this.entries = entries;
		this.trackings = trackings;
		this.cursor = new KeyCursor(entries, goal.start(), engine::newToken);
		this.waiting = new AcquireWait(engine, startedAtNanos, waitNanos, () -> post(this::onRecheck),
				() -> post(this::onDeadline));
		this.turns = new TurnTaking(engine, variant, goal, entries, this.waiting, this.cursor, this.refusal, this);
		this.lease = (leaseTime != null) ? leaseTime : engine.settings.watchdogLease();
		this.renewable = leaseTime == null;
		this.waitTime = waitTime;
	}

	/**
	 * Bind {@code goal} to the entries and report the acquisition's start to the
	 * listener.
	 * @return one tracking per key
	 */
	static List<Tracking> track(LockEngine engine, AcquireGoal goal, String name, List<LockEntry> entries) {
		goal.bind(engine, entries);
		return goal.track(engine, name, entries);
	}

	@Override
	public CompletableFuture<List<Lease>> start() {
		if (!this.engine.register(this)) {
			post(() -> finish(this.engine.closedException()));
			return this.result;
		}
		post(this.turns::take);
		return this.result;
	}

	/**
	 * Start the acquisition of one key whose local turn an {@link UncontendedAttempt}
	 * took, and then found a lock handed over with it, or a yield to wait out.
	 * @return its outcome, as {@link #start()} tells it
	 */
	CompletableFuture<List<Lease>> startHoldingTurn() {
		this.turns.tookFirst();
		return start();
	}

	/**
	 * Take over from an {@link UncontendedAttempt} whose request was refused, failed, or
	 * answered after the acquisition was stopped: the turn is taken, the request in
	 * flight. Call {@link #firstReplied} next, once this acquisition is where a stop
	 * reaches it.
	 * @param first the attempt this continues, under way in its place from now
	 * @param token the owner token the request asked with
	 * @param registered whether the request registered this client as waiting if refused
	 * @param reason why the acquisition was stopped meanwhile, or {@code null}
	 * @return its outcome, as {@link #start()} tells it
	 */
	CompletableFuture<List<Lease>> resume(Acquiring first, String token, boolean registered,
			@Nullable Throwable reason) {
		this.turns.tookFirst();
		this.cursor.useToken(0, token);
		if (registered) {
			this.waiting.registered(0);
		}
		enter(AcquisitionPhase.REQUESTING);
		this.stopped = reason;
		if (!this.engine.continueAs(first, this) && reason == null) {
			this.stopped = this.engine.closedException();
		}
		return this.result;
	}

	/**
	 * Take the reply to the request an {@link UncontendedAttempt} sent, as the reply to
	 * an attempt of this acquisition ({@link #resume}).
	 */
	void firstReplied(@Nullable ClockedAttempt reply, @Nullable Throwable failure, long requestedAt) {
		replied(() -> onAttempt((reply != null) ? List.of(reply) : null, failure, requestedAt));
	}

	@Override
	public void stop(Throwable reason) {
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
	 * Move to {@code next}: the one place the phase changes.
	 * {@link AcquisitionPhase#DONE} is final: a reply that arrives after the acquisition
	 * gave up leaves it done.
	 */
	private void enter(AcquisitionPhase next) {
		if (this.phase != AcquisitionPhase.DONE) {
			this.phase = next;
		}
	}

	@Override
	public boolean isDone() {
		return this.phase == AcquisitionPhase.DONE;
	}

	@Override
	public boolean isRequesting() {
		return this.phase == AcquisitionPhase.REQUESTING;
	}

	@Override
	public void waitForRelease() {
		enter(AcquisitionPhase.WAITING);
	}

	// Events

	@Override
	public void post(Runnable event) {
		this.events.post(event);
	}

	/**
	 * Post the reply to a store request: the acquisition waits again, {@code reply}
	 * records what the store did (a grant, a refusal, a failure) and returns the step
	 * that follows, which runs unless the acquisition was stopped while the request was
	 * in flight: then it gives up instead, releasing what the reply granted. The one
	 * place such a stop takes effect.
	 */
	private void replied(Supplier<Runnable> reply) {
		post(() -> {
			enter(AcquisitionPhase.WAITING);
			Runnable next = reply.get();
			if (isDone() || isRequesting()) {
				return;
			}
			Throwable reason = this.stopped;
			if (reason != null) {
				finish(reason);
				return;
			}
			next.run();
		});
	}

	private void failed(Throwable failure) {
		try {
			finish(failure);
		}
		catch (RuntimeException | Error ex) {
			failure.addSuppressed(ex);
			logger.warn("Acquisition of lock '" + LogSafe.escape(this.cursor.key()) + "' failed", failure);
		}
	}

	// Local turns

	/**
	 * Take the lock the previous holder handed over with the turn, setting the lease this
	 * caller asked for if it differs.
	 */
	@Override
	public void adopt(LockEntry entry, CohortGrant handedOver) {
		if (this.lease.equals(handedOver.lease())) {
			adopted(entry, handedOver, handedOver.requestedAtNanos()).endsBy(handedOver.endsByNanos());
			advance(null);
			return;
		}
		long requestedAt = System.nanoTime();
		enter(AcquisitionPhase.REQUESTING);
		Stages.send(() -> entry.ownership.expireAfter(entry.key, handedOver.token(), this.lease))
			.whenComplete((owned, failure) -> replied(() -> {
				if (failure == null && Boolean.TRUE.equals(owned)) {
					adopted(entry, handedOver, requestedAt);
					return () -> advance(null);
				}
				this.engine.releaseInBackground(entry, handedOver.token());
				this.cursor.askAll(false);
				return this::attempt;
			}));
	}

	private Lease adopted(LockEntry entry, CohortGrant handedOver, long requestedAt) {
		Lease adopted = this.engine.grant(entry, handedOver.token(), handedOver.fencingToken(), this.lease,
				this.renewable, requestedAt, this.trackings.get(0), handedOver.handOffs());
		adopted.sinceReading = handedOver.sinceReading();
		this.granted.add(adopted);
		return adopted;
	}

	// Store requests

	@Override
	public void attempt() {
		if (isDone()) {
			return;
		}
		if (this.engine.isClosed()) {
			finish(this.engine.closedException());
			return;
		}
		boolean waiting = this.waiting.waits() && this.waiting.remainingNanos() > 0;
		if (this.turns.isAnyKey()) {
			// A turn of one of several keys may come with the lock handed over
			LockEntry entry = this.entries.get(this.cursor.index());
			CohortGrant handedOver = entry.handOver.getAndSet(null);
			if (handedOver != null) {
				adopt(entry, handedOver);
				return;
			}
			if (waiting && !this.waiting.isSubscribed(waitKeys())) {
				// Listening before asking: a refusal then waits without asking again
				subscribe();
			}
		}
		enter(AcquisitionPhase.REQUESTING);
		this.waiting.requestSent();
		long requestedAt = System.nanoTime();
		CompletionStage<@Nullable List<ClockedAttempt>> request;
		if (this.cursor.isAll()) {
			request = Stages.send(this::requestAll);
		}
		else {
			int at = this.cursor.index();
			LockEntry entry = this.entries.get(at);
			String token = this.cursor.token(at);
			request = Stages.send(() -> this.variant.requestClocked(entry.key, token, this.lease, waiting))
				.thenApply(List::of);
			if (waiting) {
				this.waiting.registered(at);
			}
		}
		request.whenComplete((attempts, failure) -> replied(() -> onAttempt(attempts, failure, requestedAt)));
	}

	/**
	 * Record the reply to an attempt and return what follows it.
	 */
	private Runnable onAttempt(@Nullable List<ClockedAttempt> replies, @Nullable Throwable failure, long requestedAt) {
		if (failure != null) {
			// The store may still run the request: release what it may have granted
			this.cursor.requestedKeys()
				.forEach((i) -> this.engine.releaseInBackground(this.entries.get(i), this.cursor.token(i)));
			finish(Stages.unwrap(failure));
			return () -> {
			};
		}
		if (replies == null) {
			// The store cannot take these keys in one step: key by key
			this.cursor.askAll(false);
			return this::attempt;
		}
		List<Attempt> attempts = replies.stream().map(ClockedAttempt::attempt).toList();
		if (attempts.get(0).acquired()) {
			int first = this.cursor.first();
			for (int i : this.cursor.requestedKeys()) {
				this.granted.add(this.engine.grant(this.entries.get(i), this.cursor.token(i),
						attempts.get(i - first).fencingToken(), this.lease, this.renewable, requestedAt,
						this.trackings.get(i), 0));
			}
			this.waiting.unregistered(this.cursor.index());
			return () -> advance(null);
		}
		List<String> keys = this.cursor.requestedKeys().stream().map((i) -> this.entries.get(i).key).toList();
		this.refusal.refused(attempts, keys, requestedAt, replies.get(0).storeClockMillis());
		return this::afterRefusal;
	}

	private CompletionStage<@Nullable List<ClockedAttempt>> requestAll() {
		return this.variant.requestAll(this.cursor.keys(), this.cursor.tokenOfAll(), this.lease)
			.thenApply((attempts) -> (attempts != null) ? attempts.stream().map(ClockedAttempt::unclocked).toList()
					: null);
	}

	/**
	 * The one grant-and-advance: with what was just granted held, ask for the next key
	 * the goal needs, or succeed; a grant a wake-up carried ({@code fromWakeUp}) is
	 * extended to the lease asked for once the caller learns of it, and before the next
	 * key is asked for.
	 */
	private void advance(@Nullable Lease fromWakeUp) {
		int next = this.cursor.isAll() ? -1 : this.goal.afterGrant(this.cursor.index());
		if (next < 0) {
			succeed();
		}
		if (fromWakeUp != null) {
			this.engine.extend(fromWakeUp, this.lease);
		}
		if (next >= 0) {
			this.cursor.moveTo(next);
			this.waiting.closeSubscriptions();
			attempt();
		}
	}

	/**
	 * Refused: ask for another key that may serve, give up at the deadline, or wait for a
	 * release (subscribing first, then asking again, since a release before the
	 * subscription listened went unheard) with a re-check armed.
	 */
	private void afterRefusal() {
		int next = this.cursor.isAll() ? -1 : this.goal.next();
		if (next >= 0) {
			// Another key may serve: ask for it without waiting
			this.cursor.moveTo(next);
			attempt();
			return;
		}
		long remaining = this.waiting.remainingNanos();
		if (!this.waiting.waits() || remaining <= 0) {
			finish(null);
			return;
		}
		this.waiting.armDeadline();
		if (!this.waiting.isSubscribed(waitKeys())) {
			subscribe();
			// Ask again: a release before the subscription listened went unheard
			this.cursor.moveTo(this.goal.restart(this.cursor.index()));
			attempt();
			return;
		}
		if (this.waiting.wokeSinceRequest()) {
			attempt();
			return;
		}
		this.waiting.countAsWaiting(this.cursor.key());
		this.waiting
			.recheckIn(Math.min(remaining, Math.min(this.variant.maxRecheckNanos(), this.refusal.recheckNanos())));
	}

	// Waiting for a release

	private void subscribe() {
		// The keys waited for may have changed (one of several keys, as turns come)
		this.waiting.closeSubscriptions();
		this.waiting.subscribe(waitKeys(), (i) -> this.variant.subscribe(this.entries.get(i).key, this.cursor.token(i),
				(grant) -> post(() -> onWakeUp(i, grant))));
	}

	private List<Integer> waitKeys() {
		return this.cursor.isAll() ? this.cursor.requestedKeys() : this.goal.waitKeys(this.cursor.index());
	}

	/**
	 * A release that may let this caller in: attempt again, unless the wake-up carries a
	 * grant to the key asked for that has long enough left (a request in flight decides
	 * instead: it claims such a grant).
	 */
	private void onWakeUp(int at, @Nullable FairGrant grant) {
		this.waiting.wokeUp();
		this.goal.released(at);
		if (!isDone() && !isRequesting() && this.waiting.isRecheckArmed() && this.waiting.isSubscribed(waitKeys())) {
			this.waiting.cancelRecheck();
			int next = this.goal.next();
			if (next >= 0) {
				this.cursor.moveTo(next);
			}
			if (grant == null || at != this.cursor.index() || !takeGrant(grant)) {
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
		OptionalLong grantEnd = this.refusal.freshGrantEnd(grant);
		if (grantEnd.isEmpty()) {
			return false;
		}
		int at = this.cursor.index();
		Lease taken = this.engine.grantFromWakeUp(this.entries.get(at), this.cursor.token(at), grant.fencingToken(),
				this.lease, this.renewable, grantEnd.getAsLong(), this.trackings.get(at));
		this.granted.add(taken);
		// The release took this caller out of the store's queue
		this.waiting.unregistered(-1);
		advance(taken);
		return true;
	}

	private void onRecheck() {
		this.waiting.rechecked();
		if (!isDone() && !isRequesting()) {
			this.cursor.moveTo(this.goal.restart(this.cursor.index()));
			attempt();
		}
	}

	private void onDeadline() {
		this.waiting.deadlineReached();
		if (isDone() || isRequesting()) {
			// A reply in flight decides: it comes within the store's command timeout
			return;
		}
		finish(null);
	}

	// Outcomes

	private void succeed() {
		enter(AcquisitionPhase.DONE);
		// Counts as under way until it unregisters, after sending what it gives back
		this.waiting.end();
		for (int i = 0; i < this.granted.size(); i++) {
			this.trackings.get(i).acquired(this.granted.get(i).fencingToken);
		}
		this.turns.succeeded(() -> this.engine.track(this.waiting.leave(this.variant, this.cursor)));
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
	@Override
	public void finish(@Nullable Throwable failure) {
		if (isDone()) {
			return;
		}
		enter(AcquisitionPhase.DONE);
		// Counts as under way until it unregisters, after sending what it gives back
		this.waiting.end();
		this.granted.forEach((lease) -> {
			if (this.engine.forget(lease)) {
				this.engine.releaseInBackground(lease.entry, lease.token);
			}
		});
		this.turns.gaveUp(this.engine.track(this.waiting.leave(this.variant, this.cursor)), this.granted,
				failure == null);
		Throwable outcome = outcome(failure);
		AcquireOutcome kind = AcquireOutcome.of(failure);
		this.trackings.forEach((tracking) -> tracking.notAcquired(kind, failure));
		this.result.completeExceptionally(outcome);
		this.engine.unregister(this);
	}

	private Throwable outcome(@Nullable Throwable failure) {
		String key = this.cursor.key();
		if (failure == null) {
			return this.refusal.busyFailure(this.goal, key, this.cursor.keys(), this.waitTime);
		}
		if (failure instanceof InterruptedException) {
			return new LockAcquisitionException(key, this.waitTime, failure);
		}
		return failure;
	}

}
