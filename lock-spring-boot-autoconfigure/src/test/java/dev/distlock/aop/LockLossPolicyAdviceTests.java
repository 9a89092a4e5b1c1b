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

import dev.distlock.LockLostAfterCompletionException;
import dev.distlock.LockLostException;
import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.LockLossPolicy;
import dev.distlock.autoconfigure.LockAspectAutoConfiguration;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHold;
import dev.distlock.core.LockStore;
import dev.distlock.memory.ControllableInMemoryLockStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code @DistributedLock(onLoss = ...)}: a lock taken over while the method runs, on the
 * in-memory store and on Redis, cancels a {@code CompletableFuture}, a {@code Mono} and a
 * {@code Flux} ({@code CANCEL}) or interrupts a synchronous method ({@code INTERRUPT});
 * the caller gets {@link LockLostException}, and the call never takes the lock again. A
 * policy the method cannot follow fails startup.
 *
 * @author distlock
 */
class LockLossPolicyAdviceTests extends RedisAdviceTestSupport {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final ControllableInMemoryLockStore memory = new ControllableInMemoryLockStore();

	enum Store {

		MEMORY, REDIS

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
				assertThat(this.memory.isLocked("all-b")).as("the other owner keeps it").isTrue();
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
		ApplicationContextRunner runner = (store == Store.REDIS) ? contextRunner() : memoryRunner();
		runner.withPropertyValues("distlock.watchdog-lease=300ms")
			.withBean(Work.class)
			.run((context) -> test.run(context, context.getBean(Work.class)));
	}

	private ApplicationContextRunner memoryRunner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class))
			.withBean(LockStore.class, () -> this.memory);
	}

	/**
	 * Delete the key in the store, as an operator or an eviction would.
	 */
	private void forceDelete(Store store, String key) {
		if (store == Store.REDIS) {
			redis.delete(redisKey(this.prefix, key));
		}
		else {
			this.memory.expire(key);
		}
	}

	/**
	 * Give the key to another client: on Redis, another instance takes it once deleted,
	 * and its hold is returned.
	 */
	private LockHold takeOver(Store store, String key) throws InterruptedException {
		if (store == Store.REDIS) {
			redis.delete(redisKey(this.prefix, key));
			return otherInstance().acquire(key, Duration.ofSeconds(5), null);
		}
		this.memory.takeOver(key, "another-client:1");
		return null;
	}

	/**
	 * The call ended without taking the lock again: the client holds nothing, and the
	 * deleted key stays free for a few renewal intervals.
	 */
	private void assertNotTakenAgain(Store store, ConfigurableApplicationContext context, String key) {
		LockClient client = context.getBean(LockClient.class);
		await().atMost(WAIT).until(() -> ((DefaultLockClient) client).heldCount() == 0);
		await().during(Duration.ofMillis(400))
			.atMost(WAIT)
			.until(() -> (store == Store.REDIS) ? !lockedKeys().contains(key) : !this.memory.isLocked(key));
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
