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
import java.util.List;
import java.util.Map;

import dev.distlock.autoconfigure.DistlockProperties.Store;
import dev.distlock.store.LockStore;
import dev.distlock.zookeeper.ZooKeeperLockStore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.StringUtils;

/**
 * Configuration of the ZooKeeper lock store: a {@link ZooKeeperLockStore} on the
 * application's {@link CuratorFramework} when it has one, else on a client built from
 * {@code distlock.zookeeper.connect-string}, which distlock closes at shutdown. Needs
 * {@code lock-zookeeper} (brought by {@code lock-spring-boot-starter-zookeeper}) and one
 * of the two. Startup fails when {@code distlock.watchdog-lease} exceeds the session
 * timeout: the session could then end, and free the locks, while their holders still
 * believe in their leases.
 *
 * @author distlock
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnLockStore(value = Store.ZOOKEEPER,
		classes = { "dev.distlock.zookeeper.ZooKeeperLockStore", "org.apache.curator.framework.CuratorFramework" },
		connection = "org.apache.curator.framework.CuratorFramework",
		connectionProperty = "distlock.zookeeper.connect-string", dependency = "lock-spring-boot-starter-zookeeper")
@EnableConfigurationProperties(ZooKeeperLockStoreProperties.class)
class ZooKeeperLockStoreConfiguration {

	@Bean(destroyMethod = "close")
	ZooKeeperConnection distlockZooKeeperConnection(ObjectProvider<CuratorFramework> curator,
			ZooKeeperLockStoreProperties properties) {
		CuratorFramework client = curator.getIfUnique();
		return (client != null) ? ZooKeeperConnection.of(client) : ZooKeeperConnection.create(properties);
	}

	@Bean(destroyMethod = "close")
	LockStore zooKeeperLockStore(ZooKeeperConnection connection, ZooKeeperLockStoreProperties zooKeeper,
			DistlockProperties properties) {
		connection.awaitConnected(zooKeeper.getConnectionTimeout());
		List<ACL> acl = acl(zooKeeper, connection);
		ZooKeeperLockStore store = PropertyErrors.named(
				() -> new ZooKeeperLockStore(connection.client(), zooKeeper.getBasePath(),
						zooKeeper.getSessionTimeout(), acl),
				Map.of("basePath", "distlock.zookeeper.base-path", "sessionTimeout",
						"distlock.zookeeper.session-timeout"));
		Duration lease = properties.getWatchdogLease();
		Duration longest = store.longestLease();
		if (lease != null && lease.compareTo(longest) > 0) {
			store.close();
			throw new IllegalStateException("distlock.watchdog-lease (" + lease
					+ ") must not exceed a third of the ZooKeeper session timeout (" + store.sessionTimeout()
					+ " as negotiated with the ensemble; distlock.zookeeper.session-timeout or the application's "
					+ "CuratorFramework asks for it): a holder cut off from the ensemble would trust its lease after its "
					+ "session ended; lower distlock.watchdog-lease to " + longest
					+ " or less, leave it unset to follow the session, or raise the session timeout");
		}
		return store;
	}

	/**
	 * Return the ACL of the store's nodes, or {@code null} for the client's provider's.
	 */
	private static @Nullable List<ACL> acl(ZooKeeperLockStoreProperties zooKeeper, ZooKeeperConnection connection) {
		return switch (zooKeeper.getAcl()) {
			case CREATOR_ALL -> ZooDefs.Ids.CREATOR_ALL_ACL;
			case CLIENT -> null;
			case AUTO -> (connection.isOwned() && StringUtils.hasText(zooKeeper.getAuth().getUsername()))
					? ZooDefs.Ids.CREATOR_ALL_ACL : null;
		};
	}

}
