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
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import dev.distlock.LogSafe;
import dev.distlock.store.LockStore.Renewal;
import dev.distlock.store.LockStore.RenewalOutcome;
import dev.distlock.store.HeldLockOperations;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Renews the leases of every watchdog-mode lock one client holds, on the client's shared
 * timer, every third of the lease, handing the store up to a batch of leases per request.
 * Leases are grouped, each round anew, by the store's {@link LockStore#renewalGroup
 * renewal group} (the node serving the key in a sharded backend), and a request carries
 * leases of one group only, so each group's renewal goes on by itself: the requests of
 * one round are sent together, one batch of each group in turn (so that every node works
 * from the round's start), without waiting for each other's replies, and a round never
 * waits for the previous one. Each request is bounded by the renewal interval, not by the
 * store's command timeout: a request still unanswered when the next round starts is
 * reported as a failed batch, and its group is skipped by the rounds that start while it
 * is still in flight (a stalled node gains nothing from more requests); an answer that
 * comes late still counts, for the leases it renewed or found lost. So a stalled node
 * delays only its own group, and the leases on every other node are renewed on time. A
 * request or listener that fails never stops later rounds. A lease the store reports lost
 * is marked lost, reported, no longer renewed, and its local turn passed on; a lost lease
 * is never re-created. So is a lease whose renewals failed until its local view ran out:
 * a task on the timer at that instant finds it, so that its holder hears of the loss
 * without asking. A lease released while its renewal was in flight is not reported:
 * release stops watching before it asks the store, and a loss counts only if the lease
 * was still watched.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LeaseWatchdog implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LeaseWatchdog.class);

	static final String TAKEN = "the watchdog found the key expired or owned by another client";

	static final String MAX_HOLD = "it was held longer than its maximum hold";

	static final String RAN_OUT = "its lease ran out while the store could not renew it";

	private final LockStore store;

	private final Duration lease;

	private final Duration interval;

	private final int batchSize;

	private final Set<Lease> watched = ConcurrentHashMap.newKeySet();

	/**
	 * The renewal requests sent and not reported yet.
	 */
	private final Set<CompletableFuture<List<RenewalOutcome>>> unanswered = ConcurrentHashMap.newKeySet();

	/**
	 * The renewal groups with requests the store has not answered yet, with how many.
	 */
	private final Map<RenewalGroup, Integer> inFlight = new ConcurrentHashMap<>();

	private final LockClientListener listener;

	private final Consumer<Lease> lost;

	private final @Nullable Duration maxHold;

	private final ScheduledExecutorService timer;

	private final ScheduledFuture<?> task;

	private volatile @Nullable RenewalBatch lastBatch;

	private volatile @Nullable RenewalBatch lastFailure;

	/**
	 * Create and start a watchdog.
	 * @param store the store to renew in
	 * @param lease the lease to renew to
	 * @param interval how often to renew
	 * @param batchSize leases per store request
	 * @param timer the client's timer
	 * @param listener told of every renewal batch and every lease found lost
	 * @param lost told of every lease found lost
	 * @param maxHold the longest a lease is renewed, or {@code null} for no cap
	 */
	LeaseWatchdog(LockStore store, Duration lease, Duration interval, int batchSize, ScheduledExecutorService timer,
			LockClientListener listener, Consumer<Lease> lost, @Nullable Duration maxHold) {
		this.listener = listener;
		this.store = store;
		this.lease = lease;
		this.batchSize = batchSize;
		this.interval = interval;
		this.lost = lost;
		this.maxHold = maxHold;
		this.timer = timer;
		this.task = timer.scheduleAtFixedRate(this::renewAll, interval.toNanos(), interval.toNanos(),
				TimeUnit.NANOSECONDS);
	}

	void watch(Lease lease) {
		this.watched.add(lease);
	}

	/**
	 * Return the group {@code lease} is renewed with: the store's renewal group of its
	 * key, for the store operations of its kind of grant (write or read locks).
	 */
	private RenewalGroup renewalGroup(Lease lease) {
		Object node;
		try {
			node = this.store.renewalGroup(lease.key());
		}
		catch (RuntimeException ex) {
			logger.debug("The store could not tell the renewal group of a lock; renewing it with the default group",
					ex);
			node = "";
		}
		return new RenewalGroup(lease.entry.ownership, node);
	}

	void unwatch(Lease lease) {
		this.watched.remove(lease);
		ScheduledFuture<?> runOut = lease.runOut;
		if (runOut != null) {
			runOut.cancel(false);
		}
	}

	int watchedCount() {
		return this.watched.size();
	}

	/**
	 * Send a renewal round for every renewal group whose last requests were all answered,
	 * one request per batch of one group, after reporting the requests of earlier rounds
	 * still unanswered as failed. Called by the timer; never throws, never waits for the
	 * store.
	 * @return completed when every batch of the round has its answer (or failed)
	 */
	CompletableFuture<Void> renewAll() {
		try {
			return round();
		}
		catch (RuntimeException ex) {
			logger.warn("A lease renewal round failed; the next one runs in " + this.interval.toMillis() + " ms", ex);
			return CompletableFuture.completedFuture(null);
		}
	}

	private CompletableFuture<Void> round() {
		expireUnanswered();
		if (this.watched.isEmpty()) {
			return CompletableFuture.completedFuture(null);
		}
		Map<RenewalGroup, List<Lease>> groups = new LinkedHashMap<>();
		for (Lease lease : this.watched) {
			if (!heldTooLong(lease)) {
				groups.computeIfAbsent(renewalGroup(lease), (group) -> new ArrayList<>()).add(lease);
			}
		}
		// Its last round is not answered yet: more requests would only queue behind it
		groups.keySet().removeIf(this.inFlight::containsKey);
		List<CompletableFuture<Boolean>> batches = new ArrayList<>();
		// One batch of each group in turn, so that every node has work from the round's
		// start: sent group after group, the last node's scripts would wait for the
		// requests of every other node to be built and the round would take the sum of
		// the nodes' times, not the slowest node's
		for (int from = 0; !groups.isEmpty(); from += this.batchSize) {
			for (Iterator<Map.Entry<RenewalGroup, List<Lease>>> it = groups.entrySet().iterator(); it.hasNext();) {
				Map.Entry<RenewalGroup, List<Lease>> group = it.next();
				List<Lease> leases = group.getValue();
				batches
					.add(renew(group.getKey(), leases.subList(from, Math.min(leases.size(), from + this.batchSize))));
				if (from + this.batchSize >= leases.size()) {
					it.remove();
				}
			}
		}
		return CompletableFuture.allOf(batches.toArray(CompletableFuture[]::new));
	}

	/**
	 * Report the requests that got no answer within one renewal interval as failed; their
	 * leases are sent again once the store answered them.
	 */
	private void expireUnanswered() {
		for (CompletableFuture<List<RenewalOutcome>> request : List.copyOf(this.unanswered)) {
			request.completeExceptionally(new TimeoutException("The store did not answer a renewal within the "
					+ "renewal interval (" + this.interval.toMillis() + " ms); a late answer still counts"));
		}
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
		String caller = lease.tracking.caller;
		// Logged before the holder is told, so that what the holder does next follows it
		logger.warn("Lock '" + LogSafe.escape(lease.key()) + "' (" + LogSafe.escape(lease.tracking.name)
				+ ((caller != null) ? ", taken by " + LogSafe.escape(caller) : "") + ") was held for " + held.toMillis()
				+ " ms, longer than its maximum hold (" + maxHold
				+ "): no longer renewed, it expires with its lease and its holder is told it was lost");
		lease.reportLost(LossReason.MAX_HOLD, MAX_HOLD + " (" + maxHold + ")");
		this.lost.accept(lease);
		return true;
	}

	/**
	 * Renew one batch, its report bounded by the next round.
	 * @return whether the batch failed (never completed exceptionally)
	 */
	private CompletableFuture<Boolean> renew(RenewalGroup group, List<Lease> batch) {
		long requestedAt = System.nanoTime();
		CompletableFuture<List<RenewalOutcome>> outcomes = new CompletableFuture<>();
		this.unanswered.add(outcomes);
		this.inFlight.merge(group, 1, Integer::sum);
		Stages
			.send(() -> batch.get(0).entry.ownership
				.renew(batch.stream().map((lease) -> new Renewal(lease.key(), lease.token)).toList(), this.lease))
			.whenComplete((renewed, failure) -> {
				this.inFlight.computeIfPresent(group, (key, count) -> (count == 1) ? null : count - 1);
				if (failure != null) {
					outcomes.completeExceptionally(failure);
				}
				else if (!outcomes.complete(renewed)) {
					late(batch, renewed, requestedAt);
				}
			});
		return outcomes.handle((renewed, failure) -> {
			this.unanswered.remove(outcomes);
			List<Lease> failing = new ArrayList<>();
			try {
				return finished((failure != null) ? failed(batch, Stages.unwrap(failure), requestedAt, failing)
						: renewed(batch, renewed, requestedAt, failing), failing);
			}
			catch (RuntimeException ex) {
				failing.clear();
				return finished(failed(batch, ex, requestedAt, failing), failing);
			}
		});
	}

	/**
	 * Apply an answer that came after its batch was reported failed: the leases it
	 * renewed are valid from when it was sent, and those it found lost are lost.
	 */
	private void late(List<Lease> batch, List<RenewalOutcome> outcomes, long requestedAt) {
		List<Lease> failing = new ArrayList<>();
		try {
			renewed(batch, outcomes, requestedAt, failing);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not apply a late renewal answer", ex);
		}
		failing.forEach(this::failing);
	}

	/**
	 * Report a batch the store failed as a whole; its leases are failing.
	 */
	private RenewalBatch failed(List<Lease> batch, Throwable cause, long requestedAt, List<Lease> failing) {
		if (cause instanceof TimeoutException) {
			logger.warn("Could not renew " + batch.size() + " lock lease(s): " + cause.getMessage());
		}
		else {
			logger.warn("Could not renew " + batch.size() + " lock lease(s)", cause);
		}
		failing.addAll(batch);
		return new RenewalBatch(batch.size(), 0, 0, batch.size(), Duration.ofNanos(System.nanoTime() - requestedAt),
				Instant.now(), cause);
	}

	/**
	 * Mark a lease whose renewal failed, and make sure that it is reported lost when its
	 * local view runs out before a renewal succeeds: by a task on the timer at that
	 * instant, rather than by whoever looks at it next.
	 */
	private void failing(Lease lease) {
		lease.renewalFailing = true;
		ScheduledFuture<?> pending = lease.runOut;
		if ((pending == null || pending.isDone()) && this.watched.contains(lease)) {
			scheduleRunOut(lease);
		}
	}

	private void scheduleRunOut(Lease lease) {
		try {
			lease.runOut = this.timer.schedule(() -> ranOut(lease),
					Math.max(0, lease.validUntilNanos() - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// Closed meanwhile: the close reports its leases
		}
	}

	/**
	 * The local view of a lease whose renewal failed may have run out: if it did while
	 * renewals still fail, the lease is lost ({@link LossReason#BACKEND}), reported, no
	 * longer renewed, and its local turn passed on; if a renewal extended it meanwhile
	 * but renewals fail again, look again when the extended view runs out.
	 */
	private void ranOut(Lease lease) {
		if (!this.watched.contains(lease) || !lease.renewalFailing) {
			return;
		}
		if (lease.validUntilNanos() - System.nanoTime() > 0) {
			scheduleRunOut(lease);
			return;
		}
		if (this.watched.remove(lease)) {
			lease.reportLost(LossReason.BACKEND, RAN_OUT);
			logger.warn("Lock '" + LogSafe.escape(lease.key()) + "' was lost: " + RAN_OUT);
			this.lost.accept(lease);
		}
	}

	/**
	 * Record a batch's report, then mark its failing leases: a status that shows them
	 * failing shows the failure too.
	 */
	private boolean finished(RenewalBatch batch, List<Lease> failing) {
		this.lastBatch = batch;
		boolean failed = batch.outcome() == RenewalBatch.Outcome.ERROR;
		if (failed) {
			this.lastFailure = batch;
		}
		failing.forEach(this::failing);
		try {
			this.listener.renewalBatchFinished(batch);
		}
		catch (RuntimeException ex) {
			logger.warn("LockClientListener failed on a renewal batch", ex);
		}
		return failed;
	}

	/**
	 * Apply a store's answer to a batch, adding the leases it failed to renew to
	 * {@code failing}.
	 */
	private RenewalBatch renewed(List<Lease> batch, List<RenewalOutcome> outcomes, long requestedAt,
			List<Lease> failing) {
		if (outcomes.size() != batch.size()) {
			throw new IllegalStateException(
					"The store answered " + outcomes.size() + " renewal outcome(s) for " + batch.size() + " lease(s)");
		}
		int failed = 0;
		int lostCount = 0;
		for (int i = 0; i < batch.size(); i++) {
			Lease lease = batch.get(i);
			switch (outcomes.get(i)) {
				case RENEWED -> lease.renewed(requestedAt);
				case LOST -> {
					lostCount++;
					if (this.watched.remove(lease)) {
						lease.reportLost(lossKind(lease), lossReason(lease));
						logger.warn("Lock '" + LogSafe.escape(lease.key())
								+ "' was lost: its key expired or has another owner");
						this.lost.accept(lease);
					}
				}
				case FAILED -> {
					failed++;
					failing.add(lease);
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
	 * Return why a lease the store answered as lost was lost: the store's reason when it
	 * tells one ({@link SessionLeaseExtension#lossReason}), else the generic one.
	 */
	private String lossReason(Lease lease) {
		SessionLeaseExtension sessions = this.store.extension(SessionLeaseExtension.class);
		String reason = (sessions != null) ? sessions.lossReason(lease.key(), lease.token) : null;
		return (reason != null) ? reason : TAKEN;
	}

	/**
	 * Return the kind of loss of a lease the store answered as lost: the store's when it
	 * tells one ({@link SessionLeaseExtension#lossKind}), else {@link LossReason#TAKEN}.
	 */
	private LossReason lossKind(Lease lease) {
		SessionLeaseExtension sessions = this.store.extension(SessionLeaseExtension.class);
		LossReason kind = (sessions != null) ? sessions.lossKind(lease.key(), lease.token) : null;
		return (kind != null) ? kind : LossReason.TAKEN;
	}

	/**
	 * Return the state of the watchdog.
	 * @return the status
	 */
	WatchdogStatus status() {
		boolean failing = this.watched.stream().anyMatch((lease) -> lease.renewalFailing);
		return new WatchdogStatus(this.watched.size(), failing, this.lastBatch, this.lastFailure);
	}

	@Override
	public void close() {
		this.task.cancel(false);
		this.watched.clear();
		this.inFlight.clear();
	}

	/**
	 * The leases one renewal request may carry together: those of one store node, renewed
	 * by the same store operations.
	 *
	 * @param ownership the store operations that renew them
	 * @param node the store's renewal group of their keys
	 */
	private record RenewalGroup(HeldLockOperations ownership, Object node) {

	}

}
