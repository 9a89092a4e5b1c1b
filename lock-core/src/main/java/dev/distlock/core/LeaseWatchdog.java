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
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import dev.distlock.LogSafe;
import dev.distlock.core.LockStore.Renewal;
import dev.distlock.core.LockStore.RenewalOutcome;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Renews the leases of every watchdog-mode lock one client holds, on the client's shared
 * timer, every third of the lease, handing the store up to a batch of leases per request.
 * The batches of one round are sent together, without waiting for each other's replies; a
 * round that is still in flight when the next one is due is not overlapped. A lease the
 * store reports lost is marked lost, reported, no longer renewed, and its local turn
 * passed on; a lost lease is never re-created. A lease released while its renewal was in
 * flight is not reported: release stops watching before it asks the store, and a loss
 * counts only if the lease was still watched.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LeaseWatchdog implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LeaseWatchdog.class);

	static final String TAKEN = "the watchdog found the key expired or owned by another client";

	static final String MAX_HOLD = "it was held longer than distlock.max-hold";

	private final Duration lease;

	private final Duration interval;

	private final int batchSize;

	private final Set<Lease> watched = ConcurrentHashMap.newKeySet();

	private final LockClientListener listener;

	private final Consumer<Lease> lost;

	private final @Nullable Duration maxHold;

	private final ScheduledFuture<?> task;

	private final AtomicBoolean roundInFlight = new AtomicBoolean();

	private volatile @Nullable RenewalBatch lastBatch;

	private volatile @Nullable RenewalBatch lastFailure;

	private volatile boolean failing;

	/**
	 * Create and start a watchdog.
	 * @param lease the lease to renew to
	 * @param interval how often to renew
	 * @param batchSize leases per store request
	 * @param timer the client's timer
	 * @param listener told of every renewal batch and every lease found lost
	 * @param lost told of every lease found lost
	 * @param maxHold the longest a lease is renewed, or {@code null} for no cap
	 */
	LeaseWatchdog(Duration lease, Duration interval, int batchSize, ScheduledExecutorService timer,
			LockClientListener listener, Consumer<Lease> lost, @Nullable Duration maxHold) {
		this.listener = listener;
		this.lease = lease;
		this.batchSize = batchSize;
		this.interval = interval;
		this.lost = lost;
		this.maxHold = maxHold;
		this.task = timer.scheduleAtFixedRate(this::renewAll, interval.toNanos(), interval.toNanos(),
				TimeUnit.NANOSECONDS);
	}

	void watch(Lease lease) {
		this.watched.add(lease);
	}

	void unwatch(Lease lease) {
		this.watched.remove(lease);
	}

	int watchedCount() {
		return this.watched.size();
	}

	/**
	 * Send a renewal round for every watched lease, unless the last round is still in
	 * flight. Called by the timer; never throws, never waits for the store.
	 * @return completed when every batch of the round has its answer
	 */
	CompletableFuture<Void> renewAll() {
		if (this.watched.isEmpty() || !this.roundInFlight.compareAndSet(false, true)) {
			return CompletableFuture.completedFuture(null);
		}
		List<Lease> leases = new ArrayList<>(this.watched.size());
		for (Lease lease : this.watched) {
			if (!heldTooLong(lease)) {
				leases.add(lease);
			}
		}
		List<CompletableFuture<Boolean>> batches = new ArrayList<>();
		for (List<Lease> sameKind : byOwnership(leases)) {
			for (int from = 0; from < sameKind.size(); from += this.batchSize) {
				batches.add(renew(sameKind.subList(from, Math.min(sameKind.size(), from + this.batchSize))));
			}
		}
		return CompletableFuture.allOf(batches.toArray(CompletableFuture[]::new)).whenComplete((done, failure) -> {
			this.failing = batches.stream().anyMatch((batch) -> batch.join());
			this.roundInFlight.set(false);
		});
	}

	/**
	 * Stop renewing a lease held longer than the maximum hold: its holder is told it was
	 * lost, and its local turn passes on; the lock expires with its lease.
	 */
	private boolean heldTooLong(Lease lease) {
		Duration maxHold = this.maxHold;
		if (maxHold == null) {
			return false;
		}
		Duration held = Duration.ofNanos(System.nanoTime() - lease.acquiredAtNanos);
		if (held.compareTo(maxHold) < 0 || !this.watched.remove(lease)) {
			return false;
		}
		lease.reportLost(LossReason.MAX_HOLD, MAX_HOLD + " (" + maxHold + ")");
		String caller = lease.tracking.caller;
		logger.warn("Lock '" + LogSafe.escape(lease.key()) + "' (" + LogSafe.escape(lease.tracking.name)
				+ ((caller != null) ? ", taken by " + LogSafe.escape(caller) : "") + ") was held for " + held.toMillis()
				+ " ms, longer than distlock.max-hold (" + maxHold
				+ "): no longer renewed, it expires with its lease and its holder is told it was lost");
		this.lost.accept(lease);
		return true;
	}

	/**
	 * Split {@code leases} by the store operations that renew them (write or read locks),
	 * so that every batch goes to one of them.
	 */
	private static Collection<List<Lease>> byOwnership(List<Lease> leases) {
		Map<Ownership, List<Lease>> byOwnership = new LinkedHashMap<>();
		for (Lease lease : leases) {
			byOwnership.computeIfAbsent(lease.entry.ownership, (ownership) -> new ArrayList<>()).add(lease);
		}
		return byOwnership.values();
	}

	/**
	 * Renew one batch, all of one {@link Ownership}.
	 * @return whether the batch failed as a whole
	 */
	private CompletableFuture<Boolean> renew(List<Lease> batch) {
		long requestedAt = System.nanoTime();
		CompletableFuture<List<RenewalOutcome>> outcomes = Stages
			.send(() -> batch.get(0).entry.ownership
				.renew(batch.stream().map((lease) -> new Renewal(lease.key(), lease.token)).toList(), this.lease))
			.toCompletableFuture();
		return outcomes.handle((renewed, failure) -> {
			RenewalBatch result;
			if (failure != null) {
				Throwable cause = Stages.unwrap(failure);
				logger.warn("Could not renew " + batch.size() + " lock lease(s)", cause);
				batch.forEach((lease) -> lease.renewalFailing = true);
				result = new RenewalBatch(batch.size(), 0, 0, batch.size(),
						Duration.ofNanos(System.nanoTime() - requestedAt), Instant.now(), cause);
			}
			else {
				result = renewed(batch, renewed, requestedAt);
			}
			return finished(result);
		});
	}

	private boolean finished(RenewalBatch batch) {
		this.lastBatch = batch;
		boolean failed = batch.outcome() == RenewalBatch.Outcome.ERROR;
		if (failed) {
			this.lastFailure = batch;
		}
		try {
			this.listener.renewalBatchFinished(batch);
		}
		catch (RuntimeException ex) {
			logger.warn("LockClientListener failed on a renewal batch", ex);
		}
		return failed;
	}

	private RenewalBatch renewed(List<Lease> batch, List<RenewalOutcome> outcomes, long requestedAt) {
		int failed = 0;
		int lostCount = 0;
		for (int i = 0; i < batch.size(); i++) {
			Lease lease = batch.get(i);
			switch (outcomes.get(i)) {
				case RENEWED -> lease.renewed(requestedAt);
				case LOST -> {
					lostCount++;
					if (this.watched.remove(lease)) {
						lease.reportLost(LossReason.TAKEN, TAKEN);
						logger.warn("Lock '" + LogSafe.escape(lease.key())
								+ "' was lost: its key expired or has another owner");
						this.lost.accept(lease);
					}
				}
				case FAILED -> {
					failed++;
					lease.renewalFailing = true;
				}
			}
		}
		if (failed > 0) {
			logger.warn("Could not renew " + failed + " lock lease(s); retrying in " + this.interval.toMillis()
					+ " ms unless the lease runs out first");
		}
		return new RenewalBatch(batch.size(), batch.size() - failed - lostCount, lostCount, failed,
				Duration.ofNanos(System.nanoTime() - requestedAt), Instant.now(), null);
	}

	/**
	 * Return the state of the watchdog.
	 * @return the status
	 */
	WatchdogStatus status() {
		return new WatchdogStatus(this.watched.size(), this.failing, this.lastBatch, this.lastFailure);
	}

	@Override
	public void close() {
		this.task.cancel(false);
		this.watched.clear();
	}

}
