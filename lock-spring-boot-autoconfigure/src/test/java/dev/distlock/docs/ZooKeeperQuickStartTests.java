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

package dev.distlock.docs;

import java.util.List;
import java.util.Map;

import dev.distlock.testing.BackendVersions;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.Version;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's quick start on ZooKeeper: an application with the README's properties (the
 * connect string of a {@code TestingServer} in place of {@code localhost:2181}) holds the
 * lock of a first call as the one node the README's {@code zkCli.sh ls} lists, and
 * refuses a second call with the README's message.
 *
 * @author distlock
 */
class ZooKeeperQuickStartTests {

	private final ReadmeQuickStart quickStart = ReadmeQuickStart.of("zookeeper");

	private TestingServer server;

	@BeforeEach
	void startServer() throws Exception {
		this.server = new TestingServer(true);
		BackendVersions.record("ZooKeeper", Version.getFullVersion());
	}

	@AfterEach
	void stopServer() throws Exception {
		this.server.close();
	}

	@Test
	void theReadmesPropertiesLockAndTheReadmesCommandListsTheHolderNode() {
		Map<String, String> properties = this.quickStart.properties();
		assertThat(properties).containsOnlyKeys("distlock.zookeeper.connect-string");
		String command = this.quickStart.check();
		assertThat(command).contains("zkCli.sh ls /");
		String path = command.substring(command.lastIndexOf(' ') + 1);
		QuickStartApplication
			.runner("dev.distlock.zookeeper", List.of(), properties,
					Map.of("distlock.zookeeper.connect-string", this.server.getConnectString()))
			.run((context) -> QuickStartOrders.seeTheLockWork(context, this.quickStart, () -> {
				try (CuratorFramework zkCli = CuratorFrameworkFactory.newClient(this.server.getConnectString(),
						new RetryOneTime(100))) {
					zkCli.start();
					assertThat(zkCli.getChildren().forPath(path)).hasSize(2)
						.contains("holder")
						.anySatisfy((name) -> assertThat(name).startsWith("o-"));
				}
			}));
	}

}
