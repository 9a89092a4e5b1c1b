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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import dev.distlock.LockBackendException;
import dev.distlock.store.HeldLockOperations;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.LockStore.Renewal;
import dev.distlock.store.LockStore.RenewalOutcome;
import dev.distlock.store.support.RecentReleases;
import dev.distlock.zookeeper.HeldNodes.Grant;
import dev.distlock.zookeeper.LockTransactions.Outcome;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The shared read locks of the store ({@link dev.distlock.store.ReadLockExtension}): each
 * reader is an ephemeral {@code r-<token>} node in the key's readers container
 * ({@link LockPaths}), so a reader's life is its session, and readers of every session
 * hold the key at once.
 * <ul>
 * <li>A read take is one {@code multi} transaction: it creates the reader's node only
 * while no writer holds the key (its holder node), no fair head reserved it and no writer
 * waits for its readers ({@link WriterMarks}), each checked by creating and deleting that
 * node in the same transaction. The container is created in the transaction that creates
 * its first reader: a take creates it unless this store holds a reader of the key, and is
 * sent again with or without it when that guess was wrong.</li>
 * <li>A writer's take fails while the container exists ({@link LockTransactions}), so
 * readers and a writer never hold a key at once.</li>
 * <li>A release deletes the reader's node with the container in one transaction, which
 * succeeds when it was the last reader, so the key's release listeners hear the last
 * reader leave; else it deletes the reader's node alone.</li>
 * <li>Renewals and owner checks find the reader's node by name, as for write locks
 * ({@link Renewals}); a read grant carries no fencing token.</li>
 * </ul>
 *
 * @author distlock
 * @since 0.1.0
 */
final class ReadGrants implements HeldLockOperations {

	private static final String ACQUIRE = "read-lock";

	private static final String RELEASE = "release the read lock of";

	private static final int ATTEMPTS = 5;

	/**
	 * The gates of a read take: holder, fair head, waiting writer, two operations each.
	 */
	private static final int GATE_OPERATIONS = 6;

	private final ZooKeeperLockStore store;

	private final HeldNodes held = new HeldNodes();

	/** How many read grants of each key this store holds: then the container exists. */
	private final Map<String, Integer> heldPerKey = new ConcurrentHashMap<>();

	private final RecentReleases releases;

	private final Renewals renewals;

	ReadGrants(ZooKeeperLockStore store, int releasesRemembered) {
		this.store = store;
		this.releases = new RecentReleases(releasesRemembered);
		this.renewals = new Renewals(store, this.held, this::isOwner);
	}

	/**
	 * Take a read lock on {@code key} for {@code token}: granted with fencing token 0
	 * unless a writer holds the key, a fair head reserved it or a writer waits for its
	 * readers.
	 */
	CompletableFuture<Attempt> tryAcquire(String key, String token, Duration lease) {
		Grant replayed = this.held.get(key, token);
		if (replayed != null && replayed.lost() == null) {
			return CompletableFuture.completedFuture(Attempt.granted(0));
		}
		LockBackendException refused = this.store.refuseLease(key, ACQUIRE, lease);
		if (refused != null) {
			return CompletableFuture.failedFuture(refused);
		}
		return take(key, token, !this.heldPerKey.containsKey(key), ATTEMPTS);
	}

	private CompletableFuture<Attempt> take(String key, String token, boolean withContainer, int attemptsLeft) {
		List<CuratorOp> operations = new ArrayList<>(GATE_OPERATIONS + 3);
		LockPaths paths = this.store.paths();
		String path = paths.readerPath(key, token);
		try {
			LockTransactions transactions = this.store.transactions();
			transactions.addAbsent(operations, paths.holderPath(key));
			transactions.addAbsent(operations, paths.nextPath(key));
			transactions.addAbsent(operations, paths.writerWaitingPath(key));
			if (withContainer) {
				operations.add(
						NodeAcls
							.apply(this.store.client().transactionOp().create().withMode(CreateMode.CONTAINER),
									this.store.acl())
							.forPath(paths.readersPath(key), new byte[0]));
			}
			operations.add(NodeAcls
				.apply(this.store.client().transactionOp().create().withMode(CreateMode.EPHEMERAL), this.store.acl())
				.forPath(path, token.getBytes(StandardCharsets.UTF_8)));
			operations.add(this.store.client().transactionOp().setData().withVersion(0).forPath(path));
		}
		catch (Exception ex) {
			return CompletableFuture.failedFuture(new LockBackendException(key, ACQUIRE, ex));
		}
		return run(key, ACQUIRE, operations, token).thenCompose((outcome) -> {
			if (outcome.ok()) {
				Stat stat = outcome.stat(operations.size() - 1);
				if (stat == null) {
					return CompletableFuture.failedFuture(new LockBackendException(key, ACQUIRE,
							new IllegalStateException("ZooKeeper answered the grant without its stat")));
				}
				return CompletableFuture.completedFuture(granted(key, token, stat.getEphemeralOwner()));
			}
			int failed = outcome.failedIndex();
			if (failed < GATE_OPERATIONS && outcome.code() != Code.NONODE) {
				// A writer holds the key, a fair head reserved it or a writer waits
				return CompletableFuture.completedFuture(ZooKeeperLockStore.busy());
			}
			if (attemptsLeft <= 1) {
				// Writers and last readers kept deleting the container: a contended key
				return CompletableFuture.completedFuture(ZooKeeperLockStore.busy());
			}
			if (outcome.code() == Code.NONODE && failed == 0) {
				// The key's node is missing
				return createKeyNode(key).thenCompose((created) -> take(key, token, true, attemptsLeft - 1));
			}
			if (outcome.code() == Code.NONODE) {
				// The container is missing: create it with the reader's node
				return take(key, token, true, attemptsLeft - 1);
			}
			if (withContainer && failed == GATE_OPERATIONS) {
				// Another reader created the container meanwhile
				return take(key, token, false, attemptsLeft - 1);
			}
			// The reader's node exists: Curator may have sent the take again
			return ownNode(key, token);
		});
	}

	/**
	 * Return the grant of a take whose reader node turned out to exist: granted if the
	 * node is this session's.
	 */
	private CompletableFuture<Attempt> ownNode(String key, String token) {
		return this.store.stat(key, this.store.paths().readerPath(key, token), ACQUIRE)
			.thenApply((stat) -> (stat != null && stat.getEphemeralOwner() == this.store.currentSession())
					? granted(key, token, stat.getEphemeralOwner()) : ZooKeeperLockStore.busy());
	}

	private Attempt granted(String key, String token, long sessionId) {
		this.held.add(new Grant(key, token, this.store.paths().readerPath(key, token), 0, sessionId));
		this.heldPerKey.merge(key, 1, Integer::sum);
		return Attempt.granted(0);
	}

	private CompletableFuture<Void> createKeyNode(String key) {
		return this.store.background()
			.call(key, ACQUIRE,
					(callback) -> this.store.client()
						.create()
						.creatingParentContainersIfNeeded()
						.withMode(CreateMode.CONTAINER)
						.inBackground(callback)
						.forPath(this.store.paths().keyPath(key)),
					Code.NODEEXISTS)
			.thenApply((created) -> null);
	}

	@Override
	public CompletionStage<Boolean> release(String key, String token) {
		Grant grant = this.held.get(key, token);
		if (grant != null) {
			this.held.remove(grant);
			this.heldPerKey.computeIfPresent(key, (name, count) -> (count > 1) ? count - 1 : null);
		}
		return giveBack(key, token).thenApply((released) -> {
			if (released) {
				this.releases.released(key, token);
				return true;
			}
			// A replay answers as the first release did
			return grant == null && this.releases.wasReleased(key, token);
		});
	}

	/**
	 * Delete the reader's node, with the container when it was the last reader; return
	 * whether the token read the key.
	 */
	CompletableFuture<Boolean> giveBack(String key, String token) {
		String path = this.store.paths().readerPath(key, token);
		List<CuratorOp> operations = new ArrayList<>(2);
		try {
			operations.add(this.store.client().transactionOp().delete().forPath(path));
			operations.add(this.store.client().transactionOp().delete().forPath(this.store.paths().readersPath(key)));
		}
		catch (Exception ex) {
			return CompletableFuture.failedFuture(new LockBackendException(key, RELEASE, ex));
		}
		return run(key, RELEASE, operations, null).thenCompose((outcome) -> {
			if (outcome.ok()) {
				return CompletableFuture.completedFuture(true);
			}
			if (outcome.code() == Code.NOTEMPTY) {
				// Other readers hold the key: the reader's node goes alone
				long interruptions = this.store.interruptions();
				return this.store.background()
					.call(key, RELEASE, (callback) -> this.store.client().delete().inBackground(callback).forPath(path),
							Code.NONODE)
					.thenApply((event) -> Background.code(event) == Code.OK
							|| this.store.interruptions() != interruptions);
			}
			// A release Curator sent again after the connection dropped is not a loss
			return CompletableFuture.completedFuture(outcome.interrupted());
		});
	}

	/**
	 * Run {@code operations} in one transaction; a take ({@code taker} not {@code null})
	 * answered after its attempt gave up is given back, unless granted meanwhile.
	 */
	private CompletableFuture<Outcome> run(String key, String what, List<CuratorOp> operations,
			@Nullable String taker) {
		long interruptions = this.store.interruptions();
		return this.store.background()
			.call(key, what,
					(callback) -> this.store.client().transaction().inBackground(callback).forOperations(operations),
					(taker != null) ? (late) -> {
						if (this.held.get(key, taker) == null) {
							giveBack(key, taker);
						}
					} : null, Code.NONODE, Code.NODEEXISTS, Code.NOTEMPTY, Code.BADVERSION)
			.thenApply((event) -> Outcome.of(event, this.store.interruptions() != interruptions));
	}

	@Override
	public CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
		Assert.isTrue(remaining.toNanos() > 0, () -> "'remaining' must be positive, but was " + remaining);
		Grant grant = this.held.get(key, token);
		CompletionStage<Boolean> owner = (grant != null && grant.lost() == null)
				? CompletableFuture.completedFuture(true) : isOwner(key, token);
		return owner.thenApply((owns) -> {
			if (owns) {
				CompletableFuture.delayedExecutor(remaining.toNanos(), TimeUnit.NANOSECONDS, Runnable::run)
					.execute(() -> release(key, token));
			}
			return owns;
		});
	}

	@Override
	public CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
		return this.renewals.renew(renewals, lease);
	}

	@Override
	public CompletionStage<Boolean> isOwner(String key, String token) {
		Grant grant = this.held.get(key, token);
		if (grant != null && grant.lost() != null) {
			return CompletableFuture.completedFuture(false);
		}
		return this.store.sync(key, "check the owner of")
			.thenCompose(
					(synced) -> this.store.stat(key, this.store.paths().readerPath(key, token), "check the owner of"))
			.thenApply((stat) -> stat != null && stat.getEphemeralOwner() != 0
					&& (grant == null || (stat.getEphemeralOwner() == grant.sessionId
							&& this.store.currentSession() == grant.sessionId)));
	}

	/**
	 * Return why the read grant of {@code token} was lost, or {@code null}.
	 */
	@Nullable String lossReason(String key, String token) {
		Grant grant = this.held.get(key, token);
		return (grant != null) ? grant.lost() : null;
	}

	/**
	 * Record that the session expired: every read grant made so far is lost.
	 */
	void sessionExpired() {
		this.held.sessionExpired();
		this.heldPerKey.clear();
	}

	/**
	 * Record that the connection was suspended: every read grant made so far is lost.
	 */
	void connectionSuspended() {
		this.held.connectionSuspended();
	}

	/**
	 * Delete the nodes of the read grants lost when the connection was suspended that the
	 * session still has, as for write locks ({@link SessionFollower}).
	 */
	void reconnected() {
		long session = this.store.currentSession();
		for (Grant grant : this.held.all()) {
			if (HeldNodes.CONNECTION_SUSPENDED.equals(grant.lost()) && grant.sessionId == session) {
				giveBack(grant.key, grant.token);
			}
		}
	}

}
