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
import dev.distlock.store.SessionLeaseExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * One grant of one key by the store: its owner token, fencing token and what this client
 * believes of its validity. Every acquisition gets a new lease object, so a late renewal
 * or loss report can only ever touch the grant it was made for.
 * <p>
 * The local view of validity ends a clock-drift margin before the lease can end in the
 * store (1% of the lease plus 2 ms, counted from before the request was sent), so a
 * holder stops believing it holds the lock before anyone else can take it, even if the
 * backend's clock runs slightly fast.
 *
 * @author distlock
 * @since 0.1.0
 */
final class Lease {

	static final String EXPIRED = "its lease ran out before it was renewed or released";

	private static final long MIN_DRIFT_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

	final LockEntry entry;

	final String token;

	final long fencingToken;

	final boolean renewable;

	final long acquiredAtNanos;

	private final long leaseNanos;

	private volatile long validUntilNanos;

	/** Whether the view was ended for good: no renewal extends it again. */
	private boolean viewEnded;

	/** Why the view was ended for good, asked when the reason is read, if known. */
	private volatile @Nullable Supplier<@Nullable String> viewEndReason;

	/** The last reason {@link #viewEndReason} gave, kept once the store forgot it. */
	private volatile @Nullable String lastViewEndReason;

	private final AtomicReference<@Nullable Loss> loss = new AtomicReference<>();

	/**
	 * Completed with the kind of loss once the grant is known lost; never by a release.
	 */
	private final CompletableFuture<LossReason> lostSignal = new CompletableFuture<>();

	private final AtomicBoolean ended = new AtomicBoolean();

	private final AtomicBoolean turnPassed = new AtomicBoolean();

	private final AtomicBoolean entryLeft = new AtomicBoolean();

	/** The name of the thread holding this grant through a lock handle, if any. */
	volatile @Nullable String holderThread;

	/** The task that passes the local turn on when a fixed lease runs out, if any. */
	volatile @Nullable ScheduledFuture<?> expiry;

	/**
	 * The watchdog's task that reports the lease lost when its local view runs out while
	 * renewals fail, if any.
	 */
	volatile @Nullable ScheduledFuture<?> runOut;

	/** The name and listener of the acquisition that got this grant. */
	final Tracking tracking;

	/** When the grant was received (wall clock, for operators). */
	final Instant acquiredAt = Instant.now();

	/** Whether the watchdog's last attempt to renew this lease failed in the store. */
	volatile boolean renewalFailing;

	/**
	 * How many cohort hand-overs in a row, while another client waited, led to this
	 * lease: 0 for a lease taken from the store or handed over with no other client
	 * waiting.
	 */
	volatile int handOffs;

	/**
	 * How many hand-overs without a request led to this lease since the store last told
	 * whether another client waits ({@link LocalHandOver}): {@link LocalHandOver#RUN} for
	 * a lease taken from the store, which has not told.
	 */
	volatile int sinceReading = LocalHandOver.RUN;

	/**
	 * Create the lease of a grant.
	 * @param entry the key's local state
	 * @param token the owner token
	 * @param fencingToken the fencing token
	 * @param lease the lease the store was asked for
	 * @param renewable whether the watchdog renews it
	 * @param requestedAtNanos when the acquire request was sent
	 * ({@link System#nanoTime()})
	 * @param tracking the name and listener of the acquisition
	 */
	Lease(LockEntry entry, String token, long fencingToken, Duration lease, boolean renewable, long requestedAtNanos,
			Tracking tracking) {
		this.tracking = tracking;
		this.entry = entry;
		this.token = token;
		this.fencingToken = fencingToken;
		this.renewable = renewable;
		this.acquiredAtNanos = requestedAtNanos;
		this.leaseNanos = lease.toNanos();
		this.validUntilNanos = validUntil(requestedAtNanos);
	}

	String key() {
		return this.entry.key;
	}

	/**
	 * Record a renewal whose request was sent at {@code requestedAtNanos}; an answer to
	 * an older request, arriving after a newer one's, never shortens the view.
	 * @param requestedAtNanos when the renewal request was sent
	 */
	synchronized void renewed(long requestedAtNanos) {
		if (this.viewEnded) {
			return;
		}
		long until = validUntil(requestedAtNanos);
		if (until - this.validUntilNanos > 0) {
			this.validUntilNanos = until;
		}
		this.renewalFailing = false;
	}

	/**
	 * Bound the local view of a grant whose store lease started before its request (a
	 * grant a fair waiter's wake-up carried) until it is extended.
	 * @param endNanos when the grant ends in the store, at the latest, locally
	 * ({@link System#nanoTime()})
	 */
	void endsBy(long endNanos) {
		this.validUntilNanos = Math.min(this.validUntilNanos, endNanos);
	}

	/**
	 * End the local view of the lease now, for good: a renewal answered afterwards, even
	 * one sent before, never makes it valid again. Used when the store's session is
	 * interrupted ({@link SessionLeaseExtension#onSessionInterrupted}).
	 * @param nowNanos the current time ({@link System#nanoTime()})
	 * @param reason tells why, when asked (the store's reason, known best later), or
	 * answers {@code null} for the generic one
	 */
	synchronized void endView(long nowNanos, Supplier<@Nullable String> reason) {
		this.viewEnded = true;
		this.viewEndReason = reason;
		this.validUntilNanos = Math.min(this.validUntilNanos, nowNanos);
	}

	private synchronized boolean isViewEnded() {
		return this.viewEnded;
	}

	/**
	 * Record that the lock was found lost; the first reason wins.
	 * @param kind the kind of loss, for metrics
	 * @param reason how the loss was found
	 */
	void lost(LossReason kind, String reason) {
		this.loss.compareAndSet(null, new Loss(kind, reason));
	}

	/**
	 * Record that the lock was found lost and tell the listener, once. A loss already
	 * recorded, or a lease whose local view had already run out, keeps its own kind: a
	 * key found gone after the lease ran out expired rather than being taken. A view
	 * ended by an interrupted session ({@link #endView}) is the exception: the store
	 * knows best what became of the lock, for example that its session expired.
	 * @param kind the kind of loss, for metrics, unless one is already known
	 * @param reason how the loss was found
	 */
	void reportLost(LossReason kind, String reason) {
		LossReason known = (isViewEnded() && this.loss.get() == null) ? null : lossKind();
		lost((known != null) ? known : kind, reason);
		LossReason recorded = lossKind();
		LossReason reported = (recorded != null) ? recorded : kind;
		this.tracking.lost(reported);
		this.lostSignal.complete(reported);
	}

	/**
	 * Signal that the local view of a fixed lease ran out: the lock is free in the store
	 * for every client from now on.
	 */
	void ranOut() {
		LossReason kind = lossKind();
		this.lostSignal.complete((kind != null) ? kind : LossReason.EXPIRED);
	}

	/**
	 * Return a stage completed with the kind of loss once this grant is known lost, never
	 * by a release; it completes on {@code executor}, so that its dependents never run on
	 * the thread that found the loss.
	 * @param executor where the stage completes
	 * @return the stage, one per call
	 */
	CompletionStage<LossReason> whenLost(Executor executor) {
		return this.lostSignal.thenApplyAsync(Function.identity(), executor);
	}

	/**
	 * Return the kind of loss, or {@code null} while the grant is believed valid: the
	 * recorded one, else {@link LossReason#EXPIRED} (or {@link LossReason#BACKEND} while
	 * the watchdog cannot reach the store) once the local view of the lease ran out.
	 * @return the kind of loss, if any
	 */
	@Nullable LossReason lossKind() {
		Loss recorded = this.loss.get();
		if (recorded != null) {
			return recorded.kind();
		}
		if (System.nanoTime() - this.validUntilNanos >= 0) {
			return this.renewalFailing ? LossReason.BACKEND : LossReason.EXPIRED;
		}
		return null;
	}

	/**
	 * Return how long the local view of the lease has left.
	 * @return the remaining lease, zero once run out
	 */
	Duration remaining() {
		return Duration.ofNanos(Math.max(0, this.validUntilNanos - System.nanoTime()));
	}

	/**
	 * Return why this grant is known to be lost, or {@code null} while it is believed
	 * valid.
	 * @return the loss reason, if any
	 */
	@Nullable String lossReason() {
		Loss recorded = this.loss.get();
		if (recorded == null && System.nanoTime() - this.validUntilNanos >= 0) {
			Supplier<@Nullable String> reason = this.viewEndReason;
			String known = (reason != null) ? reason.get() : null;
			if (known != null) {
				this.lastViewEndReason = known;
				return known;
			}
			String last = this.lastViewEndReason;
			return (last != null) ? last : EXPIRED;
		}
		return (recorded != null) ? recorded.reason() : null;
	}

	/**
	 * Mark the grant ended (released, or released on its holder's behalf at close).
	 * @return {@code true} for the one caller that ended it, who must release it in the
	 * store
	 */
	boolean end() {
		return this.ended.compareAndSet(false, true);
	}

	boolean isEnded() {
		return this.ended.get();
	}

	/**
	 * Mark the local turn this grant holds as passed on: at its release, or earlier when
	 * its lease ran out or was lost, so that the next local caller may take the key as
	 * any other client may.
	 * @return {@code true} for the one caller that passes it on
	 */
	boolean passTurn() {
		return this.turnPassed.compareAndSet(false, true);
	}

	/**
	 * Mark the reservation this grant holds on its key's local entry as given up: at its
	 * release, or earlier when its fixed lease ran out.
	 * @return {@code true} for the one caller that gives it up
	 */
	boolean leaveEntry() {
		return this.entryLeft.compareAndSet(false, true);
	}

	/**
	 * Return when the local view of the lease runs out.
	 * @return the end of the local view ({@link System#nanoTime()})
	 */
	long validUntilNanos() {
		return this.validUntilNanos;
	}

	private record Loss(LossReason kind, String reason) {

	}

	private long validUntil(long requestedAtNanos) {
		return requestedAtNanos + this.leaseNanos - driftNanos(this.leaseNanos);
	}

	/**
	 * Return the margin kept for clock drift on a lease of {@code leaseNanos}: 1% of it
	 * plus 2 ms.
	 * @param leaseNanos the lease
	 * @return the margin
	 */
	static long driftNanos(long leaseNanos) {
		return leaseNanos / 100 + MIN_DRIFT_NANOS;
	}

}
