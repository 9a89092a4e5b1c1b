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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.distlock.LockBackendException;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.zookeeper.HeldNodes.Grant;
import dev.distlock.zookeeper.LockTransactions.Outcome;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * One attempt to take several keys at once: every key's take ({@link LockTransactions})
 * in one {@code multi} transaction, in the client's order, all or none. When a key is
 * held, the transaction fails on that key's holder node and nothing is written; the
 * attempt is refused, that key saying it is held elsewhere. A transaction sent again
 * after its reply was lost finds the first key's holder node its own: the keys are then
 * read one by one.
 *
 * @author distlock
 * @since 0.1.0
 */
final class MultiGrant {

	private static final String ACQUIRE = "acquire (several keys)";

	private static final int OPERATIONS_PER_KEY = LockTransactions.TAKE_OPERATIONS;

	private final ZooKeeperLockStore store;

	private final List<String> keys;

	private final String token;

	MultiGrant(ZooKeeperLockStore store, List<String> keys, String token) {
		this.store = store;
		this.keys = keys;
		this.token = token;
	}

	CompletableFuture<@Nullable List<Attempt>> acquire() {
		List<Attempt> replayed = replayed();
		if (replayed != null) {
			return CompletableFuture.completedFuture(replayed);
		}
		List<CuratorOp> operations = new ArrayList<>(this.keys.size() * OPERATIONS_PER_KEY);
		try {
			for (String key : this.keys) {
				this.store.transactions().addTake(operations, key, this.token);
			}
		}
		catch (Exception ex) {
			return CompletableFuture.failedFuture(new LockBackendException(this.keys.get(0), ACQUIRE, ex));
		}
		return this.store.transactions()
			.run(this.keys, ACQUIRE, operations, (late) -> giveBackAll())
			.thenCompose(this::attempts);
	}

	private @Nullable List<Attempt> replayed() {
		List<Attempt> attempts = new ArrayList<>(this.keys.size());
		for (String key : this.keys) {
			Grant grant = this.store.held().get(key, this.token);
			if (grant == null || grant.lost() != null) {
				return null;
			}
			attempts.add(Attempt.granted(grant.fencingToken));
		}
		return attempts;
	}

	private CompletableFuture<@Nullable List<Attempt>> attempts(Outcome outcome) {
		List<Attempt> attempts = new ArrayList<>(this.keys.size());
		if (outcome.ok()) {
			for (int i = 0; i < this.keys.size(); i++) {
				Stat stat = outcome.stat(i * OPERATIONS_PER_KEY + LockTransactions.STAT_INDEX);
				if (stat == null) {
					giveBackAll();
					return CompletableFuture.failedFuture(new LockBackendException(this.keys.get(i), ACQUIRE,
							new IllegalStateException("ZooKeeper answered the grant without its stat")));
				}
				attempts.add(Attempt.granted(
						this.store.granted(this.keys.get(i), this.token, stat.getCzxid(), stat.getEphemeralOwner())));
			}
			return CompletableFuture.completedFuture(attempts);
		}
		if (outcome.code() == Code.NODEEXISTS && outcome.interrupted()) {
			return ownTakes();
		}
		int failed = outcome.failedIndex();
		int busyKey = (failed >= 0) ? failed / OPERATIONS_PER_KEY : -1;
		for (int i = 0; i < this.keys.size(); i++) {
			attempts.add((i == busyKey) ? this.store.heldElsewhere() : new Attempt(false, 0, null));
		}
		return CompletableFuture.completedFuture(attempts);
	}

	/**
	 * Read every key's holder after a transaction that may have been applied twice: all
	 * granted when the token holds every key in this session, else none (and the keys the
	 * token holds are given back).
	 */
	private CompletableFuture<@Nullable List<Attempt>> ownTakes() {
		List<CompletableFuture<ZooKeeperLockStore.@Nullable Holder>> reads = new ArrayList<>(this.keys.size());
		for (String key : this.keys) {
			reads.add(this.store.holderData(key, ACQUIRE));
		}
		return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply((done) -> {
			long session = this.store.currentSession();
			List<ZooKeeperLockStore.Holder> holders = new ArrayList<>(this.keys.size());
			for (CompletableFuture<ZooKeeperLockStore.@Nullable Holder> read : reads) {
				ZooKeeperLockStore.Holder holder = read.join();
				if (holder == null || !holder.token().equals(this.token)
						|| holder.stat().getEphemeralOwner() != session) {
					giveBackAll();
					return this.keys.stream().map((key) -> ZooKeeperLockStore.busy()).toList();
				}
				holders.add(holder);
			}
			List<Attempt> attempts = new ArrayList<>(this.keys.size());
			for (int i = 0; i < this.keys.size(); i++) {
				Stat stat = holders.get(i).stat();
				attempts.add(Attempt.granted(
						this.store.granted(this.keys.get(i), this.token, stat.getCzxid(), stat.getEphemeralOwner())));
			}
			return attempts;
		});
	}

	/**
	 * Give back every key the token may hold, unless the attempt was granted meanwhile.
	 */
	private void giveBackAll() {
		for (String key : this.keys) {
			if (this.store.held().get(key, this.token) == null) {
				this.store.giveBack(key, this.token, "release");
			}
		}
	}

}
