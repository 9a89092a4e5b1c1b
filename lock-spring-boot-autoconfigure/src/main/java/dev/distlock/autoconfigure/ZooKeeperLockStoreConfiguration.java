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

import dev.distlock.autoconfigure.DistlockProperties.Store;
import dev.distlock.core.LockStore;
import dev.distlock.zookeeper.ZooKeeperLockStore;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

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
		ZooKeeperLockStore store = PropertyErrors.named(
				() -> new ZooKeeperLockStore(connection.client(), zooKeeper.getBasePath(),
						zooKeeper.getSessionTimeout()),
				Map.of("basePath", "distlock.zookeeper.base-path", "sessionTimeout",
						"distlock.zookeeper.session-timeout"));
		Duration sessionTimeout = store.sessionTimeout();
		if (properties.getWatchdogLease().compareTo(sessionTimeout) > 0) {
			store.close();
			throw new IllegalStateException("distlock.watchdog-lease (" + properties.getWatchdogLease()
					+ ") must not exceed the ZooKeeper session timeout (" + sessionTimeout
					+ ", distlock.zookeeper.session-timeout or the application's CuratorFramework"
					+ " as negotiated with the ensemble): a session that ends frees its locks while their holders"
					+ " still trust their leases; lower distlock.watchdog-lease or raise the session timeout");
		}
		return store;
	}

}
