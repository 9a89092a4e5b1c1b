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

import dev.distlock.autoconfigure.LockAspectAutoConfiguration;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import dev.distlock.autoconfigure.LockDisabledAutoConfiguration;
import dev.distlock.autoconfigure.LockStoreHealth;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.LockMode;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHold;
import dev.distlock.store.SessionLeaseExtension;
import dev.distlock.zookeeper.ZooKeeperLockStore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The auto-configuration of the ZooKeeper lock store, on a real ZooKeeper server
 * (Curator's {@link TestingServer}): with and without the application's
 * {@link CuratorFramework}, selection, and the startup refusals.
 *
 * @author distlock
 */
public class ZooKeeperLockStoreConfigurationTests {

	private static TestingServer server;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class,
				LockDisabledAutoConfiguration.class))
		.withPropertyValues("distlock.store=zookeeper");

	@BeforeAll
	static void startServer() throws Exception {
		server = new TestingServer(true);
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@Test
	void buildsAClientFromTheConnectStringAndClosesItAtShutdown() {
		CuratorFramework[] client = new CuratorFramework[1];
		this.contextRunner.withPropertyValues("distlock.zookeeper.connect-string=" + server.getConnectString())
			.run((context) -> {
				assertThat(context).hasSingleBean(ZooKeeperLockStore.class).doesNotHaveBean(CuratorFramework.class);
				client[0] = context.getBean(ZooKeeperConnection.class).client();
				assertThat(client[0].blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
				try (LockHold hold = context.getBean(LockClient.class).acquire("order:1", Duration.ZERO, null)) {
					assertThat(hold.fencingToken()).isPositive();
				}
			});
		assertThat(client[0].getState()).isEqualTo(CuratorFrameworkState.STOPPED);
	}

	@Test
	void usesTheApplicationsCuratorFrameworkAndLeavesItOpen() throws Exception {
		try (CuratorFramework client = newClient()) {
			// registered as a singleton, as a bean whose lifecycle distlock does not own
			this.contextRunner
				.withInitializer((context) -> context.getBeanFactory().registerSingleton("curator", client))
				.run((context) -> {
					assertThat(context).hasSingleBean(ZooKeeperLockStore.class);
					assertThat(context.getBean(ZooKeeperConnection.class).client()).isSameAs(client);
					try (LockHold hold = context.getBean(LockClient.class).acquire("order:2", Duration.ZERO, null)) {
						assertThat(client.checkExists().forPath("/distlock/order:2")).isNotNull();
					}
				});
			assertThat(client.getState()).isEqualTo(CuratorFrameworkState.STARTED);
		}
	}

	@Test
	void createsItsNodesUnderTheBasePath() throws Exception {
		try (CuratorFramework client = newClient()) {
			this.contextRunner.withBean(CuratorFramework.class, () -> client)
				.withPropertyValues("distlock.zookeeper.base-path=/apps/billing/locks")
				.run((context) -> {
					try (LockHold hold = context.getBean(LockClient.class).acquire("invoice", Duration.ZERO, null)) {
						assertThat(client.checkExists().forPath("/apps/billing/locks/invoice/holder")).isNotNull();
					}
				});
		}
	}

	@Test
	void isSelectedWithoutThePropertyWhenItIsTheOnlyStorePresent() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader("dev.distlock.redis", "org.springframework.data.redis"))
			.withPropertyValues("distlock.zookeeper.connect-string=" + server.getConnectString())
			.run((context) -> assertThat(context).hasSingleBean(ZooKeeperLockStore.class));
	}

	@Test
	void failsStartupWhenSelectedWithoutAConnection() {
		this.contextRunner
			.run((context) -> assertThat(cause(context)).hasMessageContaining("distlock.store is zookeeper")
				.hasMessageContaining("distlock.zookeeper.connect-string is not set"));
	}

	@Test
	void defaultsStartAgainstATestingServerWithALeaseOfAThirdOfTheNegotiatedSession() {
		this.contextRunner.withPropertyValues("distlock.zookeeper.connect-string=" + server.getConnectString())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Duration session = context.getBean(ZooKeeperLockStore.class).sessionTimeout();
				assertThat(session).isLessThan(Duration.ofSeconds(60));
				assertThat(context.getBean(DefaultLockClient.class).settings().watchdogLease())
					.isEqualTo(session.dividedBy(3));
			});
	}

	@Test
	void theLeaseFollowsAServerWhoseMaximumSessionIsFourSeconds() throws Exception {
		InstanceSpec spec = new InstanceSpec(null, -1, -1, -1, true, -1, 1000, -1, Map.of("maxSessionTimeout", "4000"));
		try (TestingServer shortSessions = new TestingServer(spec, true)) {
			this.contextRunner
				.withPropertyValues("distlock.zookeeper.connect-string=" + shortSessions.getConnectString())
				.run((context) -> {
					assertThat(context).hasNotFailed();
					assertThat(context.getBean(ZooKeeperLockStore.class).sessionTimeout())
						.isEqualTo(Duration.ofSeconds(4));
					assertThat(context.getBean(DefaultLockClient.class).settings().watchdogLease())
						.isEqualTo(Duration.ofSeconds(4).dividedBy(3));
					try (LockHold hold = context.getBean(LockClient.class).acquire("short", Duration.ZERO, null)) {
						assertThat(hold.isValid()).isTrue();
					}
				});
		}
	}

	@Test
	void failsStartupWhenTheWatchdogLeaseExceedsAThirdOfTheSessionNamingBothProperties() {
		this.contextRunner
			.withPropertyValues("distlock.zookeeper.connect-string=" + server.getConnectString(),
					"distlock.zookeeper.session-timeout=9s", "distlock.watchdog-lease=4s")
			.run((context) -> assertThat(cause(context)).hasMessageContaining("distlock.watchdog-lease (PT4S)")
				.hasMessageContaining("must not exceed a third of the ZooKeeper session timeout (PT9S")
				.hasMessageContaining("distlock.zookeeper.session-timeout"));
	}

	@Test
	void checksTheApplicationsCuratorFrameworkOnItsNegotiatedSession() throws Exception {
		CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(), 4_000, 5_000,
				new RetryOneTime(100));
		// started as a bean would be: not connected yet when the store is built
		client.start();
		try (client) {
			this.contextRunner.withBean(CuratorFramework.class, () -> client)
				.withPropertyValues("distlock.watchdog-lease=2s")
				.run((context) -> assertThat(cause(context)).hasMessageContaining("distlock.watchdog-lease (PT2S)")
					.hasMessageContaining("session timeout (PT4S"));
		}
	}

	@Test
	void failsStartupWhenTheEnsembleDoesNotAnswerWithinTheConnectionTimeout() {
		this.contextRunner
			.withPropertyValues("distlock.zookeeper.connect-string=127.0.0.1:1",
					"distlock.zookeeper.connection-timeout=1s")
			.run((context) -> assertThat(cause(context))
				.hasMessageContaining("did not connect within PT1S (distlock.zookeeper.connection-timeout)"));
	}

	@Test
	void authenticatesWithDigestAndCreatesCreatorOnlyNodes() throws Exception {
		this.contextRunner
			.withPropertyValues("distlock.zookeeper.connect-string=" + server.getConnectString(),
					"distlock.zookeeper.base-path=/digest-locks", "distlock.zookeeper.auth.username=billing",
					"distlock.zookeeper.auth.password=secret")
			.run((context) -> {
				CuratorFramework client = context.getBean(ZooKeeperConnection.class).client();
				try (LockHold hold = context.getBean(LockClient.class).acquire("invoice", Duration.ZERO, null)) {
					List<ACL> acl = client.getACL().forPath("/digest-locks/invoice");
					assertThat(acl).singleElement()
						.satisfies((entry) -> assertThat(entry.getId().getScheme()).isEqualTo("digest"))
						.satisfies((entry) -> assertThat(entry.getId().getId()).startsWith("billing:"));
					assertThat(client.getACL().forPath("/digest-locks")).isEqualTo(acl);
				}
			});
	}

	@Test
	void failsStartupNamingAnInvalidBasePath() {
		this.contextRunner
			.withPropertyValues("distlock.zookeeper.connect-string=" + server.getConnectString(),
					"distlock.zookeeper.base-path=locks")
			.run((context) -> assertThat(cause(context))
				.hasMessageContaining("distlock.zookeeper.base-path must be an absolute ZooKeeper path"));
	}

	@Test
	void failsStartupForAFixedLeaseTimeNamingTheAttributeAndTheStore() {
		assertStartupFails(FixedLeaseService.class, "@DistributedLock(leaseTime = PT10S)");
	}

	@Test
	void startsWithAFairLockAndRunsIt() {
		this.contextRunner.withPropertyValues("distlock.zookeeper.connect-string=" + server.getConnectString())
			.withBean(FairService.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				context.getBean(FairService.class).place();
				assertThat(context.getBean(FairService.class).placed()).isEqualTo(1);
			});
	}

	@Test
	void startsWithAReadLockAndRunsIt() {
		this.contextRunner.withPropertyValues("distlock.zookeeper.connect-string=" + server.getConnectString())
			.withBean(ReadService.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				context.getBean(ReadService.class).read();
				assertThat(context.getBean(ReadService.class).reads()).isEqualTo(1);
			});
	}

	@Test
	void aLockClientCallWithAFixedLeaseThrowsNamingTheStore() {
		this.contextRunner.withPropertyValues("distlock.zookeeper.connect-string=" + server.getConnectString())
			.run((context) -> assertThatExceptionOfType(UnsupportedOperationException.class)
				.isThrownBy(
						() -> context.getBean(LockClient.class).acquire("fixed", Duration.ZERO, Duration.ofSeconds(5)))
				.withMessageContaining("leaseTime = PT5S")
				.withMessageContaining(ZooKeeperLockStore.class.getName())
				.withMessageContaining(SessionLeaseExtension.class.getName()));
	}

	@Test
	void healthReportsTheConnectionStateAndIsDownWhileItIsSuspended() throws Exception {
		try (TestingServer own = new TestingServer(true)) {
			this.contextRunner.withPropertyValues("distlock.zookeeper.connect-string=" + own.getConnectString())
				.run((context) -> {
					assertThat(context.getBean(ZooKeeperConnection.class)
						.client()
						.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
					List<LockStoreHealth> stores = context.getBeanProvider(LockStoreHealth.class)
						.orderedStream()
						.toList();
					Map<String, Object> details = new LinkedHashMap<>();
					await().atMost(Duration.ofSeconds(10)).until(() -> {
						details.clear();
						return !contribute(stores, details) && "CONNECTED".equals(details.get("zookeeper"));
					});
					own.stop();
					await().atMost(Duration.ofSeconds(30)).until(() -> {
						details.clear();
						boolean down = contribute(stores, details);
						return "SUSPENDED".equals(details.get("zookeeper")) && down;
					});
				});
		}
	}

	private void assertStartupFails(Class<?> service, String attribute) {
		this.contextRunner.withPropertyValues("distlock.zookeeper.connect-string=" + server.getConnectString())
			.withBean(service)
			.run((context) -> assertThat(cause(context)).isInstanceOf(IllegalStateException.class)
				.hasMessageContaining(attribute)
				.hasMessageContaining(service.getSimpleName())
				.hasMessageContaining(ZooKeeperLockStore.class.getName()));
	}

	private static Throwable cause(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		return NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
	}

	private static CuratorFramework newClient() throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(), 10_000, 5_000,
				new RetryOneTime(100));
		client.start();
		assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		return client;
	}

	public static class FixedLeaseService {

		@DistributedLock(key = "'report'", leaseTime = "10s")
		public void run() {
		}

	}

	public static class FairService {

		private int placed;

		@DistributedLock(key = "'order'", fair = true)
		public void place() {
			this.placed++;
		}

		public int placed() {
			return this.placed;
		}

	}

	public static class ReadService {

		private int reads;

		@DistributedLock(key = "'prices'", mode = LockMode.READ)
		public void read() {
			this.reads++;
		}

		public int reads() {
			return this.reads;
		}

	}

	/**
	 * Let every store add its details to the {@code distlock} health, as the health does.
	 * @return whether a store's connection puts held locks at risk
	 */
	private static boolean contribute(List<LockStoreHealth> stores, Map<String, Object> details) {
		boolean down = false;
		for (LockStoreHealth store : stores) {
			down |= store.contribute(details);
		}
		return down;
	}

}
