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

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * How {@link ZooKeeperLockStore} is configured, on a real server (Curator's
 * {@link TestingServer}): a bad base path, session timeout or ACL is refused naming the
 * setting, a base path of one's own holds every node, and the longest lease follows the
 * session the ensemble negotiated.
 *
 * @author distlock
 */
class ZooKeeperLockStoreConfigurationTests {

	private static final Duration SESSION = Duration.ofSeconds(9);

	private static TestingServer server;

	private CuratorFramework client;

	@BeforeAll
	static void startServer() throws Exception {
		server = new TestingServer(true);
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@BeforeEach
	void connect() throws InterruptedException {
		this.client = CuratorFrameworkFactory.builder()
			.connectString(server.getConnectString())
			.sessionTimeoutMs((int) SESSION.toMillis())
			.connectionTimeoutMs(5000)
			.retryPolicy(new RetryNTimes(3, 100))
			.build();
		this.client.start();
		assertThat(this.client.blockUntilConnected(30, TimeUnit.SECONDS)).isTrue();
	}

	@AfterEach
	void closeClient() {
		this.client.close();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "locks", "/", "/locks/", "/locks//a", "/locks/./a" })
	void aBasePathThatIsNotAnAbsoluteZooKeeperPathIsRefusedNamingIt(String basePath) {
		assertThatIllegalArgumentException().isThrownBy(() -> new ZooKeeperLockStore(this.client, basePath, SESSION))
			.withMessageContaining("'basePath'");
	}

	@Test
	void aSessionTimeoutThatIsNotPositiveIsRefusedNamingIt() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ZooKeeperLockStore(this.client, "/locks", Duration.ZERO))
			.withMessageContaining("'sessionTimeout' must be positive");
	}

	@Test
	void anEmptyAclIsRefusedNamingIt() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ZooKeeperLockStore(this.client, "/locks", SESSION, List.of()))
			.withMessage("'acl' must not be empty");
	}

	@Test
	void everyNodeOfTheStoreIsUnderItsBasePath() throws Exception {
		ZooKeeperLockStore store = new ZooKeeperLockStore(this.client, "/apps/billing/locks", SESSION);
		assertThat(store.tryAcquire("invoice:1", "t1", Duration.ofSeconds(2))
			.toCompletableFuture()
			.get(20, TimeUnit.SECONDS)
			.acquired()).isTrue();
		assertThat(this.client.getChildren().forPath("/apps/billing/locks/invoice:1"))
			.containsExactlyInAnyOrder("holder", "o-t1");
		assertThat(this.client.getData().forPath("/apps/billing/locks/invoice:1/holder")).asString().isEqualTo("t1");
		assertThat(this.client.checkExists().forPath("/distlock")).isNull();
		assertThat(store.release("invoice:1", "t1").toCompletableFuture().get(20, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void theLongestLeaseIsAThirdOfTheNegotiatedSession() {
		ZooKeeperLockStore store = new ZooKeeperLockStore(this.client, "/locks", SESSION);
		Duration negotiated = Duration.ofMillis(this.client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs());
		assertThat(store.sessionTimeout()).isEqualTo(negotiated);
		assertThat(store.longestLease()).isEqualTo(negotiated.dividedBy(3));
	}

}
