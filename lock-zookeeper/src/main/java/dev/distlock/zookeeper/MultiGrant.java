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
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.distlock.LockBackendException;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.zookeeper.HeldNodes.Grant;
import dev.distlock.zookeeper.Holders.Holder;
import org.apache.curator.framework.api.ACLBackgroundPathAndBytesable;
import org.apache.curator.framework.api.ACLPathAndBytesable;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * One attempt to take several keys at once: the grant nodes of every key are created in
 * one {@code multi} transaction, all or none; then each key's children are listed, and
 * unless a node of the token holds every key ({@link Holders}), every node of the token
 * is deleted and the attempt is refused, the keys held by others saying so. A granted key
 * keeps the lowest node of the token; the others (a transaction sent again after a lost
 * reply) are deleted. A transaction that finds a key's node missing creates the missing
 * container nodes and is sent again, at most {@value #ATTEMPTS} times in all.
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
				ACLPathAndBytesable<CuratorOp> create = this.store.client()
					.transactionOp()
					.create()
					.withMode(CreateMode.EPHEMERAL_SEQUENTIAL);
				List<ACL> acl = this.store.acl();
				operations.add(((acl != null) ? create.withACL(acl) : create)
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
		List<ACL> acl = this.store.acl();
		return (acl != null) ? (ACLBackgroundPathAndBytesable<String>) create.withACL(acl, true) : create;
	}

	/**
	 * Grant every key if one of the token's nodes holds each key (keeping the lowest of
	 * them), else delete every node of the token.
	 */
	private CompletableFuture<@Nullable List<Attempt>> check(List<String> paths) {
		List<CompletableFuture<KeyCheck>> checks = new ArrayList<>(this.keys.size());
		for (int i = 0; i < this.keys.size(); i++) {
			checks.add(check(this.keys.get(i), paths.get(i)));
		}
		return CompletableFuture.allOf(checks.toArray(CompletableFuture[]::new)).thenCompose((done) -> {
			List<KeyCheck> results = checks.stream().map(CompletableFuture::join).toList();
			boolean granted = results.stream().allMatch(KeyCheck::ours);
			List<CompletableFuture<Void>> deletes = new ArrayList<>(this.keys.size());
			List<Attempt> attempts = new ArrayList<>(this.keys.size());
			for (int i = 0; i < this.keys.size(); i++) {
				String key = this.keys.get(i);
				KeyCheck result = results.get(i);
				Holder holder = result.holder();
				if (granted && holder != null) {
					attempts.add(Attempt
						.granted(this.store.granted(key, this.token, this.store.paths().child(key, holder.name()),
								holder.stat().getCzxid(), holder.stat().getEphemeralOwner())));
					deletes.add(this.store.deleteAll(key, result.own(), holder.name(), ACQUIRE));
				}
				else {
					attempts.add(result.ours() ? new Attempt(false, 0, null) : this.store.heldElsewhere());
					deletes.add(this.store.deleteAll(key, result.own(), null, ACQUIRE));
				}
			}
			return CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new)).thenApply((deleted) -> attempts);
		});
	}

	/**
	 * Find the token's nodes under {@code key} and its holder; {@code path} is the node
	 * this attempt created.
	 */
	private CompletableFuture<KeyCheck> check(String key, String path) {
		String name = LockPaths.name(path);
		CompletableFuture<@Nullable Stat> created = this.store.stat(key, path, ACQUIRE);
		return this.store.children(key, ACQUIRE)
			.thenCompose((children) -> created.thenCompose(
					(stat) -> this.store.holder(key, children, (stat != null) ? Map.of(name, stat) : Map.of(), ACQUIRE)
						.thenApply((holder) -> {
							List<String> own = LockPaths.grantsOf(children, this.token);
							if (!own.contains(name)) {
								own = new ArrayList<>(own);
								own.add(name);
							}
							return new KeyCheck(own, (holder != null && holder.isOneOf(own)) ? holder : null);
						})));
	}

	/**
	 * The token's nodes under one key, and the one of them that holds the key, if any.
	 */
	private record KeyCheck(List<String> own, @Nullable Holder holder) {

		boolean ours() {
			return this.holder != null;
		}

	}

}
