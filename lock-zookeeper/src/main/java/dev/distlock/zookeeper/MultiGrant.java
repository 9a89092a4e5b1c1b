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

import dev.distlock.LockBackendException;
import dev.distlock.core.LockStore.Attempt;
import dev.distlock.zookeeper.HeldNodes.Grant;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * One attempt to take several keys at once: the grant nodes of every key are created in
 * one {@code multi} transaction, all or none; then each key's children are listed, and
 * unless every node is the lowest of its key, all of them are deleted in a second
 * transaction and the attempt is refused, the keys held by others saying so. A
 * transaction that finds a key's node missing creates the missing container nodes and is
 * sent again, at most {@value #ATTEMPTS} times in all.
 *
 * @author distlock
 * @since 0.1.0
 */
final class MultiGrant {

	private static final int ATTEMPTS = 3;

	private static final String ACQUIRE = "acquire (several keys)";

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
		return create(ATTEMPTS).thenCompose(this::check);
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

	/**
	 * Create every key's grant node in one transaction; return their paths, in order.
	 */
	private CompletableFuture<List<String>> create(int attemptsLeft) {
		byte[] data = this.token.getBytes(StandardCharsets.UTF_8);
		List<CuratorOp> operations = new ArrayList<>(this.keys.size());
		try {
			for (String key : this.keys) {
				operations.add(this.store.client()
					.transactionOp()
					.create()
					.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
					.forPath(this.store.paths().grantPrefix(key, this.token), data));
			}
		}
		catch (Exception ex) {
			return CompletableFuture.failedFuture(ex);
		}
		String first = this.keys.get(0);
		return this.store.background()
			.call(first, ACQUIRE,
					(callback) -> this.store.client().transaction().inBackground(callback).forOperations(operations),
					Code.NONODE)
			.thenCompose((event) -> {
				if (Background.code(event) == Code.OK) {
					return CompletableFuture.completedFuture(
							event.getOpResults().stream().map(CuratorTransactionResult::getResultPath).toList());
				}
				if (attemptsLeft <= 1) {
					return CompletableFuture.failedFuture(new LockBackendException(first, ACQUIRE,
							new IllegalStateException("The key nodes kept disappearing")));
				}
				return createKeyNodes().thenCompose((created) -> create(attemptsLeft - 1));
			});
	}

	/**
	 * Create the container nodes of every key, and their parents, where missing.
	 */
	private CompletableFuture<Void> createKeyNodes() {
		List<CompletableFuture<?>> created = new ArrayList<>();
		for (String key : this.keys) {
			created.add(this.store.background()
				.call(key, ACQUIRE,
						(callback) -> this.store.client()
							.create()
							.creatingParentContainersIfNeeded()
							.withMode(CreateMode.CONTAINER)
							.inBackground(callback)
							.forPath(this.store.paths().keyPath(key)),
						Code.NODEEXISTS));
		}
		return CompletableFuture.allOf(created.toArray(CompletableFuture[]::new));
	}

	/**
	 * Grant every key if each created node holds its key, else delete them all.
	 */
	private CompletableFuture<@Nullable List<Attempt>> check(List<String> paths) {
		List<CompletableFuture<Boolean>> holders = new ArrayList<>(this.keys.size());
		List<CompletableFuture<@Nullable Stat>> stats = new ArrayList<>(this.keys.size());
		for (int i = 0; i < this.keys.size(); i++) {
			String key = this.keys.get(i);
			String name = LockPaths.name(paths.get(i));
			holders.add(
					this.store.children(key, ACQUIRE).thenApply((children) -> name.equals(LockPaths.holder(children))));
			stats.add(this.store.stat(key, paths.get(i), ACQUIRE));
		}
		List<CompletableFuture<?>> all = new ArrayList<>(holders);
		all.addAll(stats);
		return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).thenCompose((done) -> {
			List<Attempt> refused = new ArrayList<>(this.keys.size());
			boolean granted = true;
			for (int i = 0; i < this.keys.size(); i++) {
				boolean ours = holders.get(i).join() && stats.get(i).join() != null;
				granted &= ours;
				refused.add(ours ? new Attempt(false, 0, null) : this.store.heldElsewhere());
			}
			if (!granted) {
				return deleteAll(paths).thenApply((deleted) -> refused);
			}
			List<Attempt> attempts = new ArrayList<>(this.keys.size());
			for (int i = 0; i < this.keys.size(); i++) {
				Stat stat = stats.get(i).join();
				attempts.add(Attempt.granted(this.store.granted(this.keys.get(i), this.token, paths.get(i),
						(stat != null) ? stat.getCzxid() : 0, (stat != null) ? stat.getEphemeralOwner() : 0)));
			}
			return CompletableFuture.completedFuture(attempts);
		});
	}

	/**
	 * Delete every created node in one transaction (those already gone are skipped by
	 * deleting each on its own).
	 */
	private CompletableFuture<?> deleteAll(List<String> paths) {
		List<CuratorOp> operations = new ArrayList<>(paths.size());
		try {
			for (String path : paths) {
				operations.add(this.store.client().transactionOp().delete().forPath(path));
			}
		}
		catch (Exception ex) {
			return CompletableFuture.failedFuture(ex);
		}
		String first = this.keys.get(0);
		return this.store.background()
			.call(first, ACQUIRE,
					(callback) -> this.store.client().transaction().inBackground(callback).forOperations(operations),
					Code.NONODE)
			.thenCompose((event) -> {
				if (Background.code(event) == Code.OK) {
					return CompletableFuture.completedFuture(null);
				}
				List<CompletableFuture<Boolean>> deletes = new ArrayList<>();
				for (int i = 0; i < paths.size(); i++) {
					deletes.add(this.store.delete(this.keys.get(i), paths.get(i), ACQUIRE));
				}
				return CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new));
			});
	}

}
