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

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.distlock.testing.BackendVersions;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Version;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * A three-server ZooKeeper ensemble started in-process (Curator's {@link TestingCluster}:
 * real ZooKeeper servers on free ports), and the Curator clients a test makes on it, each
 * with a session of its own as an application instance has.
 *
 * @author distlock
 */
final class TestEnsemble implements AutoCloseable {

	static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);

	static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(5);

	private final TestingCluster cluster;

	private final List<CuratorFramework> clients = new CopyOnWriteArrayList<>();

	private final CuratorFramework admin;

	TestEnsemble() throws Exception {
		// The servers are real; only their disk writes skip fsync, as a test's data need
		// not survive
		System.setProperty("zookeeper.forceSync", "no");
		this.cluster = new TestingCluster(3);
		this.cluster.start();
		BackendVersions.record("ZooKeeper", Version.getFullVersion());
		this.admin = newClient();
	}

	TestingCluster cluster() {
		return this.cluster;
	}

	/**
	 * Return a new started client on the whole ensemble, with a session of its own.
	 */
	CuratorFramework newClient() throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(this.cluster.getConnectString())
			.sessionTimeoutMs((int) SESSION_TIMEOUT.toMillis())
			.connectionTimeoutMs((int) CONNECTION_TIMEOUT.toMillis())
			.retryPolicy(new RetryNTimes(3, 100))
			.build();
		client.start();
		if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
			throw new IllegalStateException("Could not connect to " + this.cluster.getConnectString());
		}
		this.clients.add(client);
		return client;
	}

	/**
	 * Close {@code client} with the test's own clients.
	 */
	void adopt(CuratorFramework client) {
		this.clients.add(client);
	}

	/**
	 * Return a new store with a client of its own.
	 */
	ZooKeeperLockStore newStore() {
		try {
			return new ZooKeeperLockStore(newClient(), SESSION_TIMEOUT);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Return whether {@code key} is locked: whether its holder node exists or readers
	 * hold it, read after a sync with the leader.
	 */
	boolean isLocked(String key) {
		return children(key).contains(LockPaths.HOLDER) || !readers(key).isEmpty();
	}

	/**
	 * Return the children of the node of {@code key}, read after a sync with the leader;
	 * none when the node does not exist.
	 */
	List<String> children(String key) {
		return childrenOf(keyPath(key));
	}

	/**
	 * Return the reader nodes of {@code key}, read after a sync with the leader.
	 */
	List<String> readers(String key) {
		return childrenOf(keyPath(key) + "/" + LockPaths.READERS);
	}

	private List<String> childrenOf(String path) {
		try {
			// One session answers in order: the read follows the sync without waiting for
			// it
			this.admin.sync().inBackground().forPath(path);
			CompletableFuture<List<String>> children = new CompletableFuture<>();
			this.admin.getChildren()
				.inBackground((client,
						event) -> children.complete((event.getResultCode() == KeeperException.Code.OK.intValue())
								? event.getChildren() : List.of()))
				.forPath(path);
			return children.get(10, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Delete the holder, owner and reader nodes of {@code key}, as its holders' sessions
	 * ending would, without notifying anybody but ZooKeeper's watchers.
	 */
	void deleteGrants(String key) {
		for (String reader : readers(key)) {
			try {
				this.admin.delete().forPath(keyPath(key) + "/" + LockPaths.READERS + "/" + reader);
			}
			catch (KeeperException.NoNodeException ex) {
				// gone already
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}
		for (String child : children(key)) {
			if (child.equals(LockPaths.HOLDER) || child.startsWith("o-")) {
				try {
					this.admin.delete().forPath(keyPath(key) + "/" + child);
				}
				catch (KeeperException.NoNodeException ex) {
					// gone already
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			}
		}
	}

	/**
	 * Give {@code key} to a foreign owner: holder and owner nodes of the suite's own
	 * session, which live as long as the suite.
	 */
	void giveToForeignOwner(String key) {
		deleteGrants(key);
		try {
			this.admin.create()
				.creatingParentContainersIfNeeded()
				.withMode(CreateMode.EPHEMERAL)
				.forPath(keyPath(key) + "/" + LockPaths.HOLDER, "someone-else".getBytes(StandardCharsets.UTF_8));
			this.admin.create().withMode(CreateMode.EPHEMERAL).forPath(keyPath(key) + "/o-someone-else");
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * End the session of {@code client} on the ensemble, as its expiry would: a second
	 * connection in the same session closes it.
	 */
	void endSession(CuratorFramework client) throws Exception {
		ZooKeeper zooKeeper = client.getZookeeperClient().getZooKeeper();
		CountDownLatch connected = new CountDownLatch(1);
		ZooKeeper same = new ZooKeeper(this.cluster.getConnectString(), 10_000, (event) -> {
			if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
				connected.countDown();
			}
		}, zooKeeper.getSessionId(), zooKeeper.getSessionPasswd());
		if (!connected.await(10, TimeUnit.SECONDS)) {
			throw new IllegalStateException("Could not join the session to end it");
		}
		same.close();
	}

	/**
	 * Return the server that leads the ensemble now, asking each with the {@code srvr}
	 * command.
	 */
	InstanceSpec leader() throws IOException {
		for (InstanceSpec instance : this.cluster.getInstances()) {
			try (Socket socket = new Socket("127.0.0.1", instance.getPort())) {
				socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
				String status = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
				if (status.contains("Mode: leader")) {
					return instance;
				}
			}
			catch (IOException ex) {
				// a server that is down leads nothing
			}
		}
		throw new IllegalStateException("No server of " + this.cluster.getConnectString() + " leads");
	}

	static String keyPath(String key) {
		return ZooKeeperLockStore.DEFAULT_BASE_PATH + "/" + LockPaths.segment(key);
	}

	/**
	 * Close the clients the test made, but the suite's own.
	 */
	void closeClients() {
		for (CuratorFramework client : this.clients) {
			if (client != this.admin) {
				client.close();
				this.clients.remove(client);
			}
		}
	}

	@Override
	public void close() throws Exception {
		this.clients.forEach(CuratorFramework::close);
		this.cluster.close();
	}

}
