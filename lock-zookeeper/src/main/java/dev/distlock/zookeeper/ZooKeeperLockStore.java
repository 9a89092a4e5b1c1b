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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.LockBackendException;
import dev.distlock.store.FairQueueExtension;
import dev.distlock.store.HeldLockOperations;
import dev.distlock.store.InspectionExtension;
import dev.distlock.store.LockStore;
import dev.distlock.LossReason;
import dev.distlock.store.ReadLockExtension;
import dev.distlock.store.SessionLeaseExtension;
import dev.distlock.store.SeveralKeysExtension;
import dev.distlock.store.WakeOneExtension;
import dev.distlock.store.support.RecentReleases;
import dev.distlock.zookeeper.HeldNodes.Grant;
import dev.distlock.zookeeper.LockTransactions.Taken;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.transaction.CuratorOp;
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
 * <li>A lock is a key's ephemeral holder node, created with the holder's owner node in
 * one {@code multi} transaction ({@link LockTransactions}, {@link LockPaths}): taking it
 * is one write, which fails with nothing left behind when the key is held, and giving it
 * back is one write, deleting both nodes, which fails when the token no longer holds the
 * key (so it never removes a later holder's). Neither reads, nor sets a watch. A take
 * that Curator sent again after a lost reply finds the holder node its own; a take
 * answered after its attempt gave up is given back; a release Curator sent again after a
 * lost reply is not a loss.</li>
 * <li>Key nodes and the base path are container nodes: the server removes them once they
 * are empty.</li>
 * <li>Every node is created with the store's ACL when one is given (for example
 * {@code ZooDefs.Ids.CREATOR_ALL_ACL} for an authenticated client), else with the
 * client's ACL provider's.</li>
 * <li>The fencing token is the holder node's creation zxid, which increases across the
 * whole ensemble and its leader changes, so it increases per key across sessions and
 * deletions.</li>
 * <li>The session is the lease ({@link SessionLeaseExtension}): a renewal is answered as
 * renewed only for grants of the current session whose nodes a round trip through the
 * leader confirmed ({@link Renewals}); once the connection is suspended every grant is
 * lost, and the client ends every lease's view at once. A lease longer than a third of
 * the negotiated session ({@link #longestLease()}) is refused once a session was
 * negotiated shorter than the first (the auto-configuration checked the first). A fixed
 * lease cannot be kept: the client refuses it.</li>
 * <li>A minimum hold time ({@link #expireAfter}) defers the delete on a JDK timer; the
 * lock ends earlier if the process dies, with its session.</li>
 * <li>A waiting client keeps one place in the key's line for its whole wait
 * ({@link WaitingLine}, {@link WakeOneExtension}): one queue node, watching only the node
 * before it, or the holder node when first, so a release wakes one client; a refused
 * attempt writes nothing, and a grant deletes the client's queue node in its own
 * transaction. Release listeners ({@link #onRelease(String, Runnable)}) hear the holder
 * node's deletion through one watch per key ({@link KeyWatches}), persistent where the
 * server has them. After a reconnect every watch is set again and every listener runs
 * once.</li>
 * <li>Fair locks ({@link FairQueueExtension}) use the same line, one place per caller:
 * the first place reserves the key with the fair line's {@code next} node, which fails
 * every take but its own claim, so the key goes in arrival order; the claim takes the
 * key, deletes the place and passes the reservation on to the next fair caller in one
 * transaction ({@link FairReservation}). A place whose caller stops asking leaves within
 * its grant timeout, its reservation with it.</li>
 * <li>Several keys are taken in one {@code multi} transaction, all or none
 * ({@link MultiGrant}).</li>
 * <li>Read locks ({@link ReadLockExtension}) are ephemeral nodes of the key's readers
 * container, which fails every writer's take while it exists ({@link ReadGrants}); a
 * writer waiting for readers marks the key, which refuses new readers
 * ({@link WriterMarks}).</li>
 * </ul>
 *
 * @author distlock
 * @since 0.1.0
 */
public final class ZooKeeperLockStore implements LockStore, WakeOneExtension, FairQueueExtension, SeveralKeysExtension,
		InspectionExtension, SessionLeaseExtension, ReadLockExtension {

	/**
	 * The base path used when none is given.
	 */
	public static final String DEFAULT_BASE_PATH = "/distlock";

	/**
	 * How many releases the store remembers, so that their replays answer as they did:
	 * ZooKeeper keeps no trace of a deleted node.
	 */
	private static final int RELEASES_REMEMBERED = 4096;

	private final CuratorFramework client;

	private final LockPaths paths;

	private final Duration sessionTimeout;

	private final @Nullable List<ACL> acl;

	private final Background background;

	private final HeldNodes held = new HeldNodes();

	private final RecentReleases releases = new RecentReleases(RELEASES_REMEMBERED);

	private final LockTransactions transactions = new LockTransactions(this);

	private final WaitingLine line = new WaitingLine(this);

	private final Renewals renewals = new Renewals(this, this.held, this::isOwner);

	private final ReadGrants readers = new ReadGrants(this, RELEASES_REMEMBERED);

	private final WriterMarks marks = new WriterMarks(this);

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
		CompletableFuture<Attempt> known = answeredAtOnce(key, token, lease);
		return (known != null) ? known : take(key, token, true, List.of(), false).thenApply(Taken::attempt);
	}

	@Override
	public CompletionStage<Attempt> tryAcquireRead(String key, String token, Duration lease) {
		return this.readers.tryAcquire(key, token, lease);
	}

	@Override
	public HeldLockOperations readGrants() {
		return this.readers;
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease, String waiter,
			Duration waiterTtl) {
		CompletableFuture<Attempt> known = answeredAtOnce(key, token, lease);
		return (known != null) ? known : this.line.take(key, token, waiter, waiterTtl, true);
	}

	@Override
	public CompletionStage<Attempt> tryAcquireFair(String key, String token, Duration lease,
			@Nullable Duration grantTimeout) {
		CompletableFuture<Attempt> known = answeredAtOnce(key, token, lease);
		return (known != null) ? known : this.line.takeFair(key, token, grantTimeout);
	}

	@Override
	public CompletionStage<Void> leaveFairQueue(String key, String token) {
		return this.line.leave(key, token);
	}

	@Override
	public Subscription onFairWakeUp(String key, String token, Runnable listener) {
		return this.line.listen(key, token, listener);
	}

	/**
	 * Return the answer to an attempt known without a request: the grant of a replay, or
	 * the failure of a lease too long for the session; else {@code null}.
	 */
	private @Nullable CompletableFuture<Attempt> answeredAtOnce(String key, String token, Duration lease) {
		Grant replayed = this.held.get(key, token);
		if (replayed != null && replayed.lost() == null) {
			return CompletableFuture.completedFuture(Attempt.granted(replayed.fencingToken));
		}
		LockBackendException refused = refuseLease(key, "acquire", lease);
		return (refused != null) ? CompletableFuture.failedFuture(refused) : null;
	}

	@Override
	public Subscription onRelease(String key, String waiter, Runnable listener) {
		return this.line.listen(key, waiter, listener);
	}

	@Override
	public CompletionStage<Void> leave(String key, String waiter) {
		return this.line.leave(key, waiter);
	}

	/**
	 * Take {@code key} for {@code token} in one transaction, with {@code extra}
	 * operations after the take's own; a refusal by readers marks the key when the writer
	 * {@code waits} ({@link WriterMarks}).
	 * @see LockTransactions#take
	 */
	CompletableFuture<Taken> take(String key, String token, boolean gated, List<CuratorOp> extra, boolean waits) {
		return this.marks.take(key, token, waits,
				() -> this.transactions.take(key, token, gated, extra, (late) -> undoLateGrant(key, token)));
	}

	/**
	 * Return a refusal: how long the holder keeps the lock is unknown (as long as it
	 * lives), so a waiter re-checks often besides its watch.
	 */
	static Attempt busy() {
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

	/**
	 * Undo a take answered after its attempt gave up, unless the lock was granted
	 * meanwhile.
	 */
	private void undoLateGrant(String key, String token) {
		if (this.held.get(key, token) == null) {
			giveBack(key, token, "release");
		}
	}

	@Override
	public CompletionStage<Boolean> release(String key, String token) {
		Grant grant = this.held.get(key, token);
		if (grant != null) {
			this.held.remove(grant);
		}
		return giveBack(key, token, "release").thenApply((released) -> {
			if (released) {
				this.releases.released(key, token);
				return true;
			}
			// A replay answers as the first release did
			return grant == null && this.releases.wasReleased(key, token);
		});
	}

	/**
	 * Delete the holder and owner nodes of {@code token} in one transaction; return
	 * whether the token held the key. A transaction Curator sent again after the
	 * connection dropped may find its first copy applied: missing nodes then count as
	 * deleted, so that a release whose reply was lost is not reported as a loss.
	 */
	CompletableFuture<Boolean> giveBack(String key, String token, String what) {
		List<CuratorOp> operations = new ArrayList<>(2);
		try {
			this.transactions.addGiveBack(operations, key, token);
		}
		catch (Exception ex) {
			return CompletableFuture.failedFuture(new LockBackendException(key, what, ex));
		}
		return this.transactions.run(List.of(key), what, operations, null)
			.thenApply((outcome) -> outcome.ok() || (outcome.code() == Code.NONODE && outcome.interrupted()));
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
		return sync(key, "check the owner of")
			.thenCompose((synced) -> stat(key, this.paths.ownerPath(key, token), "check the owner of"))
			.thenApply((stat) -> stat != null && stat.getEphemeralOwner() != 0 && (grant == null
					|| (stat.getEphemeralOwner() == grant.sessionId && currentSession() == grant.sessionId)));
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
		// A free key reserved for the fair line's head is the head's
		return sync(key, "inspect").thenCompose((synced) -> holderData(key, "inspect"))
			.<@Nullable Holder>thenCompose(
					(holder) -> (holder != null) ? CompletableFuture.<@Nullable Holder>completedFuture(holder)
							: nodeData(key, this.paths.nextPath(key), "inspect"))
			.thenApply((holder) -> (holder != null) ? new KeyState(holder.token(), null, holder.stat().getCzxid())
					: new KeyState(null, null, 0));
	}

	@Override
	// NullAway reads the extension's class file without the @Nullable of its type
	// arguments, so it sees this override's nullable type argument as a mismatch
	@SuppressWarnings("NullAway")
	public CompletionStage<@Nullable String> forceRelease(String key) {
		return sync(key, "force-release").thenCompose((synced) -> holderData(key, "force-release"))
			.thenCompose((holder) -> {
				if (holder == null) {
					return CompletableFuture.completedFuture(null);
				}
				return giveBack(key, holder.token(), "force-release")
					.thenApply((deleted) -> deleted ? holder.token() : null);
			});
	}

	/**
	 * Read the holder node of {@code key}: its token and stat, or {@code null} when
	 * nobody holds the key.
	 */
	CompletableFuture<@Nullable Holder> holderData(String key, String what) {
		return nodeData(key, this.paths.holderPath(key), what);
	}

	private CompletableFuture<@Nullable Holder> nodeData(String key, String path, String what) {
		return this.background
			.call(key, what, (callback) -> this.client.getData().inBackground(callback).forPath(path), Code.NONODE)
			.<@Nullable Holder>thenApply(
					(event) -> (Background.code(event) == Code.OK && event.getData() != null && event.getStat() != null)
							? new Holder(new String(event.getData(), StandardCharsets.UTF_8), event.getStat()) : null);
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
		return (grant != null) ? grant.lost() : this.readers.lossReason(key, token);
	}

	@Override
	public @Nullable LossReason lossKind(String key, String token) {
		return HeldNodes.SESSION_EXPIRED.equals(lossReason(key, token)) ? LossReason.SESSION_EXPIRED : null;
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
	 * Record a grant; return its fencing token.
	 */
	long granted(String key, String token, long fencingToken, long sessionId) {
		this.held.add(new Grant(key, token, this.paths.ownerPath(key, token), fencingToken, sessionId));
		return fencingToken;
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
	 * Return the ACL of the store's nodes, or {@code null} for the client's provider's.
	 */
	@Nullable List<ACL> acl() {
		return this.acl;
	}

	/**
	 * Bring the server this client reads from up to date with the leader, so that the
	 * next read sees every write committed before it.
	 */
	CompletableFuture<CuratorEvent> sync(String key, String what) {
		return this.background.call(key, what,
				(callback) -> this.client.sync().inBackground(callback).forPath(this.paths.basePath()));
	}

	/**
	 * Return the id of the client's current session, or 0 while it is not connected.
	 */
	long currentSession() {
		return this.sessions.currentSession();
	}

	LockTransactions transactions() {
		return this.transactions;
	}

	WaitingLine line() {
		return this.line;
	}

	ReadGrants readers() {
		return this.readers;
	}

	WriterMarks marks() {
		return this.marks;
	}

	KeyWatches watches() {
		return this.watches;
	}

	/**
	 * Return how many times the connection was suspended or the session lost so far.
	 */
	long interruptions() {
		return this.sessions.interruptions();
	}

	/**
	 * The holder of a key as its holder node tells.
	 *
	 * @param token the holder's token, the node's data
	 * @param stat the node's stat: its creation zxid is the fencing token
	 */
	record Holder(String token, Stat stat) {

	}

}
