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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import dev.distlock.LockBackendException;
import dev.distlock.store.LockStore.Attempt;

import org.apache.curator.framework.api.ACLBackgroundPathAndBytesable;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * The store's writes, each one {@code multi} transaction, so each is one request and one
 * round trip: a take creates a key's holder and owner nodes (and sets the owner node's
 * data, whose reply carries the stat, the creation zxid included), and creates and
 * deletes the readers' container, which fails the take while readers hold the key
 * ({@link ReadGrants}); a give-back deletes both, the owner node first, so that it fails
 * when the token no longer holds the key. A take of several keys puts every key's
 * operations into one transaction, in the client's order. A transaction that finds a
 * key's node missing creates the key's container node and is sent again, at most
 * {@value #ATTEMPTS} times in all.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LockTransactions {

	/** The operations of one key's take. */
	static final int TAKE_OPERATIONS = 7;

	/** The index of a take's operation whose result carries the stat. */
	static final int STAT_INDEX = 2;

	/** The index of a take's operation that fails while readers hold the key. */
	static final int READERS_INDEX = 3;

	/**
	 * The index of a gated take's operation that fails while the fair line's reservation
	 * exists: it runs only once the key has no holder and no readers.
	 */
	static final int RESERVATION_INDEX = 5;

	private static final int ATTEMPTS = 3;

	/** The error code of an operation after the failed one in a transaction. */
	private static final int NOT_RUN = Code.RUNTIMEINCONSISTENCY.intValue();

	private final ZooKeeperLockStore store;

	LockTransactions(ZooKeeperLockStore store) {
		this.store = store;
	}

	/**
	 * Take {@code key} for {@code token} in one transaction, with {@code extra}
	 * operations after the take's own.
	 * @param key the key
	 * @param token the owner token
	 * @param gated whether the take fails while the fair queue's head has reserved the
	 * key (every take but the head's own claim)
	 * @param extra the operations to run in the same transaction
	 * @param late told of a grant that came after the stage failed for want of an answer
	 * @return what the take did
	 */
	CompletableFuture<Taken> take(String key, String token, boolean gated, List<CuratorOp> extra,
			Consumer<CuratorEvent> late) {
		List<CuratorOp> operations = new ArrayList<>(TAKE_OPERATIONS + extra.size());
		try {
			if (gated) {
				addTake(operations, key, token);
			}
			else {
				addClaim(operations, key, token);
			}
		}
		catch (Exception ex) {
			return CompletableFuture.failedFuture(new LockBackendException(key, "acquire", ex));
		}
		operations.addAll(extra);
		int own = operations.size() - extra.size();
		return run(List.of(key), "acquire", operations, late).thenCompose((outcome) -> {
			if (outcome.ok()) {
				Stat stat = outcome.stat(STAT_INDEX);
				if (stat == null) {
					return CompletableFuture.failedFuture(new LockBackendException(key, "acquire",
							new IllegalStateException("ZooKeeper answered the grant without its stat")));
				}
				return CompletableFuture.completedFuture(new Taken(
						Attempt.granted(this.store.granted(key, token, stat.getCzxid(), stat.getEphemeralOwner())), -1,
						false, false));
			}
			if (outcome.code() == Code.NODEEXISTS && outcome.interrupted() && outcome.failedIndex() <= 0) {
				// Curator may have sent the take again after its reply was lost
				return ownTake(key, token).thenApply((taken) -> new Taken(taken, -1, false, false));
			}
			int failed = outcome.failedIndex();
			boolean created = outcome.code() == Code.NODEEXISTS;
			return CompletableFuture
				.completedFuture(new Taken(ZooKeeperLockStore.busy(), (failed >= own) ? failed - own : -1,
						failed == READERS_INDEX && created, gated && failed == RESERVATION_INDEX && created));
		});
	}

	/**
	 * Return the grant of a take whose holder node turned out to exist after the
	 * connection dropped: granted if the node is this session's and names the token.
	 */
	private CompletableFuture<Attempt> ownTake(String key, String token) {
		return this.store.holderData(key, "acquire").thenApply((holder) -> {
			if (holder != null && holder.token().equals(token)
					&& holder.stat().getEphemeralOwner() == this.store.currentSession()) {
				return Attempt.granted(
						this.store.granted(key, token, holder.stat().getCzxid(), holder.stat().getEphemeralOwner()));
			}
			return ZooKeeperLockStore.busy();
		});
	}

	/**
	 * Add the operations that take {@code key} for {@code token} to {@code operations}:
	 * the claim's, then a create and a delete of the fair queue head's node, which fail
	 * the take while a head has reserved the key ({@value #TAKE_OPERATIONS} in all).
	 */
	void addTake(List<CuratorOp> operations, String key, String token) throws Exception {
		addClaim(operations, key, token);
		addAbsent(operations, this.store.paths().nextPath(key));
	}

	/**
	 * Add the operations that take {@code key} for {@code token} whatever the fair queue:
	 * five of them, the {@value #STAT_INDEX}th one's result carrying the stat, the
	 * {@value #READERS_INDEX}th one failing while readers hold the key.
	 */
	void addClaim(List<CuratorOp> operations, String key, String token) throws Exception {
		LockPaths paths = this.store.paths();
		operations.add(NodeAcls
			.apply(this.store.client().transactionOp().create().withMode(CreateMode.EPHEMERAL), this.store.acl())
			.forPath(paths.holderPath(key), token.getBytes(StandardCharsets.UTF_8)));
		operations.add(NodeAcls
			.apply(this.store.client().transactionOp().create().withMode(CreateMode.EPHEMERAL), this.store.acl())
			.forPath(paths.ownerPath(key, token), new byte[0]));
		operations
			.add(this.store.client().transactionOp().setData().withVersion(0).forPath(paths.ownerPath(key, token)));
		addAbsent(operations, paths.readersPath(key));
	}

	/**
	 * Add a create and a delete of {@code path}, which fail the transaction while the
	 * node exists and leave nothing behind.
	 */
	void addAbsent(List<CuratorOp> operations, String path) throws Exception {
		operations.add(NodeAcls
			.apply(this.store.client().transactionOp().create().withMode(CreateMode.EPHEMERAL), this.store.acl())
			.forPath(path, new byte[0]));
		operations.add(this.store.client().transactionOp().delete().forPath(path));
	}

	/**
	 * Add the operations that give back {@code key} held by {@code token}.
	 */
	void addGiveBack(List<CuratorOp> operations, String key, String token) throws Exception {
		operations.add(this.store.client().transactionOp().delete().forPath(this.store.paths().ownerPath(key, token)));
		operations.add(this.store.client().transactionOp().delete().forPath(this.store.paths().holderPath(key)));
	}

	/**
	 * Run {@code operations} in one transaction, creating the container node of a key
	 * whose node is missing and sending it again.
	 * @param keys the keys the transaction touches, whose nodes it may create
	 * @param what what the caller does, for failures
	 * @param operations the operations
	 * @param late told of a successful answer that came after the stage failed for want
	 * of one, if not {@code null}
	 * @return the outcome, failed with {@code LockBackendException} on an unexpected code
	 */
	CompletableFuture<Outcome> run(List<String> keys, String what, List<CuratorOp> operations,
			@Nullable Consumer<CuratorEvent> late) {
		return run(keys, what, operations, late, ATTEMPTS);
	}

	private CompletableFuture<Outcome> run(List<String> keys, String what, List<CuratorOp> operations,
			@Nullable Consumer<CuratorEvent> late, int attemptsLeft) {
		long interruptions = this.store.interruptions();
		return this.store.background()
			.call(keys.get(0), what,
					(callback) -> this.store.client().transaction().inBackground(callback).forOperations(operations),
					late, Code.NONODE, Code.NODEEXISTS, Code.NOTEMPTY, Code.BADVERSION)
			.thenCompose((event) -> {
				Outcome outcome = Outcome.of(event, this.store.interruptions() != interruptions);
				if (outcome.code() != Code.NONODE || attemptsLeft <= 1 || !outcome.failedOnCreate()) {
					return CompletableFuture.completedFuture(outcome);
				}
				return createKeyNodes(keys, what)
					.thenCompose((created) -> run(keys, what, operations, late, attemptsLeft - 1));
			});
	}

	/**
	 * Create the container nodes of {@code keys}, and their parents, where missing.
	 */
	private CompletableFuture<Void> createKeyNodes(List<String> keys, String what) {
		List<CompletableFuture<?>> created = new ArrayList<>(keys.size());
		for (String key : keys) {
			created.add(this.store.background()
				.call(key, what,
						(callback) -> containerCreate().inBackground(callback).forPath(this.store.paths().keyPath(key)),
						Code.NODEEXISTS));
		}
		return CompletableFuture.allOf(created.toArray(CompletableFuture[]::new));
	}

	private ACLBackgroundPathAndBytesable<String> containerCreate() {
		ACLBackgroundPathAndBytesable<String> create = this.store.client()
			.create()
			.creatingParentContainersIfNeeded()
			.withMode(CreateMode.CONTAINER);
		return NodeAcls.apply(create, this.store.acl());
	}

	/**
	 * What a transaction did.
	 *
	 * @param code its result code: {@link Code#OK} when every operation was applied
	 * @param results each operation's result, empty when the server sent none
	 * @param interrupted whether the connection was interrupted while it was on its way
	 * (Curator may have sent it twice)
	 */
	record Outcome(Code code, List<CuratorTransactionResult> results, boolean interrupted) {

		static Outcome of(CuratorEvent event, boolean interrupted) {
			List<CuratorTransactionResult> results = event.getOpResults();
			return new Outcome(Background.code(event), (results != null) ? results : List.of(), interrupted);
		}

		boolean ok() {
			return this.code == Code.OK;
		}

		/**
		 * Return the index of the operation that failed, or -1 when none is known.
		 */
		int failedIndex() {
			for (int i = 0; i < this.results.size(); i++) {
				int error = this.results.get(i).getError();
				if (error != 0 && error != NOT_RUN) {
					return i;
				}
			}
			return -1;
		}

		/**
		 * Return whether the operation that failed was a create.
		 */
		boolean failedOnCreate() {
			int failed = failedIndex();
			return failed < 0 || this.results.get(failed)
				.getType() == org.apache.curator.framework.api.transaction.OperationType.CREATE;
		}

		/**
		 * Return the stat in the result of operation {@code index}, if any.
		 */
		@Nullable Stat stat(int index) {
			return (index < this.results.size()) ? this.results.get(index).getResultStat() : null;
		}

	}

	/**
	 * What a take did.
	 *
	 * @param attempt the grant or the refusal
	 * @param failedExtra the index of the extra operation that failed the take, or -1
	 * @param byReaders whether readers hold the key (or their container is left empty)
	 * @param reserved whether the fair line's reservation alone refused the take: the key
	 * has neither a holder nor readers
	 */
	record Taken(Attempt attempt, int failedExtra, boolean byReaders, boolean reserved) {

	}

}
