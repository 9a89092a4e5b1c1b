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
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.distlock.store.FairGrantWakeUpExtension.ClockedAttempt;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.support.Stages;
import org.jspecify.annotations.Nullable;

/**
 * The uncontended fast path of a non-fair lock of one key
 * ({@link LockClientSettings#uncontendedFastPath()}): the first attempt of its
 * {@link Acquisition}, sent before the acquisition exists. If the key's local turn is
 * free (no caller of this client holds or waits for the key), the caller takes it and
 * sends the store the request the acquisition would send first; a grant is registered and
 * returned at once, one store request and one reply stage in all. A read lock has no
 * local turn to take (its entry is the caller's own, its turn taken), so every read lock
 * of one key starts this way. Anything else becomes an {@link Acquisition}: a turn not
 * free, from the start; a lock handed over with the turn or a yield to wait out, holding
 * the turn; a refusal, a failure, or any reply to a caller that stopped meanwhile or a
 * client that closed, holding the turn and taking the reply as its first attempt's, so
 * that nothing is asked twice and the caller keeps its place. Local exclusion is the
 * turn's: a caller of the same key that arrives meanwhile queues for it.
 *
 * @author distlock
 * @since 0.1.0
 */
final class UncontendedAttempt implements Acquiring {

	private final LockEngine engine;

	private final AcquireVariant variant;

	private final LockEntry entry;

	private final String name;

	private final long waitNanos;

	private final Duration waitTime;

	private final @Nullable Duration leaseTime;

	private final CompletableFuture<List<Lease>> result = new CompletableFuture<>();

	// Guarded by this: the stop and the reply may race

	/** Why the caller stopped while the request was in flight, if it did. */
	private @Nullable Throwable stopped;

	/** The acquisition this became, if it did. */
	private @Nullable Acquisition acquisition;

	private boolean granted;

	/**
	 * Create the fast path of an acquisition of one key.
	 * @param engine the client's engine
	 * @param variant the kind of lock, one with a fast path
	 * ({@link AcquireVariant#hasFastPath()})
	 * @param entry the key's local entry: reserved by the caller for a variant that takes
	 * a local turn, else the caller's own
	 * @param name the lock name, for the listener
	 * @param waitNanos how long to wait, 0 for one attempt
	 * @param waitTime the wait time as given, for messages
	 * @param leaseTime the fixed lease, or {@code null} for the watchdog's
	 */
	UncontendedAttempt(LockEngine engine, AcquireVariant variant, LockEntry entry, String name, long waitNanos,
			Duration waitTime, @Nullable Duration leaseTime) {
		this.engine = engine;
		this.variant = variant;
		this.entry = entry;
		this.name = name;
		this.waitNanos = waitNanos;
		this.waitTime = waitTime;
		this.leaseTime = leaseTime;
	}

	@Override
	public CompletableFuture<List<Lease>> start() {
		long startedAt = System.nanoTime();
		if (this.variant.takesTurn() && !this.entry.queue.tryTake()) {
			return become(new Acquisition(this.engine, this.variant, goal(), List.of(this.entry), this.name,
					this.waitNanos, this.waitTime, this.leaseTime))
				.start();
		}
		List<Tracking> trackings = Acquisition.track(this.engine, goal(), this.name, List.of(this.entry));
		if (this.entry.handOver.get() != null || this.entry.yieldNanos.get() != 0 || !this.engine.register(this)) {
			return become(acquisition(trackings, startedAt)).startHoldingTurn();
		}
		String token = this.engine.newToken();
		Duration lease = (this.leaseTime != null) ? this.leaseTime : this.engine.settings.watchdogLease();
		boolean waiting = this.waitNanos > 0;
		long requestedAt = System.nanoTime();
		Stages.send(() -> this.variant.request(this.entry.key, token, lease, waiting))
			.whenComplete((attempt, failure) -> replied(attempt, failure, trackings, startedAt, token, lease, waiting,
					requestedAt));
		return this.result;
	}

	@Override
	public void stop(Throwable reason) {
		Acquisition became;
		synchronized (this) {
			became = this.acquisition;
			if (became == null) {
				if (!this.granted && this.stopped == null) {
					// The reply decides: it comes within the store's command timeout
					this.stopped = reason;
				}
				return;
			}
		}
		became.stop(reason);
	}

	/**
	 * Take the reply: a grant to a caller still waiting for it is held and returned;
	 * anything else is the first attempt of an {@link Acquisition}, which decides.
	 */
	private void replied(@Nullable Attempt attempt, @Nullable Throwable failure, List<Tracking> trackings,
			long startedAt, String token, Duration lease, boolean waiting, long requestedAt) {
		Attempt grant = (failure == null && attempt != null && attempt.acquired()) ? attempt : null;
		Acquisition became;
		synchronized (this) {
			if (grant != null && this.stopped == null && !this.engine.isClosed()) {
				this.granted = true;
				became = null;
			}
			else {
				became = become(acquisition(trackings, startedAt));
				became.resume(this, token, waiting, this.stopped).whenComplete(this::complete);
			}
		}
		if (became != null) {
			became.firstReplied((attempt != null) ? ClockedAttempt.unclocked(attempt) : null, failure, requestedAt);
		}
		else if (grant != null) {
			Tracking tracking = trackings.get(0);
			Lease held = this.engine.grant(this.entry, token, grant.fencingToken(), lease, this.leaseTime == null,
					requestedAt, tracking, 0);
			tracking.acquired(held.fencingToken);
			this.result.complete(List.of(held));
			this.engine.unregister(this);
		}
	}

	private Acquisition acquisition(List<Tracking> trackings, long startedAt) {
		return new Acquisition(this.engine, this.variant, goal(), List.of(this.entry), trackings, startedAt,
				this.waitNanos, this.waitTime, this.leaseTime);
	}

	private synchronized Acquisition become(Acquisition acquisition) {
		this.acquisition = acquisition;
		return acquisition;
	}

	private void complete(@Nullable List<Lease> leases, @Nullable Throwable failure) {
		if (failure != null) {
			this.result.completeExceptionally(failure);
		}
		else {
			this.result.complete(leases);
		}
	}

	private static AcquireGoal goal() {
		return new AcquireGoal.AllKeys(1);
	}

}
