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
import java.util.function.Supplier;

import dev.distlock.core.FairQueueExtension;
import dev.distlock.core.ForwardingLockStore;
import dev.distlock.core.LockStore;
import dev.distlock.core.SessionLeaseExtension;
import dev.distlock.jdbc.JdbcLockSchema;
import dev.distlock.jdbc.JdbcLockStore;
import dev.distlock.jdbc.JdbcLockStoreSettings;
import dev.distlock.zookeeper.ZooKeeperLockStore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application that puts a decorator ({@link ForwardingLockStore}) over a store keeps
 * that store's startup refusals: a locked method that asks for what the store cannot do
 * fails startup behind the decorator as it does without it.
 *
 * @author distlock
 */
class DecoratedLockStoreStartupTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class,
				LockDisabledAutoConfiguration.class));

	@Test
	void aDecoratedZooKeeperStoreStillRefusesAFixedLeaseAndAFairLock() throws Exception {
		try (TestingServer server = new TestingServer(true);
				CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(), 10_000, 5_000,
						new RetryOneTime(100))) {
			client.start();
			Supplier<LockStore> decorated = () -> new ForwardingLockStore(
					new ZooKeeperLockStore(client, Duration.ofSeconds(10)));
			assertStartupFails(decorated, ZooKeeperLockStoreConfigurationTests.FixedLeaseService.class,
					"@DistributedLock(leaseTime = PT10S)", SessionLeaseExtension.class);
			assertStartupFails(decorated, ZooKeeperLockStoreConfigurationTests.FairService.class,
					"@DistributedLock(fair = true)", FairQueueExtension.class);
		}
	}

	@Test
	void aDecoratedJdbcStoreStillRefusesAFairLock() {
		EmbeddedDatabase database = new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
			.generateUniqueName(true)
			.build();
		try {
			JdbcLockSchema.initialize(database, "distlock_decorated_lock");
			assertStartupFails(
					() -> new ForwardingLockStore(new JdbcLockStore(database,
							JdbcLockStoreSettings.builder().tableName("distlock_decorated_lock").build())),
					ZooKeeperLockStoreConfigurationTests.FairService.class, "@DistributedLock(fair = true)",
					FairQueueExtension.class);
		}
		finally {
			database.shutdown();
		}
	}

	private void assertStartupFails(Supplier<LockStore> store, Class<?> service, String attribute,
			Class<?> missingOrLimiting) {
		this.contextRunner.withBean(LockStore.class, store).withBean(service).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining(attribute)
				.hasMessageContaining(service.getSimpleName())
				.hasMessageContaining(missingOrLimiting.getName());
		});
	}

}
