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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.LockBackendException;
import dev.distlock.store.InspectionExtension;
import dev.distlock.store.LockStore;
import dev.distlock.LossReason;
import dev.distlock.store.SessionLeaseExtension;
import dev.distlock.store.SeveralKeysExtension;
import dev.distlock.zookeeper.HeldNodes.Grant;
import dev.distlock.zookeeper.Holders.Holder;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.ACLBackgroundPathAndBytesable;
import org.apache.curator.framework.api.BackgroundPathAndBytesable;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * {@link LockStore} on ZooKeeper, through the application's Curator
 * {@link CuratorFramework}: a lock is an ephemeral node, so its life is the client's
 * session, and a crashed holder's locks go when its session expires. Non-blocking: every
 * operation is a Curator background operation whose callback completes the stage, and an
 * operation unanswered within the client's connection timeout fails with
 * {@link LockBackendException}.
 * <ul>
 * <li>Each grant is its own ephemeral sequential node under the key's node (see
 * {@link LockPaths}); the lowest sequence number among the ephemeral children named by
 * the store's pattern holds the lock ({@link Holders}), so a forged child holds nothing.
 * An attempt creates its node and lists the key's children: holding, it is granted, else
 * it deletes its node and is refused. Every child carrying the attempt's token is its own
 * (Curator sends a create again after a lost reply): the lowest is kept, the others are
 * deleted, and a create answered after its attempt gave up is undone. While a local
 * caller waits for a key, an attempt lists first and creates only when the key is free. A
 * release deletes the grant's own node, so it can never remove a later holder's; a
 * release Curator sent again after a lost reply is not a loss.</li>
 * <li>Key nodes and the base path are container nodes: the server removes them once they
 * are empty.</li>
 * <li>Every node is created with the store's ACL when one is given (for example
 * {@code ZooDefs.Ids.CREATOR_ALL_ACL} for an authenticated client), else with the
 * client's ACL provider's.</li>
 * <li>The fencing token is the grant node's creation zxid, which increases across the
 * whole ensemble.</li>
 * <li>The session is the lease ({@link SessionLeaseExtension}): a renewal is answered as
 * renewed only for grants of the current session whose nodes a round trip through the
 * leader confirmed ({@link Renewals}); once the connection is suspended every grant is
 * lost, and the client ends every lease's view at once. A lease longer than a third of
 * the negotiated session ({@link #longestLease()}) is refused once a session was
 * negotiated shorter than the first (the auto-configuration checked the first). A fixed
 * lease cannot be kept: the client refuses it.</li>
 * <li>A minimum hold time ({@link #expireAfter}) defers the delete on a JDK timer; the
 * lock ends earlier if the process dies, with its session.</li>
 * <li>Waiters are woken by watches on the key's node ({@link KeyWatches}), persistent
 * where the server has them, set again after a reconnect, when every listener also runs
 * once.</li>
 * <li>Several keys are created in one {@code multi} transaction.</li>
 * </ul>
 *
 * @author distlock
 * @since 0.1.0
 */
public final class ZooKeeperLockStore
		implements LockStore, SeveralKeysExtension, InspectionExtension, SessionLeaseExtension {

	/**
	 * The base path used when none is given.
	 */
	public static final String DEFAULT_BASE_PATH = "/distlock";

	private final CuratorFramework client;

	private final LockPaths paths;

	private final Duration sessionTimeout;

	private final @Nullable List<ACL> acl;

	private final Background background;

	private final HeldNodes held = new HeldNodes();

	private final Holders holders = new Holders(this);

	private final Renewals renewals = new Renewals(this);

	private final KeyWatches watches;

	private final SessionFollower sessions = new SessionFollower(this);

	private final LeaseLimit leaseLimit = new LeaseLimit(this);

	private final AtomicBoolean closed = new AtomicBoolean();

	/**
	 * Create a store under {@link #DEFAULT_BASE_PATH}.
	 * @param client the started Curator client; the application closes it
	 * @param sessionTimeout the session timeout the client asked for, used until the
	 * ensemble has negotiated one
	 */
	public ZooKeeperLockStore(CuratorFramework client, Duration sessionTimeout) {
		this(client, DEFAULT_BASE_PATH, sessionTimeout);
	}

	/**
	 * Create a store whose nodes get the client's ACL provider's ACL.
	 * @param client the started Curator client; the application closes it
	 * @param basePath the absolute path under which the store creates its nodes, for
	 * example {@code "/distlock"}
	 * @param sessionTimeout the session timeout the client asked for, used until the
	 * ensemble has negotiated one
	 */
	public ZooKeeperLockStore(CuratorFramework client, String basePath, Duration sessionTimeout) {
		this(client, basePath, sessionTimeout, null);
	}

	/**
	 * Create a store.
	 * @param client the started Curator client; the application closes it
	 * @param basePath the absolute path under which the store creates its nodes, for
	 * example {@code "/distlock"}
	 * @param sessionTimeout the session timeout the client asked for, used until the
	 * ensemble has negotiated one
	 * @param acl the ACL of every node the store creates, the base path and key nodes
	 * included, for example {@code ZooDefs.Ids.CREATOR_ALL_ACL} for an authenticated
	 * client; {@code null} for the client's ACL provider's
	 */
	public ZooKeeperLockStore(CuratorFramework client, String basePath, Duration sessionTimeout,
			@Nullable List<ACL> acl) {
		Assert.notNull(client, "'client' must not be null");
		Assert.notNull(sessionTimeout, "'sessionTimeout' must not be null");
		Assert.isTrue(sessionTimeout.toMillis() > 0,
				() -> "'sessionTimeout' must be positive, but was " + sessionTimeout);
		Assert.isTrue(acl == null || !acl.isEmpty(), "'acl' must not be empty");
		this.client = client;
		this.paths = new LockPaths(basePath);
		this.sessionTimeout = sessionTimeout;
		this.acl = (acl != null) ? List.copyOf(acl) : null;
		this.background = new Background(Duration.ofMillis(client.getZookeeperClient().getConnectionTimeoutMs()));
		this.watches = new KeyWatches(client, this.paths);
		if (client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs() > 0) {
			sessionNegotiated(sessionTimeout());
		}
		client.getConnectionStateListenable().addListener(this.sessions);
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
		Grant replayed = this.held.get(key, token);
		if (replayed != null && replayed.lost() == null) {
			return CompletableFuture.completedFuture(Attempt.granted(replayed.fencingToken));
		}
		LockBackendException refused = refuseLease(key, "acquire", lease);
		if (refused != null) {
			return CompletableFuture.failedFuture(refused);
		}
		if (!this.watches.isWatched(key)) {
			return createAndCheck(key, token);
		}
		return children(key, "acquire")
			.thenCompose((children) -> holder(key, children, Map.of(), "acquire").thenCompose((holder) -> {
				if (holder == null) {
					return createAndCheck(key, token);
				}
				return CompletableFuture.completedFuture(holder.isOneOf(LockPaths.grantsOf(children, token))
						? Attempt.granted(granted(key, token, holder.name(), holder.stat())) : busy());
			}));
	}

	/**
	 * Return a refusal: how long the holder keeps the lock is unknown (as long as it
	 * lives), so a waiter re-checks often besides its watch.
	 */
	private static Attempt busy() {
		return Attempt.busy(null);
	}

	/**
	 * Return the refusal of one key of several taken at once that someone else holds: it
	 * says the session timeout, the longest a holder that died keeps the lock, so that
	 * the client can tell it from the keys that were free.
	 */
	Attempt heldElsewhere() {
		return Attempt.busy(sessionTimeout());
	}

	private CompletableFuture<Attempt> createAndCheck(String key, String token) {
		Stat created = new Stat();
		return this.background
			.call(key, "acquire",
					(callback) -> withAcl(this.client.create()
						.storingStatIn(created)
						.creatingParentContainersIfNeeded()
						.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)).inBackground(callback)
						.forPath(this.paths.grantPrefix(key, token), token.getBytes(StandardCharsets.UTF_8)),
					(late) -> undoLateGrant(key, token))
			.thenCompose((event) -> {
				String name = LockPaths.name(event.getName());
				Stat stat = (event.getStat() != null) ? event.getStat() : created;
				return children(key, "acquire").thenCompose((children) -> {
					List<String> own = LockPaths.grantsOf(children, token);
					return holder(key, children, Map.of(name, stat), "acquire").thenCompose((holder) -> {
						if (holder != null && holder.isOneOf(own)) {
							long fencingToken = granted(key, token, holder.name(), holder.stat());
							return deleteAll(key, own, holder.name(), "acquire")
								.thenApply((deleted) -> Attempt.granted(fencingToken));
						}
						// Refused at once; the nodes go in the background (a later
						// attempt
						// of the same token would take them as its own meanwhile)
						deleteAll(key, own.contains(name) ? own : List.of(name), null, "acquire")
							.whenComplete((deleted, failure) -> {
								if (failure != null) {
									undoLateGrant(key, token);
								}
							});
						return CompletableFuture.completedFuture(busy());
					});
				});
			});
	}

	/**
	 * Undo a create answered after its attempt gave up, or whose refusal could not delete
	 * it, unless the lock was granted meanwhile: delete every node of the token.
	 */
	private void undoLateGrant(String key, String token) {
		if (this.held.get(key, token) == null) {
			children(key, "release")
				.thenCompose((children) -> deleteAll(key, LockPaths.grantsOf(children, token), null, "release"));
		}
	}

	/**
	 * Record a grant and watch its node; return its fencing token.
	 */
	private long granted(String key, String token, String name, Stat stat) {
		Grant grant = new Grant(key, token, this.paths.child(key, name), stat.getCzxid(), stat.getEphemeralOwner());
		this.held.add(grant);
		this.sessions.watch(grant);
		return grant.fencingToken;
	}

	@Override
	public CompletionStage<Boolean> release(String key, String token) {
		Grant grant = this.held.get(key, token);
		if (grant != null) {
			this.held.remove(grant);
			return delete(key, grant.path, "release");
		}
		return children(key, "release").thenCompose((children) -> {
			List<String> own = LockPaths.grantsOf(children, token);
			if (own.isEmpty()) {
				return CompletableFuture.completedFuture(false);
			}
			return holder(key, children, Map.of(), "release")
				.thenCompose((holder) -> deleteAll(key, own, null, "release")
					.thenApply((deleted) -> holder != null && holder.isOneOf(own)));
		});
	}

	@Override
	public CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
		Assert.isTrue(remaining.toNanos() > 0, () -> "'remaining' must be positive, but was " + remaining);
		Grant grant = this.held.get(key, token);
		if (grant == null || grant.lost() != null) {
			return isOwner(key, token).thenApply((owner) -> {
				if (owner) {
					deleteLater(key, token, remaining);
				}
				return owner;
			});
		}
		deleteLater(key, token, remaining);
		return CompletableFuture.completedFuture(true);
	}

	/**
	 * Delete the grant of {@code token} after {@code delay}, on the JDK's shared delay
	 * timer (the delete itself is a background operation).
	 */
	private void deleteLater(String key, String token, Duration delay) {
		CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS, Runnable::run)
			.execute(() -> release(key, token));
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
		return sync(key, "check the owner of").thenCompose((synced) -> {
			if (grant != null) {
				return stat(key, grant.path, "check the owner of").thenApply((stat) -> stat != null
						&& stat.getEphemeralOwner() == grant.sessionId && currentSession() == grant.sessionId);
			}
			return children(key, "check the owner of")
				.thenCompose((children) -> holder(key, children, Map.of(), "check the owner of")
					.thenApply((holder) -> holder != null && holder.isOneOf(LockPaths.grantsOf(children, token))));
		});
	}

	@Override
	public Subscription onRelease(String key, Runnable listener) {
		return this.watches.subscribe(key, listener);
	}

	@Override
	// NullAway reads the extension's class file without the @Nullable of its type
	// arguments, so it sees this override's nullable type argument as a mismatch
	@SuppressWarnings("NullAway")
	public CompletionStage<@Nullable List<Attempt>> tryAcquireAll(List<String> keys, String token, Duration lease) {
		LockBackendException refused = refuseLease(keys.get(0), "acquire (several keys)", lease);
		if (refused != null) {
			return CompletableFuture.failedFuture(refused);
		}
		return new MultiGrant(this, keys, token).acquire();
	}

	@Override
	public CompletionStage<KeyState> inspect(String key) {
		return sync(key, "inspect").thenCompose((synced) -> children(key, "inspect"))
			.thenCompose((children) -> holder(key, children, Map.of(), "inspect"))
			.thenApply((holder) -> (holder != null)
					? new KeyState(LockPaths.token(holder.name()), null, holder.stat().getCzxid())
					: new KeyState(null, null, 0));
	}

	@Override
	// NullAway reads the extension's class file without the @Nullable of its type
	// arguments, so it sees this override's nullable type argument as a mismatch
	@SuppressWarnings("NullAway")
	public CompletionStage<@Nullable String> forceRelease(String key) {
		return sync(key, "force-release").thenCompose((synced) -> children(key, "force-release"))
			.thenCompose((children) -> holder(key, children, Map.of(), "force-release"))
			.thenCompose((holder) -> {
				if (holder == null) {
					return CompletableFuture.completedFuture(null);
				}
				return delete(key, this.paths.child(key, holder.name()), "force-release")
					.thenApply((deleted) -> deleted ? LockPaths.token(holder.name()) : null);
			});
	}

	/**
	 * Return the session timeout the ensemble negotiated, or, until the client first
	 * connected, the one it asked for.
	 */
	@Override
	public Duration sessionTimeout() {
		int negotiated = this.client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs();
		return (negotiated > 0) ? Duration.ofMillis(negotiated) : this.sessionTimeout;
	}

	@Override
	public @Nullable String lossReason(String key, String token) {
		Grant grant = this.held.get(key, token);
		return (grant != null) ? grant.lost() : null;
	}

	@Override
	public @Nullable LossReason lossKind(String key, String token) {
		Grant grant = this.held.get(key, token);
		return (grant != null && HeldNodes.SESSION_EXPIRED.equals(grant.lost())) ? LossReason.SESSION_EXPIRED : null;
	}

	@Override
	public Subscription onSessionInterrupted(Runnable listener) {
		return this.sessions.onInterrupted(listener);
	}

	/**
	 * Stop watching and stop following the connection; the nodes of locks still held stay
	 * until they are released or the session ends. The client is the application's: it
	 * stays open.
	 */
	@Override
	public void close() {
		if (this.closed.compareAndSet(false, true)) {
			this.client.getConnectionStateListenable().removeListener(this.sessions);
			this.watches.close();
			this.sessions.close();
		}
	}

	/**
	 * Record the session timeout negotiated at a (re)connect.
	 * @see LeaseLimit#sessionNegotiated
	 */
	void sessionNegotiated(Duration negotiated) {
		this.leaseLimit.sessionNegotiated(negotiated, this.renewals.lastLease());
	}

	/**
	 * Return the failure of an operation whose lease is too long for the session, or
	 * {@code null}.
	 * @see LeaseLimit#refuse
	 */
	@Nullable LockBackendException refuseLease(String key, String what, Duration lease) {
		return this.leaseLimit.refuse(key, what, lease);
	}

	CuratorFramework client() {
		return this.client;
	}

	LockPaths paths() {
		return this.paths;
	}

	Background background() {
		return this.background;
	}

	HeldNodes held() {
		return this.held;
	}

	/**
	 * Record a grant made by several keys at once.
	 */
	long granted(String key, String token, String path, long fencingToken, long sessionId) {
		Grant grant = new Grant(key, token, path, fencingToken, sessionId);
		this.held.add(grant);
		this.sessions.watch(grant);
		return fencingToken;
	}

	/**
	 * List the children of the node of {@code key}: none when it does not exist.
	 */
	CompletableFuture<List<String>> children(String key, String what) {
		return this.background
			.call(key, what,
					(callback) -> this.client.getChildren().inBackground(callback).forPath(this.paths.keyPath(key)),
					Code.NONODE)
			.thenApply((event) -> (Background.code(event) == Code.OK) ? event.getChildren() : List.of());
	}

	/**
	 * Return the stat of {@code path}, or {@code null} when it does not exist.
	 */
	CompletableFuture<@Nullable Stat> stat(String key, String path, String what) {
		return this.background
			.call(key, what, (callback) -> this.client.checkExists().inBackground(callback).forPath(path), Code.NONODE)
			.<@Nullable Stat>thenApply(CuratorEvent::getStat);
	}

	/**
	 * Delete {@code path}; return whether it existed. A delete Curator sent again after
	 * the connection dropped may find its first copy applied: a missing node then counts
	 * as deleted when the connection was interrupted while the delete was on its way, so
	 * that a release whose reply was lost is not reported as a loss. (Curator's own
	 * {@code idempotent()} also hides a node someone else deleted.)
	 */
	CompletableFuture<Boolean> delete(String key, String path, String what) {
		long interruptions = this.sessions.interruptions();
		return this.background
			.call(key, what, (callback) -> this.client.delete().inBackground(callback).forPath(path), Code.NONODE)
			.thenApply((event) -> Background.code(event) == Code.OK || this.sessions.interruptions() != interruptions);
	}

	/**
	 * Delete the children {@code names} of the node of {@code key} but {@code kept}.
	 */
	CompletableFuture<Void> deleteAll(String key, List<String> names, @Nullable String kept, String what) {
		List<CompletableFuture<Boolean>> deletes = new ArrayList<>(names.size());
		for (String name : names) {
			if (!name.equals(kept)) {
				deletes.add(delete(key, this.paths.child(key, name), what));
			}
		}
		return CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new));
	}

	/**
	 * Return the child holding the lock of {@code key} among {@code children}.
	 */
	CompletableFuture<@Nullable Holder> holder(String key, List<String> children, Map<String, Stat> known,
			String what) {
		return this.holders.find(key, children, known, what);
	}

	/**
	 * Return the ACL of the store's nodes, or {@code null} for the client's provider's.
	 */
	@Nullable List<ACL> acl() {
		return this.acl;
	}

	/**
	 * Apply the store's ACL, if any, to a create and to the parents it creates.
	 */
	private <T> BackgroundPathAndBytesable<T> withAcl(ACLBackgroundPathAndBytesable<T> create) {
		return (this.acl != null) ? create.withACL(this.acl, true) : create;
	}

	/**
	 * Bring the server this client reads from up to date with the leader, so that the
	 * next read sees every write committed before it.
	 */
	private CompletableFuture<CuratorEvent> sync(String key, String what) {
		return this.background.call(key, what,
				(callback) -> this.client.sync().inBackground(callback).forPath(this.paths.basePath()));
	}

	/**
	 * Return the id of the client's current session, or 0 while it is not connected.
	 */
	long currentSession() {
		return this.sessions.currentSession();
	}

	KeyWatches watches() {
		return this.watches;
	}

	Renewals renewals() {
		return this.renewals;
	}

}
