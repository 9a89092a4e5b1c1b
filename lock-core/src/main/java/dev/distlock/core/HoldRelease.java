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
import dev.distlock.store.HandOverExtension;
import dev.distlock.store.HandOverExtension.HandOff;
import dev.distlock.store.support.Stages;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import dev.distlock.LockLostException;
import dev.distlock.core.LockEntry.CohortGrant;
import dev.distlock.store.LockStore.Attempt;
import org.jspecify.annotations.Nullable;

/**
 * Ends holds without blocking: releases a lease in the store, or keeps it for what is
 * left of a minimum hold time, or hands it over to the next local caller of the same key
 * (lock cohorting), without a request where {@link LocalHandOver} allows; then passes the
 * local turn on, whatever the store said, and tells the holder if its lock was lost
 * meanwhile.
 *
 * @author distlock
 * @since 0.1.0
 */
final class HoldRelease {

	static final String CLOSED = "the LockClient was closed while it was held";

	static final String NOT_OWNER = "the store no longer records this holder as the owner";

	static final String GONE = "its key expired or has another owner when it was released";

	/**
	 * The longest a caller waits before it asks the store after a run of cohort
	 * hand-overs ended.
	 */
	private static final long MAX_YIELD_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	private static final long MIN_KEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	private final LockEngine engine;

	/** When to hand the lock over without a request. */
	private final LocalHandOver local;

	HoldRelease(LockEngine engine) {
		this.engine = engine;
		this.local = new LocalHandOver(engine);
	}

	/**
	 * End a hold.
	 * @param lease the grant
	 * @param holdAtLeast the minimum hold time, or {@code null}
	 * @return completed when the store answered; failed with {@link LockLostException} if
	 * the lock was lost before, or with the store's failure (the lock is then released
	 * again in the background, as {@link LockEngine#releaseAgain} does)
	 */
	CompletableFuture<Void> release(Lease lease, @Nullable Duration holdAtLeast) {
		if (!this.engine.forget(lease)) {
			String loss = lease.lossReason();
			return CompletableFuture.failedFuture(new LockLostException(lease.key(), (loss != null) ? loss : CLOSED));
		}
		long keepNanos = (holdAtLeast != null) ? holdAtLeast.toNanos() - (System.nanoTime() - lease.acquiredAtNanos)
				: 0;
		CompletionStage<Released> released;
		try {
			if (keepNanos >= MIN_KEEP_NANOS) {
				released = lease.entry.ownership.expireAfter(lease.key(), lease.token, Duration.ofNanos(keepNanos))
					.thenApply((owned) -> new Released(owned, null));
				released.whenComplete(releaseAgainIfFailed(lease, keepNanos));
			}
			else if (this.local.mayHandOver(lease)) {
				released = CompletableFuture.completedFuture(new Released(true, this.local.handOver(lease)));
			}
			else if (mayHandOver(lease)) {
				released = handOver(lease);
			}
			else {
				released = releaseInStore(lease);
			}
		}
		catch (RuntimeException ex) {
			released = CompletableFuture.failedFuture(ex);
			this.engine.releaseAgain(lease.entry, lease.token, ex, keepNanos);
		}
		CompletableFuture<Void> done = new CompletableFuture<>();
		released.whenComplete((outcome, failure) -> {
			this.engine.passTurn(lease, (outcome != null) ? outcome.handedOver() : null);
			this.engine.unreserve(lease);
			Throwable cause = (failure != null) ? Stages.unwrap(failure) : null;
			if (cause == null && !outcome.owned()) {
				String loss = lease.lossReason();
				lease.reportLost(LossReason.TAKEN, (loss != null) ? loss : GONE);
				cause = new LockLostException(lease.key(), (loss != null) ? loss : GONE);
			}
			lease.tracking.released(cause);
			if (cause != null) {
				done.completeExceptionally(cause);
			}
			else {
				done.complete(null);
			}
		});
		return done;
	}

	/**
	 * Return what sends a release the store failed again in the background, so that the
	 * lock does not stay taken for its whole lease (not before {@code notBeforeNanos},
	 * what is left of a minimum hold time); the caller is still told of the failure.
	 */
	private BiConsumer<@Nullable Released, @Nullable Throwable> releaseAgainIfFailed(Lease lease, long notBeforeNanos) {
		return (outcome, failure) -> {
			if (failure != null) {
				this.engine.releaseAgain(lease.entry, lease.token, failure, notBeforeNanos);
			}
		};
	}

	/**
	 * Ask the store whether {@code lease} still owns its lock; a lock found lost is
	 * reported and its local turn passed on.
	 * @param lease the grant
	 * @return completed if owned, failed with {@link LockLostException} if not
	 */
	CompletableFuture<Void> confirmOwnership(Lease lease) {
		return lease.entry.ownership.isOwner(lease.key(), lease.token).toCompletableFuture().thenAccept((owned) -> {
			if (!owned) {
				lease.reportLost(LossReason.TAKEN, NOT_OWNER);
				this.engine.lost(lease);
				throw new LockLostException(lease.key(), NOT_OWNER);
			}
		});
	}

	/**
	 * Release {@code lease} in the store; a release the store failed is sent again in the
	 * background.
	 */
	private CompletionStage<Released> releaseInStore(Lease lease) {
		long releasedAt = System.nanoTime();
		// One stage on the reply: the release sent again if it failed, else its outcome
		return Stages.send(() -> lease.entry.ownership.release(lease.key(), lease.token))
			.handle((@Nullable Boolean owned, @Nullable Throwable failure) -> {
				if (failure == null && owned != null) {
					int maxHandOffs = this.engine.settings.cohortHandOffs();
					if (maxHandOffs > 0 && lease.handOffs >= maxHandOffs && lease.entry.queue.waitingCount() > 0) {
						// A run of cohort hand-overs while another client waited ends:
						// let that client take the lock
						lease.entry.yieldNanos.set(Math.min(MAX_YIELD_NANOS, 3 * (System.nanoTime() - releasedAt)));
					}
					return new Released(owned, null);
				}
				Throwable failed = (failure != null) ? failure
						: new NullPointerException("The lock store answered a release with null");
				this.engine.releaseAgain(lease.entry, lease.token, failed, 0);
				throw Stages.asUnchecked(failed);
			});
	}

	/**
	 * Whether the holder of {@code lease} may hand the lock to the caller of this client
	 * waiting next instead of releasing it: a store that can, a lock not lost, a caller
	 * waiting for the local turn (only write locks have one), within the bound of
	 * hand-overs in a row while another client waits (a hand-over that finds no other
	 * client waiting starts the count again), and a segment not found empty (its waiters
	 * move on).
	 */
	private boolean mayHandOver(Lease lease) {
		return this.engine.extensions.handOver() != null && lease.entry.ownership == this.engine.writes
				&& lease.handOffs < this.engine.settings.cohortHandOffs() && lease.lossReason() == null
				&& lease.entry.queue.waitingCount() > 0 && !lease.entry.emptied;
	}

	/**
	 * Hand the lock over in the store to a new token; release instead if the store wants
	 * that. If the request fails, the store may have run it or not, or may still run it
	 * later, so owner-checked releases of both the next token and the holder's own follow
	 * (in the background, each sent again if the store fails it): whichever owns the lock
	 * frees it.
	 */
	private CompletionStage<Released> handOver(Lease lease) {
		String nextToken = this.engine.newToken();
		long requestedAt = System.nanoTime();
		Duration nextLease = this.engine.settings.watchdogLease();
		HandOverExtension handOvers = this.engine.extensions.required(this.engine.extensions.handOver(),
				HandOverExtension.class, "hand a lock over");
		return handOvers.handOver(lease.key(), lease.token, nextToken, nextLease, this.engine.clientId)
			.handle((HandOff handOff, @Nullable Throwable failure) -> {
				if (failure != null) {
					this.engine.releaseInBackground(lease.entry, nextToken);
					this.engine.releaseInBackground(lease.entry, lease.token);
					throw Stages.asUnchecked(failure);
				}
				return handOff;
			})
			.thenCompose((handOff) -> {
				if (handOff == null) {
					return releaseInStore(lease);
				}
				Attempt attempt = handOff.attempt();
				// Only hand-overs while another client waits count towards the bound:
				// with nobody else waiting, the lock keeps passing among this client's
				// callers
				int handOffs = handOff.othersWait() ? lease.handOffs + 1 : 0;
				CohortGrant grant = attempt.acquired() ? new CohortGrant(nextToken, attempt.fencingToken(), nextLease,
						requestedAt, handOffs, 0, requestedAt + nextLease.toNanos()) : null;
				return CompletableFuture.completedFuture(new Released(attempt.acquired(), grant));
			});
	}

	/**
	 * What a release did.
	 *
	 * @param owned whether the lock was still owned by the holder
	 * @param handedOver the lock handed over to the next local caller, if any
	 */
	private record Released(boolean owned, @Nullable CohortGrant handedOver) {

	}

}
