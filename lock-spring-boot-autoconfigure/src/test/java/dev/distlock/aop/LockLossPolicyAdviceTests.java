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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import javax.sql.DataSource;

import dev.distlock.LockLostAfterCompletionException;
import dev.distlock.LockLostException;
import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.LockLossPolicy;
import dev.distlock.autoconfigure.LockAspectAutoConfiguration;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.store.ForwardingLockStore;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHold;
import dev.distlock.store.LockStore;
import dev.distlock.jdbc.JdbcLockStore;
import dev.distlock.jdbc.JdbcLockStoreSettings;
import dev.distlock.memory.ControllableInMemoryLockStore;
import dev.distlock.zookeeper.ZooKeeperLockStore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

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
 * {@code @DistributedLock(onLoss = ...)}: a lock taken over while the method runs, on
 * each store (in-memory, Redis, JDBC on H2, ZooKeeper on a {@link TestingServer}),
 * cancels a {@code CompletableFuture}, a {@code Mono} and a {@code Flux} ({@code CANCEL})
 * or interrupts a synchronous method ({@code INTERRUPT}); the caller gets
 * {@link LockLostException}, and the call never takes the lock again. A policy the method
 * cannot follow fails startup.
 *
 * @author distlock
 */
class LockLossPolicyAdviceTests extends RedisAdviceTestSupport {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final ControllableInMemoryLockStore memory = new ControllableInMemoryLockStore();

	private static TestingServer zooKeeper;

	private static EmbeddedDatabase database;

	/**
	 * On JDBC and ZooKeeper, another instance's client: it force-releases and takes keys
	 * in the store, as an operator or another instance would.
	 */
	private @Nullable DefaultLockClient otherClient;

	enum Store {

		MEMORY, REDIS, JDBC, ZOOKEEPER

	}

	@BeforeAll
	static void startJdbcAndZooKeeper() throws Exception {
		zooKeeper = new TestingServer(true);
		database = new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
	}

	@AfterAll
	static void stopJdbcAndZooKeeper() throws Exception {
		zooKeeper.close();
		database.shutdown();
	}

	@ParameterizedTest
	@EnumSource(Store.class)
	void aFutureFailsWithTheLossAndTheMethodsStageIsCancelled(Store store) {
		run(store, (context, work) -> {
			CompletableFuture<String> result = work.future("future");
			work.awaitStarted();
			forceDelete(store, "future");
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> result.get(WAIT.toSeconds(), TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class)
				.withMessageContaining("future");
			await("the method's own stage cancelled").atMost(WAIT).until(() -> work.stage().get().isCancelled());
			assertNotTakenAgain(store, context, "future");
		});
	}

	@ParameterizedTest
	@EnumSource(Store.class)
	void aMonoErrorsWithTheLossAndItsUpstreamIsDisposed(Store store) {
		run(store, (context, work) -> {
			CompletableFuture<String> result = work.mono("mono").toFuture();
			work.awaitStarted();
			forceDelete(store, "mono");
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> result.get(WAIT.toSeconds(), TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class);
			await("the upstream subscription disposed").atMost(WAIT).untilTrue(work.cancelled());
			assertNotTakenAgain(store, context, "mono");
		});
	}

	@ParameterizedTest
	@EnumSource(Store.class)
	void aFluxErrorsWithTheLossAndItsUpstreamIsDisposed(Store store) {
		run(store, (context, work) -> {
			CompletableFuture<List<Long>> result = work.flux("flux").collectList().toFuture();
			work.awaitStarted();
			forceDelete(store, "flux");
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> result.get(WAIT.toSeconds(), TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class);
			await("the upstream subscription disposed").atMost(WAIT).untilTrue(work.cancelled());
			assertNotTakenAgain(store, context, "flux");
		});
	}

	@ParameterizedTest
	@EnumSource(Store.class)
	void aSynchronousMethodIsInterruptedAndEndsWithTheLossItsExceptionSuppressed(Store store) {
		run(store, (context, work) -> {
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
			forceDelete(store, "sleep");
			assertThat(thrown).succeedsWithin(WAIT)
				.isExactlyInstanceOf(LockLostException.class)
				.satisfies(
						(ex) -> assertThat(ex.getSuppressed()).hasAtLeastOneElementOfType(InterruptedException.class));
			assertThat(work.interruptedAfterCall()).as("the advice cleared the interrupt it caused").isFalse();
			assertNotTakenAgain(store, context, "sleep");
		});
	}

	@ParameterizedTest
	@EnumSource(Store.class)
	void aSynchronousMethodOfSeveralKeysTakenByAnotherClientIsInterrupted(Store store) {
		run(store, (context, work) -> {
			CompletableFuture<Throwable> thrown = CompletableFuture.supplyAsync(() -> {
				try {
					work.sleepAll(List.of("all-a", "all-b"));
					return null;
				}
				catch (Throwable ex) {
					return ex;
				}
			});
			work.awaitStarted();
			LockHold other = takeOver(store, "all-b");
			assertThat(thrown).succeedsWithin(WAIT)
				.isInstanceOf(LockLostException.class)
				.satisfies((ex) -> assertThat(ex).hasMessageContaining("all-b"));
			if (other != null) {
				other.confirmOwnership();
				other.release();
			}
			else {
				assertThat(isLocked(store, "all-b")).as("the other owner keeps it").isTrue();
			}
			await().atMost(WAIT).until(() -> context.getBean(DefaultLockClient.class).heldCount() == 0);
		});
	}

	@ParameterizedTest
	@EnumSource(Store.class)
	void aSynchronousMethodThatReturnsAfterTheInterruptReportsTheLossWithItsResult(Store store) {
		run(store, (context, work) -> {
			CompletableFuture<Throwable> thrown = CompletableFuture.supplyAsync(() -> {
				try {
					work.stubborn("stubborn");
					return null;
				}
				catch (Throwable ex) {
					work.interruptedAfterCall().set(Thread.currentThread().isInterrupted());
					return ex;
				}
			});
			work.awaitStarted();
			forceDelete(store, "stubborn");
			assertThat(thrown).succeedsWithin(WAIT)
				.isInstanceOf(LockLostAfterCompletionException.class)
				.satisfies(
						(ex) -> assertThat(((LockLostAfterCompletionException) ex).getResult()).isEqualTo("stopped"));
			assertThat(work.interruptedAfterCall()).as("the advice cleared the interrupt it caused").isFalse();
		});
	}

	@Test
	void cancelOnASynchronousMethodFailsStartupPointingToInterrupt() {
		memoryRunner().withBean(CancelSynchronous.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("onLoss = \"CANCEL\"")
				.hasMessageContaining("CancelSynchronous.run")
				.hasMessageContaining("LockLossPolicy.INTERRUPT"));
	}

	@Test
	void interruptOnAnAsynchronousMethodFailsStartupPointingToCancel() {
		memoryRunner().withBean(InterruptFuture.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("onLoss = \"INTERRUPT\"")
				.hasMessageContaining("InterruptFuture.run")
				.hasMessageContaining("LockLossPolicy.CANCEL"));
		memoryRunner().withBean(InterruptMono.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("onLoss = \"INTERRUPT\"")
				.hasMessageContaining("InterruptMono.run")
				.hasMessageContaining("LockLossPolicy.CANCEL"));
	}

	private void run(Store store, WorkTest test) {
		application(store).withPropertyValues("distlock.watchdog-lease=300ms").withBean(Work.class).run((context) -> {
			this.otherClient = otherClient(store);
			try {
				test.run(context, context.getBean(Work.class));
			}
			finally {
				if (this.otherClient != null) {
					this.otherClient.close();
				}
			}
		});
	}

	private ApplicationContextRunner application(Store store) {
		return switch (store) {
			case MEMORY -> memoryRunner();
			case REDIS -> contextRunner();
			case JDBC -> baseRunner().withBean(DataSource.class, () -> database)
				.withPropertyValues("distlock.store=jdbc", "distlock.jdbc.initialize-schema=always");
			case ZOOKEEPER -> baseRunner().withPropertyValues("distlock.store=zookeeper",
					"distlock.zookeeper.connect-string=" + zooKeeper.getConnectString(),
					"distlock.zookeeper.session-timeout=10s");
		};
	}

	private static @Nullable DefaultLockClient otherClient(Store store) {
		return switch (store) {
			case MEMORY, REDIS -> null;
			case JDBC -> new DefaultLockClient(new JdbcLockStore(database, JdbcLockStoreSettings.builder().build()));
			case ZOOKEEPER -> {
				CuratorFramework client = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), 10_000, 5_000,
						new RetryOneTime(100));
				client.start();
				yield new DefaultLockClient(
						new ClientClosingStore(new ZooKeeperLockStore(client, Duration.ofSeconds(10)), client));
			}
		};
	}

	private ApplicationContextRunner memoryRunner() {
		return baseRunner().withBean(LockStore.class, () -> this.memory);
	}

	private static ApplicationContextRunner baseRunner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class));
	}

	/**
	 * Delete the key in the store, as an operator or an eviction would; on JDBC and
	 * ZooKeeper, another instance force-releases it.
	 */
	private void forceDelete(Store store, String key) {
		switch (store) {
			case MEMORY -> this.memory.expire(key);
			case REDIS -> redis.delete(redisKey(this.prefix, key));
			case JDBC, ZOOKEEPER -> assertThat(other().forceRelease(key).released()).as("force-released").isTrue();
		}
	}

	/**
	 * Give the key to another client, and return its hold when it is another instance's.
	 */
	private @Nullable LockHold takeOver(Store store, String key) throws InterruptedException {
		switch (store) {
			case MEMORY -> {
				this.memory.takeOver(key, "another-client:1");
				return null;
			}
			case REDIS -> {
				redis.delete(redisKey(this.prefix, key));
				return otherInstance().acquire(key, Duration.ofSeconds(5), null);
			}
			default -> {
				forceDelete(store, key);
				return other().acquire(key, Duration.ofSeconds(5), null);
			}
		}
	}

	private boolean isLocked(Store store, String key) {
		return switch (store) {
			case MEMORY -> this.memory.isLocked(key);
			case REDIS -> lockedKeys().contains(key);
			case JDBC, ZOOKEEPER -> other().inspect(key).held();
		};
	}

	private DefaultLockClient other() {
		DefaultLockClient other = this.otherClient;
		assertThat(other).as("another instance's client").isNotNull();
		return other;
	}

	/**
	 * The call ended without taking the lock again: the client holds nothing, and the
	 * deleted key stays free for a few renewal intervals.
	 */
	private void assertNotTakenAgain(Store store, ConfigurableApplicationContext context, String key) {
		LockClient client = context.getBean(LockClient.class);
		await().atMost(WAIT).until(() -> ((DefaultLockClient) client).heldCount() == 0);
		await().during(Duration.ofMillis(400)).atMost(WAIT).until(() -> !isLocked(store, key));
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

	@FunctionalInterface
	interface WorkTest {

		void run(ConfigurableApplicationContext context, Work work) throws Exception;

	}

	/**
	 * Locked methods whose work runs until it is stopped; the test reads its state
	 * through methods, which the proxy passes on.
	 */
	static class Work {

		final CountDownLatch started = new CountDownLatch(1);

		final AtomicReference<CompletableFuture<String>> stage = new AtomicReference<>();

		final AtomicBoolean cancelled = new AtomicBoolean();

		final AtomicBoolean interruptedAfterCall = new AtomicBoolean(true);

		@DistributedLock(key = "#id", onLoss = LockLossPolicy.CANCEL)
		public CompletableFuture<String> future(String id) {
			CompletableFuture<String> never = new CompletableFuture<>();
			this.stage.set(never);
			this.started.countDown();
			return never;
		}

		@DistributedLock(key = "#id", onLoss = LockLossPolicy.CANCEL)
		public Mono<String> mono(String id) {
			return Mono.<String>never()
				.doOnSubscribe((subscription) -> this.started.countDown())
				.doOnCancel(() -> this.cancelled.set(true));
		}

		@DistributedLock(key = "#id", onLoss = LockLossPolicy.CANCEL)
		public Flux<Long> flux(String id) {
			return Flux.interval(Duration.ofMillis(50))
				.doOnSubscribe((subscription) -> this.started.countDown())
				.doOnCancel(() -> this.cancelled.set(true));
		}

		@DistributedLock(key = "#id", onLoss = LockLossPolicy.INTERRUPT)
		public void sleep(String id) throws InterruptedException {
			this.started.countDown();
			Thread.sleep(WAIT.toMillis() * 3);
		}

		@DistributedLock(key = "#ids", onLoss = LockLossPolicy.INTERRUPT)
		public void sleepAll(List<String> ids) throws InterruptedException {
			this.started.countDown();
			Thread.sleep(WAIT.toMillis() * 3);
		}

		@DistributedLock(key = "#id", onLoss = LockLossPolicy.INTERRUPT)
		public String stubborn(String id) {
			this.started.countDown();
			try {
				Thread.sleep(WAIT.toMillis() * 3);
				return "slept";
			}
			catch (InterruptedException ex) {
				// Keeps the interrupt flag, as code that cannot throw it should
				Thread.currentThread().interrupt();
				return "stopped";
			}
		}

		AtomicReference<CompletableFuture<String>> stage() {
			return this.stage;
		}

		AtomicBoolean cancelled() {
			return this.cancelled;
		}

		AtomicBoolean interruptedAfterCall() {
			return this.interruptedAfterCall;
		}

		void awaitStarted() throws InterruptedException {
			assertThat(this.started.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the method started").isTrue();
		}

	}

	static class CancelSynchronous {

		@DistributedLock(key = "'a'", onLoss = LockLossPolicy.CANCEL)
		public void run() {
		}

	}

	static class InterruptFuture {

		@DistributedLock(key = "'a'", onLoss = LockLossPolicy.INTERRUPT)
		public CompletableFuture<Void> run() {
			return CompletableFuture.completedFuture(null);
		}

	}

	static class InterruptMono {

		@DistributedLock(key = "'a'", onLoss = LockLossPolicy.INTERRUPT)
		public Mono<Void> run() {
			return Mono.empty();
		}

	}

}
