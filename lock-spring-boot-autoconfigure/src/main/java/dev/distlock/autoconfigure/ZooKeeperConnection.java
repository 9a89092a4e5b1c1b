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

package dev.distlock.autoconfigure;

import java.time.Duration;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.retry.ExponentialBackoffRetry;

import org.springframework.util.Assert;

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
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs(millis(positive(properties.getSessionTimeout(), "distlock.zookeeper.session-timeout")))
			.connectionTimeoutMs(millis(connectionTimeout))
			.retryPolicy(new ExponentialBackoffRetry(100, 3))
			.build();
		client.start();
		return new ZooKeeperConnection(client, true);
	}

	CuratorFramework client() {
		return this.client;
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
