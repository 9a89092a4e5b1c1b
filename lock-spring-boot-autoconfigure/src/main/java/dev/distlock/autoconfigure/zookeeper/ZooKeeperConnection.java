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

package dev.distlock.autoconfigure.zookeeper;

import dev.distlock.autoconfigure.LockStoreHealth;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.retry.ExponentialBackoffRetry;

import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * The Curator client the ZooKeeper store uses: the application's, or one distlock built
 * from {@code distlock.zookeeper.*} and closes at shutdown. Follows the connection state
 * for the health: down while the connection is suspended or the session lost.
 *
 * @author distlock
 */
final class ZooKeeperConnection implements LockStoreHealth, AutoCloseable {

	private final CuratorFramework client;

	private final boolean owned;

	private final ConnectionStateListener listener = this::stateChanged;

	private volatile String state;

	private ZooKeeperConnection(CuratorFramework client, boolean owned) {
		this.client = client;
		this.owned = owned;
		this.state = client.getZookeeperClient().isConnected() ? ConnectionState.CONNECTED.name() : "NOT_CONNECTED";
		client.getConnectionStateListenable().addListener(this.listener);
	}

	/**
	 * Use the application's client, which the application closes.
	 * @param client the started client
	 * @return the connection
	 */
	static ZooKeeperConnection of(CuratorFramework client) {
		return new ZooKeeperConnection(client, false);
	}

	/**
	 * Build and start a client of distlock's own.
	 * @param properties the ZooKeeper properties
	 * @return the connection, closed with the application
	 */
	static ZooKeeperConnection create(ZooKeeperLockStoreProperties properties) {
		String connectString = properties.getConnectString();
		Assert.hasText(connectString,
				"distlock.zookeeper.connect-string must be set when the application " + "has no CuratorFramework bean");
		Duration connectionTimeout = positive(properties.getConnectionTimeout(),
				"distlock.zookeeper.connection-timeout");
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs(millis(positive(properties.getSessionTimeout(), "distlock.zookeeper.session-timeout")))
			.connectionTimeoutMs(millis(connectionTimeout))
			.retryPolicy(new ExponentialBackoffRetry(100, 3));
		String username = properties.getAuth().getUsername();
		if (StringUtils.hasText(username)) {
			String password = properties.getAuth().getPassword();
			Assert.hasText(password,
					"distlock.zookeeper.auth.password must be set with distlock.zookeeper.auth.username");
			builder.authorization("digest", (username + ":" + password).getBytes(StandardCharsets.UTF_8));
		}
		CuratorFramework client = builder.build();
		client.start();
		return new ZooKeeperConnection(client, true);
	}

	CuratorFramework client() {
		return this.client;
	}

	/**
	 * Wait for the client's first connection, so that the session timeout the ensemble
	 * negotiated is known.
	 * @param timeout how long to wait ({@code distlock.zookeeper.connection-timeout})
	 * @throws IllegalStateException if the client did not connect in time
	 */
	void awaitConnected(Duration timeout) {
		boolean connected;
		try {
			connected = this.client.blockUntilConnected((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()),
					TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			connected = false;
		}
		if (!connected) {
			throw new IllegalStateException("The ZooKeeper client did not connect within " + timeout
					+ " (distlock.zookeeper.connection-timeout): the lock store needs the session timeout the ensemble "
					+ "negotiates to check distlock.watchdog-lease against it");
		}
	}

	boolean isOwned() {
		return this.owned;
	}

	@Override
	public boolean contribute(Map<String, Object> details) {
		String current = this.state;
		details.put("zookeeper", current);
		return ConnectionState.SUSPENDED.name().equals(current) || ConnectionState.LOST.name().equals(current);
	}

	/**
	 * Stop following the connection, and close the client if distlock built it.
	 */
	@Override
	public void close() {
		this.client.getConnectionStateListenable().removeListener(this.listener);
		if (this.owned) {
			this.client.close();
		}
	}

	private void stateChanged(CuratorFramework client, ConnectionState newState) {
		this.state = newState.name();
	}

	private static Duration positive(Duration duration, String property) {
		Assert.isTrue(duration != null && !duration.isNegative() && !duration.isZero(),
				() -> property + " must be positive, but was " + duration);
		return duration;
	}

	private static int millis(Duration duration) {
		return (int) Math.min(Integer.MAX_VALUE, duration.toMillis());
	}

}
