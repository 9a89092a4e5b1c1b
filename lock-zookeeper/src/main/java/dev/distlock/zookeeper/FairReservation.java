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
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.jspecify.annotations.Nullable;

/**
 * The fair line's reservation of a key: its {@value LockPaths#NEXT} node, whose data is
 * the token of the fair caller it is kept for. While it exists every take but that
 * caller's claim fails ({@link LockTransactions#addTake}).
 * <ul>
 * <li>A claim passes it on in its own transaction ({@link #addHandOn}): to the fair
 * caller whose queue node comes next, checked to exist in the same transaction. So no
 * newcomer takes the key between a claim and the next fair caller's. It deletes the
 * reservation when the next place is not a fair caller's, or there is none.</li>
 * <li>A fair place that becomes first in line reads it ({@link #reserve}): it holds one
 * kept for it, creates one when there is none, and takes over one kept for a caller no
 * longer in line.</li>
 * <li>A take that the reservation alone refused clears one kept for a caller no longer in
 * line ({@link #clearIfStale}).</li>
 * <li>A fair place that leaves deletes a reservation kept for it with its queue node
 * ({@link #leave}).</li>
 * </ul>
 *
 * @author distlock
 * @since 0.1.0
 */
final class FairReservation {

	private static final String WAIT = "wait for";

	private static final String LEAVE = "leave the waiting line of";

	private static final int ATTEMPTS = 3;

	private final ZooKeeperLockStore store;

	FairReservation(ZooKeeperLockStore store) {
		this.store = store;
	}

	/**
	 * Add to a claim's operations those that pass the reservation on: a check that the
	 * queue node {@code successor} still exists and the reservation kept for its caller,
	 * when it is a fair caller's; else the reservation's delete.
	 * @param operations the claim's operations
	 * @param key the key
	 * @param successor the queue node after the claimer's, or {@code null} when none
	 * @param exists whether the reservation exists (else it is created for the next
	 * caller, or nothing is done)
	 */
	void addHandOn(List<CuratorOp> operations, String key, @Nullable String successor, boolean exists)
			throws Exception {
		String next = this.store.paths().nextPath(key);
		String token = (successor != null) ? LockPaths.fairToken(successor) : null;
		if (successor == null || token == null) {
			if (exists) {
				operations.add(this.store.client().transactionOp().delete().forPath(next));
			}
			return;
		}
		byte[] data = token.getBytes(StandardCharsets.UTF_8);
		operations.add(this.store.client().transactionOp().check().forPath(this.store.paths().child(key, successor)));
		operations.add(exists ? this.store.client().transactionOp().setData().forPath(next, data)
				: NodeAcls
					.apply(this.store.client().transactionOp().create().withMode(CreateMode.EPHEMERAL),
							this.store.acl())
					.forPath(next, data));
	}

	/**
	 * Reserve {@code key} for the fair caller {@code token}, whose queue node is first in
	 * line: complete with {@code true} once the reservation is kept for it (by the claim
	 * before it, created now, or taken over from a caller no longer in line), with
	 * {@code false} while another caller's stands.
	 */
	CompletableFuture<Boolean> reserve(String key, String token) {
		return reserve(key, token, ATTEMPTS);
	}

	private CompletableFuture<Boolean> reserve(String key, String token, int attemptsLeft) {
		return read(key, WAIT).thenCompose((kept) -> {
			if (kept != null && kept.token().equals(token)) {
				return CompletableFuture.completedFuture(true);
			}
			// A reservation kept for another caller, with this one first in line, is kept
			// for a caller that left the line
			CompletableFuture<Boolean> reserved = (kept != null) ? takeOver(key, token, kept.version())
					: create(key, token);
			return reserved.thenCompose((done) -> (done || attemptsLeft <= 1) ? CompletableFuture.completedFuture(done)
					: reserve(key, token, attemptsLeft - 1));
		});
	}

	/**
	 * Read whom the reservation of {@code key} is kept for: a caller's token, or
	 * {@code null} when there is none.
	 */
	CompletableFuture<@Nullable String> keptFor(String key) {
		return read(key, WAIT).<@Nullable String>thenApply((kept) -> (kept != null) ? kept.token() : null);
	}

	/**
	 * Delete the reservation of {@code key} when it is kept for a caller no longer in
	 * line; complete with whether it did.
	 */
	CompletableFuture<Boolean> clearIfStale(String key) {
		// The reservation first: a caller it names was in line before it was named
		return read(key, WAIT).thenCompose((kept) -> {
			if (kept == null) {
				return CompletableFuture.completedFuture(true);
			}
			return line(key).thenCompose((line) -> {
				if (inLine(kept.token(), line)) {
					return CompletableFuture.completedFuture(false);
				}
				return this.store.background()
					.call(key, WAIT,
							(callback) -> this.store.client()
								.delete()
								.withVersion(kept.version())
								.inBackground(callback)
								.forPath(this.store.paths().nextPath(key)),
							Code.NONODE, Code.BADVERSION)
					.thenApply((event) -> Background.code(event) == Code.OK);
			});
		});
	}

	/**
	 * Leave the line for the fair caller {@code token}: delete its queue node
	 * {@code path}, and the reservation with it, in one transaction, when the reservation
	 * is kept for it ({@code head} says it is, else it is read first).
	 */
	CompletableFuture<Void> leave(String key, String token, String path, boolean head) {
		CompletableFuture<@Nullable Integer> version = head ? CompletableFuture.<@Nullable Integer>completedFuture(-1)
				: read(key, LEAVE).<@Nullable Integer>thenApply(
						(kept) -> (kept != null && kept.token().equals(token)) ? kept.version() : null);
		return version.thenCompose((kept) -> {
			if (kept == null) {
				return deleteNode(key, path);
			}
			List<CuratorOp> operations = new ArrayList<>(2);
			try {
				operations.add(this.store.client()
					.transactionOp()
					.delete()
					.withVersion(kept)
					.forPath(this.store.paths().nextPath(key)));
				operations.add(this.store.client().transactionOp().delete().forPath(path));
			}
			catch (Exception ex) {
				return CompletableFuture.failedFuture(new LockBackendException(key, LEAVE, ex));
			}
			// Without its reservation (gone with a force release, say) the place goes
			// alone
			return this.store.transactions()
				.run(List.of(key), LEAVE, operations, null)
				.thenCompose(
						(outcome) -> outcome.ok() ? CompletableFuture.completedFuture(null) : deleteNode(key, path));
		});
	}

	/**
	 * Delete the queue node {@code path}.
	 */
	CompletableFuture<Void> deleteNode(String key, String path) {
		return this.store.background()
			.call(key, LEAVE, (callback) -> this.store.client().delete().inBackground(callback).forPath(path),
					Code.NONODE)
			.thenApply((deleted) -> null);
	}

	private CompletableFuture<@Nullable Kept> read(String key, String what) {
		return this.store.background()
			.call(key, what,
					(callback) -> this.store.client()
						.getData()
						.inBackground(callback)
						.forPath(this.store.paths().nextPath(key)),
					Code.NONODE)
			.<@Nullable Kept>thenApply(
					(event) -> (Background.code(event) == Code.OK && event.getData() != null && event.getStat() != null)
							? new Kept(new String(event.getData(), StandardCharsets.UTF_8),
									event.getStat().getVersion())
							: null);
	}

	private CompletableFuture<Boolean> create(String key, String token) {
		return this.store.background()
			.call(key, WAIT,
					(callback) -> NodeAcls
						.apply(this.store.client().create().withMode(CreateMode.EPHEMERAL), this.store.acl())
						.inBackground(callback)
						.forPath(this.store.paths().nextPath(key), token.getBytes(StandardCharsets.UTF_8)),
					Code.NODEEXISTS)
			.thenApply((event) -> Background.code(event) == Code.OK);
	}

	private CompletableFuture<Boolean> takeOver(String key, String token, int version) {
		return this.store.background()
			.call(key, WAIT,
					(callback) -> this.store.client()
						.setData()
						.withVersion(version)
						.inBackground(callback)
						.forPath(this.store.paths().nextPath(key), token.getBytes(StandardCharsets.UTF_8)),
					Code.NONODE, Code.BADVERSION)
			.thenApply((event) -> Background.code(event) == Code.OK);
	}

	/**
	 * Read the line of {@code key}: its queue nodes, lowest sequence number first; none
	 * when the key's node does not exist.
	 */
	CompletableFuture<List<String>> line(String key) {
		return this.store.background()
			.call(key, WAIT,
					(callback) -> this.store.client()
						.getChildren()
						.inBackground(callback)
						.forPath(this.store.paths().keyPath(key)),
					Code.NONODE)
			.thenApply(
					(event) -> (Background.code(event) == Code.OK) ? LockPaths.queue(event.getChildren()) : List.of());
	}

	private static boolean inLine(String token, List<String> line) {
		for (String place : line) {
			if (token.equals(LockPaths.fairToken(place))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A reservation as read: the token it is kept for and its data version.
	 */
	private record Kept(String token, int version) {

	}

}
