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

import dev.distlock.autoconfigure.zookeeper.ZooKeeperLockStoreConfigurationTests;
import java.time.Duration;

import dev.distlock.store.ForwardingLockStore;
import dev.distlock.store.SessionLeaseExtension;
import dev.distlock.zookeeper.ZooKeeperLockStore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

import static dev.distlock.autoconfigure.DecoratedStoreStartup.assertStartupFails;

/**
 * An application that puts a decorator ({@link ForwardingLockStore}) over the ZooKeeper
 * store keeps its startup refusal of a fixed {@code leaseTime}, which a store whose locks
 * live as long as its session cannot keep.
 *
 * @author distlock
 */
class ZooKeeperDecoratedStoreStartupTests {

	@Test
	void aDecoratedZooKeeperStoreStillRefusesAFixedLease() throws Exception {
		try (TestingServer server = new TestingServer(true);
				CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(), 10_000, 5_000,
						new RetryOneTime(100))) {
			client.start();
			assertStartupFails(() -> new ForwardingLockStore(new ZooKeeperLockStore(client, Duration.ofSeconds(10))),
					ZooKeeperLockStoreConfigurationTests.FixedLeaseService.class, "@DistributedLock(leaseTime = PT10S)",
					SessionLeaseExtension.class);
		}
	}

}
