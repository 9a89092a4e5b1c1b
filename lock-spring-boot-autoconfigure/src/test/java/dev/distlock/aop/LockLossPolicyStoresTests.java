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

package dev.distlock.aop;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import dev.distlock.LockLostException;
import dev.distlock.autoconfigure.LockAspectAutoConfiguration;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.ForwardingLockStore;
import dev.distlock.core.InspectionExtension;
import dev.distlock.core.LockStore;
import dev.distlock.jdbc.JdbcLockStore;
import dev.distlock.jdbc.JdbcLockStoreSettings;
import dev.distlock.zookeeper.ZooKeeperLockStore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code @DistributedLock(onLoss = ...)} on the JDBC store (H2) and the ZooKeeper store
 * (a {@link TestingServer}), as {@link LockLossPolicyAdviceTests} shows it on the
 * in-memory store and Redis: another instance force-releases the key in the store while
 * the method runs, the holder finds the loss at its next renewal, and a
 * {@code CompletableFuture}, a {@code Mono} and a {@code Flux} are cancelled, a
 * synchronous method interrupted, each call ending with {@link LockLostException}.
 *
 * @author distlock
 */
class LockLossPolicyStoresTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static TestingServer zooKeeper;

	private static EmbeddedDatabase database;

	@BeforeAll
	static void start() throws Exception {
		zooKeeper = new TestingServer(true);
		database = new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
	}

	@AfterAll
	static void stop() throws Exception {
		zooKeeper.close();
		database.shutdown();
	}

	/**
	 * A store, its application and another instance's store on the same backend.
	 */
	enum Store {

		JDBC {
			@Override
			ApplicationContextRunner application(ApplicationContextRunner runner) {
				return runner.withBean(DataSource.class, () -> database)
					.withPropertyValues("distlock.store=jdbc", "distlock.jdbc.initialize-schema=always");
			}

			@Override
			LockStore otherInstance() {
				return new JdbcLockStore(database, JdbcLockStoreSettings.builder().build());
			}
		},

		ZOOKEEPER {
			@Override
			ApplicationContextRunner application(ApplicationContextRunner runner) {
				return runner.withPropertyValues("distlock.store=zookeeper",
						"distlock.zookeeper.connect-string=" + zooKeeper.getConnectString(),
						"distlock.zookeeper.session-timeout=10s");
			}

			@Override
			LockStore otherInstance() {
				CuratorFramework client = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), 10_000, 5_000,
						new RetryOneTime(100));
				client.start();
				return new ClientClosingStore(new ZooKeeperLockStore(client, Duration.ofSeconds(10)), client);
			}
		};

		abstract ApplicationContextRunner application(ApplicationContextRunner runner);

		abstract LockStore otherInstance();

	}

	@ParameterizedTest
	@EnumSource(Store.class)
	void aFutureFailsWithTheLossAndTheMethodsStageIsCancelled(Store store) {
		run(store, (context, work, other) -> {
			CompletableFuture<String> result = work.future("future");
			work.awaitStarted();
			forceRelease(other, "future");
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> result.get(WAIT.toSeconds(), TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class);
			await("the method's own stage cancelled").atMost(WAIT).until(() -> work.stage().get().isCancelled());
			assertHoldsNothing(context);
		});
	}

	@ParameterizedTest
	@EnumSource(Store.class)
	void aMonoAndAFluxErrorWithTheLossAndTheirUpstreamsAreDisposed(Store store) {
		run(store, (context, work, other) -> {
			CompletableFuture<String> mono = work.mono("mono").toFuture();
			work.awaitStarted();
			forceRelease(other, "mono");
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> mono.get(WAIT.toSeconds(), TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class);
			await("the upstream subscription disposed").atMost(WAIT).untilTrue(work.cancelled());
			work.cancelled().set(false);
			CompletableFuture<List<Long>> flux = work.flux("flux").collectList().toFuture();
			await().atMost(WAIT).until(() -> isHeld(other, "flux"));
			forceRelease(other, "flux");
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> flux.get(WAIT.toSeconds(), TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class);
			await("the upstream subscription disposed").atMost(WAIT).untilTrue(work.cancelled());
			assertHoldsNothing(context);
		});
	}

	@ParameterizedTest
	@EnumSource(Store.class)
	void aSynchronousMethodIsInterruptedAndEndsWithTheLossItsExceptionSuppressed(Store store) {
		run(store, (context, work, other) -> {
			CompletableFuture<Throwable> thrown = CompletableFuture.supplyAsync(() -> {
				try {
					work.sleep("sleep");
					return null;
				}
				catch (Throwable ex) {
					work.interruptedAfterCall().set(Thread.currentThread().isInterrupted());
					return ex;
				}
			});
			work.awaitStarted();
			forceRelease(other, "sleep");
			assertThat(thrown).succeedsWithin(WAIT)
				.isExactlyInstanceOf(LockLostException.class)
				.satisfies(
						(ex) -> assertThat(ex.getSuppressed()).hasAtLeastOneElementOfType(InterruptedException.class));
			assertThat(work.interruptedAfterCall()).as("the advice cleared the interrupt it caused").isFalse();
			assertHoldsNothing(context);
		});
	}

	private void run(Store store, StoreTest test) {
		store
			.application(new ApplicationContextRunner().withConfiguration(
					AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class)))
			.withPropertyValues("distlock.watchdog-lease=600ms")
			.withBean(LockLossPolicyAdviceTests.Work.class)
			.run((context) -> {
				try (LockStore other = store.otherInstance()) {
					test.run(context, context.getBean(LockLossPolicyAdviceTests.Work.class), other);
				}
			});
	}

	private static void forceRelease(LockStore other, String key) {
		InspectionExtension inspection = other.extension(InspectionExtension.class);
		assertThat(inspection).isNotNull();
		assertThat(inspection.forceRelease(key).toCompletableFuture().join()).as("a holder was released").isNotNull();
	}

	private static boolean isHeld(LockStore other, String key) {
		InspectionExtension inspection = other.extension(InspectionExtension.class);
		return inspection != null && inspection.inspect(key).toCompletableFuture().join().held();
	}

	private static void assertHoldsNothing(ConfigurableApplicationContext context) {
		await().atMost(WAIT).until(() -> context.getBean(DefaultLockClient.class).heldCount() == 0);
	}

	@FunctionalInterface
	interface StoreTest {

		void run(ConfigurableApplicationContext context, LockLossPolicyAdviceTests.Work work, LockStore other)
				throws Exception;

	}

	/**
	 * Another instance's ZooKeeper store, which closes its own client with it.
	 */
	private static final class ClientClosingStore extends ForwardingLockStore {

		private final CuratorFramework client;

		ClientClosingStore(LockStore delegate, CuratorFramework client) {
			super(delegate);
			this.client = client;
		}

		@Override
		public void close() {
			super.close();
			this.client.close();
		}

	}

}
