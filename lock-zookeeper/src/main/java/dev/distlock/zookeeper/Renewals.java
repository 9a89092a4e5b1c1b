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

package dev.distlock.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;

import dev.distlock.store.LockStore.Renewal;
import dev.distlock.store.LockStore.RenewalOutcome;
import dev.distlock.zookeeper.HeldNodes.Grant;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * The renewals of the store, each confirmed by a round trip: a batch's grants of the
 * current session are checked in one {@code multi} transaction of {@code check}
 * operations, which the leader runs, so its answer proves that each node, and so its
 * session, still lived after the request was sent (the watchdog counts the renewed lease
 * from then). A grant made in an earlier session, a grant lost already (the connection
 * was suspended, the session expired or its node was deleted) and a grant whose node the
 * check did not find are lost; a batch that gets no answer fails. When the transaction
 * fails on a missing node, each grant of the batch is read again on its own, to tell
 * which are gone.
 *
 * @author distlock
 * @since 0.1.0
 */
final class Renewals {

	private static final String RENEW = "renew";

	private final ZooKeeperLockStore store;

	private final HeldNodes held;

	private final BiFunction<String, String, CompletionStage<Boolean>> ownerCheck;

	private volatile @Nullable Duration lastLease;

	/**
	 * Create the renewals of one kind of grant.
	 * @param store the store
	 * @param held the grants of that kind the store made
	 * @param ownerCheck the owner check of that kind of grant, for a token the store does
	 * not hold
	 */
	Renewals(ZooKeeperLockStore store, HeldNodes held,
			BiFunction<String, String, CompletionStage<Boolean>> ownerCheck) {
		this.store = store;
		this.held = held;
		this.ownerCheck = ownerCheck;
	}

	/**
	 * Return the lease of the last renewal, if any, to check against a session negotiated
	 * again.
	 */
	@Nullable Duration lastLease() {
		return this.lastLease;
	}

	CompletableFuture<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
		if (renewals.isEmpty()) {
			return CompletableFuture.completedFuture(List.of());
		}
		this.lastLease = lease;
		boolean refused = this.store.refuseLease(renewals.get(0).key(), RENEW, lease) != null;
		long session = this.store.currentSession();
		List<CompletableFuture<RenewalOutcome>> outcomes = new ArrayList<>(renewals.size());
		List<Grant> checked = new ArrayList<>();
		List<CompletableFuture<RenewalOutcome>> checkedOutcomes = new ArrayList<>();
		for (Renewal renewal : renewals) {
			Grant grant = this.held.get(renewal.key(), renewal.token());
			if (grant == null) {
				outcomes.add(refused ? CompletableFuture.completedFuture(RenewalOutcome.FAILED)
						: this.ownerCheck.apply(renewal.key(), renewal.token())
							.toCompletableFuture()
							.handle((owner, failure) -> (failure != null) ? RenewalOutcome.FAILED
									: owner ? RenewalOutcome.RENEWED : RenewalOutcome.LOST));
				continue;
			}
			if (session != 0 && grant.sessionId != session) {
				grant.sessionExpired();
			}
			if (grant.lost() != null) {
				outcomes.add(CompletableFuture.completedFuture(RenewalOutcome.LOST));
			}
			else if (refused || session == 0) {
				outcomes.add(CompletableFuture.completedFuture(RenewalOutcome.FAILED));
			}
			else {
				CompletableFuture<RenewalOutcome> outcome = new CompletableFuture<>();
				checked.add(grant);
				checkedOutcomes.add(outcome);
				outcomes.add(outcome);
			}
		}
		if (!checked.isEmpty()) {
			confirm(checked).whenComplete((confirmed, failure) -> {
				for (int i = 0; i < checked.size(); i++) {
					checkedOutcomes.get(i).complete((failure != null) ? RenewalOutcome.FAILED : confirmed.get(i));
				}
			});
		}
		return CompletableFuture.allOf(outcomes.toArray(CompletableFuture[]::new))
			.thenApply((done) -> outcomes.stream().map(CompletableFuture::join).toList());
	}

	/**
	 * Check that every grant's node exists, in one transaction through the leader.
	 */
	private CompletableFuture<List<RenewalOutcome>> confirm(List<Grant> grants) {
		List<CuratorOp> checks = new ArrayList<>(grants.size());
		try {
			for (Grant grant : grants) {
				checks.add(this.store.client().transactionOp().check().forPath(grant.path));
			}
		}
		catch (Exception ex) {
			return CompletableFuture.failedFuture(ex);
		}
		return this.store.background()
			.call(grants.get(0).key, RENEW,
					(callback) -> this.store.client().transaction().inBackground(callback).forOperations(checks),
					Code.NONODE)
			.thenCompose((event) -> (Background.code(event) == Code.OK)
					? CompletableFuture.completedFuture(grants.stream().map(this::confirmed).toList())
					: oneByOne(grants));
	}

	/**
	 * Read each grant's node on its own, after a transaction that found one missing.
	 */
	private CompletableFuture<List<RenewalOutcome>> oneByOne(List<Grant> grants) {
		List<CompletableFuture<RenewalOutcome>> outcomes = new ArrayList<>(grants.size());
		for (Grant grant : grants) {
			outcomes.add(this.store.stat(grant.key, grant.path, RENEW).thenApply((stat) -> read(grant, stat)));
		}
		return CompletableFuture.allOf(outcomes.toArray(CompletableFuture[]::new))
			.thenApply((done) -> outcomes.stream().map(CompletableFuture::join).toList());
	}

	private RenewalOutcome read(Grant grant, @Nullable Stat stat) {
		if (stat != null && stat.getEphemeralOwner() == grant.sessionId) {
			return confirmed(grant);
		}
		if (this.store.currentSession() == grant.sessionId) {
			grant.lose(HeldNodes.NODE_DELETED);
		}
		else {
			grant.sessionExpired();
		}
		return RenewalOutcome.LOST;
	}

	/**
	 * Return the outcome of a grant whose node a round trip found: renewed, unless it was
	 * lost meanwhile (the connection was suspended while the check was on its way).
	 */
	private RenewalOutcome confirmed(Grant grant) {
		return (grant.lost() == null) ? RenewalOutcome.RENEWED : RenewalOutcome.LOST;
	}

}
