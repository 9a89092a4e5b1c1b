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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.distlock.LockBackendException;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.LockStore.Renewal;
import dev.distlock.store.LockStore.RenewalOutcome;
import dev.distlock.testing.TcpProxy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The nodes of {@link ZooKeeperLockStore} on a real server (Curator's
 * {@link TestingServer}): nodes that cannot be orphaned or forged, ACLs, and renewals
 * that a round trip confirms.
 *
 * @author distlock
 */
class ZooKeeperNodeTests {

	private static final Duration SESSION = Duration.ofSeconds(10);

	private static final Duration LEASE = Duration.ofSeconds(3);

	private static TestingServer server;

	private final List<CuratorFramework> clients = new CopyOnWriteArrayList<>();

	@BeforeAll
	static void startServer() throws Exception {
		server = new TestingServer(true);
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@AfterEach
	void closeClients() {
		this.clients.forEach(CuratorFramework::close);
	}

	@Test
	void aForgedPersistentChildDoesNotBlockTheKey() throws Exception {
		CuratorFramework forger = newClient(null);
		forger.create()
			.creatingParentsIfNeeded()
			.withMode(CreateMode.PERSISTENT)
			.forPath("/distlock/order:7/x-0000000000");
		ZooKeeperLockStore store = new ZooKeeperLockStore(newClient(null), SESSION);
		Attempt attempt = join(store.tryAcquire("order:7", "t1", LEASE));
		assertThat(attempt.acquired()).isTrue();
		assertThat(join(store.inspect("order:7")).ownerToken()).isEqualTo("t1");
		assertThat(join(store.isOwner("order:7", "t1"))).isTrue();
		assertThat(join(store.release("order:7", "t1"))).isTrue();
		assertThat(join(store.inspect("order:7")).ownerToken()).isNull();
	}

	@Test
	void aChildNotNamedByTheStoresPatternDoesNotBlockTheKey() throws Exception {
		CuratorFramework other = newClient(null);
		other.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath("/distlock/order:8/lock");
		ZooKeeperLockStore store = new ZooKeeperLockStore(newClient(null), SESSION);
		assertThat(join(store.tryAcquire("order:8", "t1", LEASE)).acquired()).isTrue();
	}

	@Test
	void aTakeWhoseReplyIsLostWhenTheLinkDropsIsGrantedOnce() throws Exception {
		try (TcpProxy proxy = TcpProxy.start("127.0.0.1", server.getPort())) {
			CuratorFramework client = newClient(proxy.address(), null);
			ZooKeeperLockStore store = new ZooKeeperLockStore(client, SESSION);
			LockPaths paths = new LockPaths(ZooKeeperLockStore.DEFAULT_BASE_PATH);
			CuratorFramework observer = newClient(null);
			// The key's node exists, so that the create needs no answer before it is
			// applied
			observer.create().creatingParentsIfNeeded().forPath(paths.keyPath("order:17"));
			// The create reaches the server, its reply is held, and the link drops:
			// Curator
			// sends the create again on the next link
			proxy.delayToClients(Duration.ofSeconds(30));
			CompletableFuture<Attempt> attempt = store.tryAcquire("order:17", "t1", LEASE).toCompletableFuture();
			await().atMost(Duration.ofSeconds(5))
				.until(() -> observer.checkExists().forPath(paths.holderPath("order:17")) != null);
			proxy.cut();
			proxy.delayToClients(Duration.ZERO);
			Attempt granted = attempt.get(20, TimeUnit.SECONDS);
			assertThat(granted.acquired()).isTrue();
			assertThat(granted.fencingToken())
				.isEqualTo(observer.checkExists().forPath(paths.holderPath("order:17")).getCzxid());
			assertThat(observer.getChildren().forPath(paths.keyPath("order:17"))).containsExactlyInAnyOrder("holder",
					"o-t1");
			assertThat(join(store.release("order:17", "t1"))).isTrue();
			assertThat(observer.getChildren().forPath(paths.keyPath("order:17"))).isEmpty();
		}
	}

	@Test
	void aReleaseWhoseReplyIsLostWhenTheLinkDropsIsStillARelease() throws Exception {
		try (TcpProxy proxy = TcpProxy.start("127.0.0.1", server.getPort())) {
			CuratorFramework client = newClient(proxy.address(), null);
			ZooKeeperLockStore store = new ZooKeeperLockStore(client, SESSION);
			LockPaths paths = new LockPaths(ZooKeeperLockStore.DEFAULT_BASE_PATH);
			CuratorFramework observer = newClient(null);
			assertThat(join(store.tryAcquire("order:18", "t1", LEASE)).acquired()).isTrue();
			// The delete reaches the server, its reply is held, and the link drops:
			// Curator sends the delete again on the next link, and finds no node
			proxy.delayToClients(Duration.ofSeconds(30));
			CompletableFuture<Boolean> release = store.release("order:18", "t1").toCompletableFuture();
			await().atMost(Duration.ofSeconds(5)).until(() -> grantCount(observer, paths.keyPath("order:18")) == 0);
			proxy.cut();
			proxy.delayToClients(Duration.ZERO);
			assertThat(release.get(20, TimeUnit.SECONDS)).as("a release, not a loss").isTrue();
		}
	}

	private static int grantCount(CuratorFramework observer, String keyPath) throws Exception {
		return (observer.checkExists().forPath(keyPath + "/holder") != null) ? 1 : 0;
	}

	@Test
	void aRefusedAttemptLeavesNoNode() throws Exception {
		CuratorFramework client = newClient(null);
		ZooKeeperLockStore holder = new ZooKeeperLockStore(newClient(null), SESSION);
		ZooKeeperLockStore store = new ZooKeeperLockStore(client, SESSION);
		assertThat(join(holder.tryAcquire("order:10", "h", LEASE)).acquired()).isTrue();
		LockPaths paths = new LockPaths(ZooKeeperLockStore.DEFAULT_BASE_PATH);
		assertThat(join(store.tryAcquire("order:10", "t2", LEASE)).acquired()).isFalse();
		assertThat(client.getChildren().forPath(paths.keyPath("order:10"))).containsExactlyInAnyOrder("holder", "o-h");
		assertThat(join(store.release("order:10", "t2"))).as("a release by a token that holds nothing").isFalse();
		assertThat(join(holder.isOwner("order:10", "h"))).isTrue();
	}

	@Test
	void aReleaseAfterTheKeyWasForceReleasedAndTakenAgainLeavesTheNewHolder() throws Exception {
		ZooKeeperLockStore first = new ZooKeeperLockStore(newClient(null), SESSION);
		ZooKeeperLockStore second = new ZooKeeperLockStore(newClient(null), SESSION);
		assertThat(join(first.tryAcquire("order:19", "t1", LEASE)).acquired()).isTrue();
		assertThat(join(second.forceRelease("order:19"))).isEqualTo("t1");
		assertThat(join(second.tryAcquire("order:19", "t2", LEASE)).acquired()).isTrue();
		assertThat(join(first.release("order:19", "t1"))).isFalse();
		assertThat(join(second.inspect("order:19")).ownerToken()).isEqualTo("t2");
	}

	@Test
	void aRenewalOfAGrantWhoseNodeIsGoneIsLostNotRenewed() throws Exception {
		CuratorFramework client = newClient(null);
		ZooKeeperLockStore store = new ZooKeeperLockStore(client, SESSION);
		assertThat(join(store.tryAcquire("order:11", "t1", LEASE)).acquired()).isTrue();
		assertThat(join(store.tryAcquire("order:12", "t2", LEASE)).acquired()).isTrue();
		LockPaths paths = new LockPaths(ZooKeeperLockStore.DEFAULT_BASE_PATH);
		// Deleted without the store's watch telling it first: the renewal must ask
		store.close();
		newClient(null).delete().deletingChildrenIfNeeded().forPath(paths.keyPath("order:11"));
		List<RenewalOutcome> outcomes = join(
				store.renew(List.of(new Renewal("order:11", "t1"), new Renewal("order:12", "t2")), LEASE));
		assertThat(outcomes).containsExactly(RenewalOutcome.LOST, RenewalOutcome.RENEWED);
	}

	@Test
	void aLeaseLongerThanAThirdOfASessionNegotiatedShorterLaterIsRefused() throws Exception {
		ZooKeeperLockStore store = new ZooKeeperLockStore(newClient(null), SESSION);
		Duration session = store.sessionTimeout();
		assertThat(store.longestLease()).isEqualTo(session.dividedBy(3));
		Duration lease = session.dividedBy(3).plusMillis(1);
		// The first session is what the startup check read: its lease is not checked
		// again
		assertThat(join(store.tryAcquire("order:13", "t1", lease)).acquired()).isTrue();
		// As on a reconnect after the ensemble's maximum session was lowered
		store.sessionNegotiated(session.minusSeconds(1));
		assertThatExceptionOfType(LockBackendException.class)
			.isThrownBy(() -> join(store.tryAcquire("order:14", "t2", lease)))
			.withMessageContaining("longer than a third of the ZooKeeper session timeout");
		assertThat(join(store.renew(List.of(new Renewal("order:13", "t1")), lease)))
			.containsExactly(RenewalOutcome.FAILED);
		assertThat(join(store.renew(List.of(new Renewal("order:13", "t1")), store.longestLease())))
			.containsExactly(RenewalOutcome.RENEWED);
	}

	@Test
	void anAuthenticatedClientsNodesAreNotWritableByAnotherIdentity() throws Exception {
		CuratorFramework alice = newClient("alice:secret");
		ZooKeeperLockStore store = new ZooKeeperLockStore(alice, "/secured", SESSION, ZooDefs.Ids.CREATOR_ALL_ACL);
		assertThat(join(store.tryAcquire("order:16", "t1", LEASE)).acquired()).isTrue();
		String node = "/secured/order:16/" + alice.getChildren().forPath("/secured/order:16").get(0);
		CuratorFramework mallory = newClient("mallory:other");
		assertThatExceptionOfType(KeeperException.NoAuthException.class)
			.isThrownBy(() -> mallory.delete().forPath(node));
		assertThatExceptionOfType(KeeperException.NoAuthException.class)
			.isThrownBy(() -> mallory.create().forPath("/secured/order:16/x-0000000000"));
		assertThat(alice.getACL().forPath("/secured")).isEqualTo(alice.getACL().forPath(node))
			.allSatisfy((acl) -> assertThat(acl.getId().getScheme()).isEqualTo("digest"));
		ZooKeeperLockStore intruder = new ZooKeeperLockStore(mallory, "/secured", SESSION, ZooDefs.Ids.CREATOR_ALL_ACL);
		assertThatExceptionOfType(LockBackendException.class)
			.isThrownBy(() -> join(intruder.tryAcquire("order:15", "t2", LEASE)))
			.withRootCauseInstanceOf(KeeperException.NoAuthException.class);
	}

	private CuratorFramework newClient(@Nullable String digest) throws InterruptedException {
		return newClient(server.getConnectString(), digest);
	}

	private CuratorFramework newClient(String connectString, @Nullable String digest) throws InterruptedException {
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs((int) SESSION.toMillis())
			.connectionTimeoutMs(5000)
			.retryPolicy(new RetryNTimes(3, 100));
		if (digest != null) {
			builder.authorization("digest", digest.getBytes(StandardCharsets.UTF_8));
		}
		CuratorFramework client = builder.build();
		client.start();
		assertThat(client.blockUntilConnected(30, TimeUnit.SECONDS)).isTrue();
		this.clients.add(client);
		return client;
	}

	private static <T> T join(CompletionStage<T> stage) {
		try {
			return stage.toCompletableFuture().get(20, TimeUnit.SECONDS);
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof RuntimeException runtime) {
				throw runtime;
			}
			throw new IllegalStateException(ex.getCause());
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
