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
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.distlock.LockAcquisitionException;
import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.LockHold;
import kotlin.Metadata;
import kotlin.coroutines.Continuation;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code @DistributedLock} on methods whose work goes on after they return: the lock
 * lives as long as the returned {@code CompletableFuture}, {@code Mono} or {@code Flux},
 * not as long as the call; {@code @Async} methods are locked on the executor thread; and
 * results whose end cannot be followed fail at startup.
 *
 * @author distlock
 */
class AsyncAdviceTests extends RedisAdviceTestSupport {

	@Test
	void twoCallersOfAFutureMethodNeverOverlapAndABusyLockFailsTheFutureWithoutThrowing() {
		contextRunner().withUserConfiguration(AsyncOrdersConfiguration.class).run((context) -> {
			AsyncOrders orders = context.getBean(AsyncOrders.class);
			Probe probe = context.getBean(Probe.class);
			CompletableFuture<String> first = orders.placeNow("a");
			probe.awaitInside();
			CompletableFuture<String> second = orders.placeNow("a");
			assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("a");
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> second.get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockAcquisitionException.class);
			assertThat(probe.maxInside).hasValue(1);
			assertThat(probe.runs).hasValue(1);
			awaitNoLocks();
		});
	}

	@Test
	void waitingCallersOfAFutureMethodRunOneAfterTheOther() {
		contextRunner().withUserConfiguration(AsyncOrdersConfiguration.class).run((context) -> {
			AsyncOrders orders = context.getBean(AsyncOrders.class);
			Probe probe = context.getBean(Probe.class);
			List<CompletableFuture<String>> calls = List.of(orders.placeWaiting("b"), orders.placeWaiting("b"),
					orders.placeWaiting("b"));
			for (CompletableFuture<String> call : calls) {
				assertThat(call.get(20, TimeUnit.SECONDS)).isEqualTo("b");
			}
			assertThat(probe.maxInside).hasValue(1);
			assertThat(probe.runs).hasValue(3);
			awaitNoLocks();
		});
	}

	@Test
	void anExceptionallyCompletedFutureReleasesTheLock() {
		contextRunner().withUserConfiguration(AsyncOrdersConfiguration.class).run((context) -> {
			AsyncOrders orders = context.getBean(AsyncOrders.class);
			Probe probe = context.getBean(Probe.class);
			CompletionStage<String> failing = orders.failing("c");
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> failing.toCompletableFuture().get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(IllegalStateException.class)
				.withMessageContaining("boom");
			awaitNoLocks();
		});
	}

	@Test
	void cancellingTheReturnedFutureAfterTheGrantKeepsTheLockUntilTheMethodsOwnFutureCompletes() {
		contextRunner().withUserConfiguration(AsyncOrdersConfiguration.class).run((context) -> {
			AsyncOrders orders = context.getBean(AsyncOrders.class);
			Probe probe = context.getBean(Probe.class);
			CompletableFuture<String> never = orders.never("d");
			awaitLocked("order:d");
			// The body runs once the grant reached the caller, a moment after Redis has
			// it
			await().atMost(Duration.ofSeconds(5)).until(() -> probe.neverWork.get() != null);
			assertThat(never.cancel(true)).isTrue();
			Thread.sleep(300);
			assertThat(lockedKeys()).as("the work still runs: the lock stays").contains("order:d");
			assertThat(probe.neverWork.get()).as("nothing is forwarded to the method's own future").isNotDone();
			probe.neverWork.get().complete("done");
			awaitNoLocks();
			assertThat(never).isCancelled();
		});
	}

	@Test
	void aBusyFutureMethodAnswersWithItsFallback() {
		contextRunner().withUserConfiguration(AsyncOrdersConfiguration.class).run((context) -> {
			AsyncOrders orders = context.getBean(AsyncOrders.class);
			Probe probe = context.getBean(Probe.class);
			try (LockHold elsewhere = otherInstance().acquire("order:e", Duration.ZERO, null)) {
				assertThat(orders.withFallback("e").get(10, TimeUnit.SECONDS)).isEqualTo("fallback:e");
				assertThat(elsewhere.isValid()).isTrue();
			}
			assertThat(probe.runs).hasValue(0);
		});
	}

	@Test
	void concurrentSubscriptionsOfAMonoNeverOverlapAndNothingIsLockedBeforeSubscription() {
		contextRunner().withUserConfiguration(AsyncOrdersConfiguration.class).run((context) -> {
			AsyncOrders orders = context.getBean(AsyncOrders.class);
			Probe probe = context.getBean(Probe.class);
			Mono<String> order = orders.mono("m");
			assertThat(lockedKeys()).isEmpty();
			assertThat(probe.runs).hasValue(0);
			List<String> results = Flux.range(0, 3)
				.flatMap((i) -> order.subscribeOn(Schedulers.parallel()))
				.collectList()
				.block(Duration.ofSeconds(20));
			assertThat(results).containsExactly("m", "m", "m");
			assertThat(probe.runs).as("each subscription is its own call").hasValue(3);
			assertThat(probe.maxInside).hasValue(1);
			awaitNoLocks();
		});
	}

	@Test
	void aBusyMonoSignalsLockAcquisitionException() {
		contextRunner().withUserConfiguration(AsyncOrdersConfiguration.class).run((context) -> {
			AsyncOrders orders = context.getBean(AsyncOrders.class);
			Probe probe = context.getBean(Probe.class);
			try (LockHold elsewhere = otherInstance().acquire("order:n", Duration.ZERO, null)) {
				assertThatExceptionOfType(LockAcquisitionException.class)
					.isThrownBy(() -> orders.monoNow("n").block(Duration.ofSeconds(10)));
				assertThat(elsewhere.isValid()).isTrue();
			}
			assertThat(probe.runs).hasValue(0);
		});
	}

	@Test
	void concurrentSubscriptionsOfAFluxNeverOverlapAndAFailingFluxReleases() {
		contextRunner().withUserConfiguration(AsyncOrdersConfiguration.class).run((context) -> {
			AsyncOrders orders = context.getBean(AsyncOrders.class);
			Probe probe = context.getBean(Probe.class);
			List<Integer> items = Flux
				.merge(orders.flux("f").subscribeOn(Schedulers.parallel()),
						orders.flux("f").subscribeOn(Schedulers.parallel()))
				.collectList()
				.block(Duration.ofSeconds(20));
			assertThat(items).hasSize(6);
			assertThat(probe.maxInside).hasValue(1);
			assertThatExceptionOfType(IllegalStateException.class)
				.isThrownBy(() -> orders.failingFlux("g").blockLast(Duration.ofSeconds(10)))
				.withMessageContaining("boom");
			awaitNoLocks();
		});
	}

	@Test
	void withNoHoldAfterCancelCancellingAFluxSubscriptionReleasesTheLockAtOnce() {
		contextRunner().withUserConfiguration(AsyncOrdersConfiguration.class)
			.withPropertyValues("distlock.reactive.hold-after-cancel=0s")
			.run((context) -> {
				AsyncOrders orders = context.getBean(AsyncOrders.class);
				List<Long> firstTicks = orders.endless("h").take(3).collectList().block(Duration.ofSeconds(10));
				assertThat(firstTicks).hasSize(3);
				awaitNoLocks();
				var subscription = orders.endless("h").subscribe();
				awaitLocked("order:h");
				subscription.dispose();
				awaitNoLocks();
			});
	}

	@Test
	void aCancelledFluxSubscriptionKeepsItsLockForTheHoldAfterCancelThenReleasesIt() {
		contextRunner().withUserConfiguration(AsyncOrdersConfiguration.class)
			.withPropertyValues("distlock.reactive.hold-after-cancel=1s")
			.run((context) -> {
				AsyncOrders orders = context.getBean(AsyncOrders.class);
				AtomicInteger ticks = new AtomicInteger();
				var subscription = orders.endless("i").subscribe((tick) -> ticks.incrementAndGet());
				// the method runs (a cancel before that would stop the acquisition)
				await().atMost(Duration.ofSeconds(10)).until(() -> ticks.get() > 0);
				subscription.dispose();
				Thread.sleep(300);
				assertThat(lockedKeys()).as("kept after the cancel").contains("order:i");
				awaitNoLocks();
			});
	}

	@Test
	void byDefaultACancelledMonoKeepsItsLockBeyondTheCancel() {
		contextRunner().withUserConfiguration(AsyncOrdersConfiguration.class).run((context) -> {
			AsyncOrders orders = context.getBean(AsyncOrders.class);
			var subscription = orders.silentMono("l").subscribe();
			// the method's publisher is subscribed (a cancel before that would stop the
			// acquisition)
			await().atMost(Duration.ofSeconds(10)).until(orders::silentMonoSubscribed);
			subscription.dispose();
			Thread.sleep(500);
			assertThat(lockedKeys()).as("kept for distlock.reactive.hold-after-cancel, 30 s by default")
				.contains("order:l");
		});
	}

	@Test
	void asyncMethodsAreLockedOnTheExecutorThread() {
		contextRunner().withUserConfiguration(AsyncExecutorConfiguration.class).run((context) -> {
			AsyncJobs jobs = context.getBean(AsyncJobs.class);
			Probe probe = context.getBean(Probe.class);
			List<CompletableFuture<String>> calls = List.of(jobs.run("j"), jobs.run("j"), jobs.run("j"));
			for (CompletableFuture<String> call : calls) {
				assertThat(call.get(20, TimeUnit.SECONDS)).startsWith("job-exec-");
			}
			jobs.fireAndForget("k");
			jobs.fireAndForget("k");
			probe.awaitRuns(5);
			assertThat(probe.runs).hasValue(5);
			assertThat(probe.maxInside).hasValue(1);
			awaitNoLocks();
		});
	}

	@Test
	void failsAtStartupOnAPlainFutureWhoseEndCannotBeFollowed() {
		contextRunner().withBean(ReturnsAPlainFuture.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("ReturnsAPlainFuture.run()")
				.hasMessageContaining("java.util.concurrent.Future")
				.hasMessageContaining("return CompletableFuture or CompletionStage");
		});
	}

	@Test
	void failsAtStartupOnACompletionStageTypeTheLockCannotStandInFor() {
		contextRunner().withBean(ReturnsACustomStage.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("ReturnsACustomStage.run()")
				.hasMessageContaining(CustomStage.class.getName())
				.hasMessageContaining("declare CompletableFuture or CompletionStage");
		});
	}

	@Test
	void failsAtStartupOnAKotlinSuspendFunction() {
		contextRunner().withBean(SuspendingService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("SuspendingService.order(java.lang.String,kotlin.coroutines.Continuation)")
				.hasMessageContaining("Kotlin suspend function");
		});
	}

	private void awaitNoLocks() throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!lockedKeys().isEmpty() && System.nanoTime() - deadline < 0) {
			Thread.sleep(10);
		}
		assertThat(lockedKeys()).isEmpty();
	}

	private void awaitLocked(String key) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!lockedKeys().contains(key) && System.nanoTime() - deadline < 0) {
			Thread.sleep(10);
		}
		assertThat(lockedKeys()).contains(key);
	}

	@Configuration(proxyBeanMethods = false)
	static class AsyncOrdersConfiguration {

		@Bean
		Probe probe() {
			return new Probe();
		}

		@Bean
		AsyncOrders asyncOrders(Probe probe) {
			return new AsyncOrders(probe);
		}

	}

	/**
	 * Counts the work running under a lock, outside the proxied beans.
	 */
	static class Probe {

		final AtomicInteger inside = new AtomicInteger();

		final AtomicInteger maxInside = new AtomicInteger();

		final AtomicInteger runs = new AtomicInteger();

		final AtomicReference<CompletableFuture<String>> neverWork = new AtomicReference<>();

		void enter() {
			this.runs.incrementAndGet();
			this.maxInside.accumulateAndGet(this.inside.incrementAndGet(), Math::max);
		}

		void leave() {
			this.inside.decrementAndGet();
		}

		void awaitInside() throws InterruptedException {
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (this.inside.get() == 0 && System.nanoTime() - deadline < 0) {
				Thread.sleep(5);
			}
		}

		void awaitRuns(int runs) throws InterruptedException {
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (this.runs.get() < runs && System.nanoTime() - deadline < 0) {
				Thread.sleep(10);
			}
		}

	}

	/**
	 * Locked methods whose work runs after they return.
	 */
	static class AsyncOrders {

		private final Probe probe;

		private final ExecutorService pool = Executors.newCachedThreadPool();

		private final AtomicBoolean silentMonoSubscribed = new AtomicBoolean();

		AsyncOrders(Probe probe) {
			this.probe = probe;
		}

		@DistributedLock(key = "'order:' + #id", waitTime = "0")
		public CompletableFuture<String> placeNow(String id) {
			return CompletableFuture.supplyAsync(() -> work(id), this.pool);
		}

		@DistributedLock(key = "'order:' + #id", waitTime = "10s")
		public CompletableFuture<String> placeWaiting(String id) {
			return CompletableFuture.supplyAsync(() -> work(id), this.pool);
		}

		@DistributedLock(key = "'order:' + #id", waitTime = "10s")
		public CompletionStage<String> failing(String id) {
			return CompletableFuture.supplyAsync(() -> {
				work(id);
				throw new IllegalStateException("boom");
			}, this.pool);
		}

		@DistributedLock(key = "'order:' + #id")
		public CompletableFuture<String> never(String id) {
			CompletableFuture<String> work = new CompletableFuture<>();
			this.probe.neverWork.set(work);
			return work;
		}

		@DistributedLock(key = "'order:' + #id", fallbackMethod = "later")
		public CompletableFuture<String> withFallback(String id) {
			return CompletableFuture.supplyAsync(() -> work(id), this.pool);
		}

		CompletableFuture<String> later(String id) {
			return CompletableFuture.completedFuture("fallback:" + id);
		}

		@DistributedLock(key = "'order:' + #id", waitTime = "10s")
		public Mono<String> mono(String id) {
			return Mono.fromCallable(() -> work(id)).subscribeOn(Schedulers.boundedElastic());
		}

		@DistributedLock(key = "'order:' + #id", waitTime = "0")
		public Mono<String> monoNow(String id) {
			return Mono.fromCallable(() -> work(id));
		}

		@DistributedLock(key = "'order:' + #id", waitTime = "10s")
		public Flux<Integer> flux(String id) {
			return Flux.range(1, 3)
				.delayElements(Duration.ofMillis(30))
				.doOnSubscribe((subscription) -> this.probe.enter())
				// before the signal goes downstream (doFinally runs after it, when the
				// advice may already have released the lock)
				.doOnTerminate(this.probe::leave)
				.doOnCancel(this.probe::leave);
		}

		@DistributedLock(key = "'order:' + #id", waitTime = "10s")
		public Flux<Integer> failingFlux(String id) {
			return Flux.concat(Flux.just(1), Flux.error(new IllegalStateException("boom")));
		}

		@DistributedLock(key = "'order:' + #id", waitTime = "10s")
		public Flux<Long> endless(String id) {
			return Flux.interval(Duration.ofMillis(10));
		}

		@DistributedLock(key = "'order:' + #id", waitTime = "10s")
		public Mono<String> silentMono(String id) {
			return Mono.<String>never().doOnSubscribe((subscription) -> this.silentMonoSubscribed.set(true));
		}

		public boolean silentMonoSubscribed() {
			return this.silentMonoSubscribed.get();
		}

		private String work(String id) {
			this.probe.enter();
			try {
				Thread.sleep(200);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.probe.leave();
			return id;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAsync
	static class AsyncExecutorConfiguration {

		@Bean
		ThreadPoolTaskExecutor taskExecutor() {
			ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
			executor.setCorePoolSize(4);
			executor.setThreadNamePrefix("job-exec-");
			return executor;
		}

		@Bean
		Probe probe() {
			return new Probe();
		}

		@Bean
		AsyncJobs asyncJobs(Probe probe) {
			return new AsyncJobs(probe);
		}

	}

	/**
	 * {@code @Async} jobs: their bodies run on the executor, under the lock.
	 */
	static class AsyncJobs {

		private final Probe probe;

		AsyncJobs(Probe probe) {
			this.probe = probe;
		}

		@Async
		@DistributedLock(key = "'job:' + #id", waitTime = "10s")
		public CompletableFuture<String> run(String id) {
			String thread = Thread.currentThread().getName();
			work();
			return CompletableFuture.completedFuture(thread);
		}

		@Async
		@DistributedLock(key = "'job:' + #id", waitTime = "10s")
		public void fireAndForget(String id) {
			work();
		}

		private void work() {
			this.probe.enter();
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.probe.leave();
		}

	}

	static class ReturnsAPlainFuture {

		@DistributedLock(key = "'k'")
		public Future<String> run() {
			FutureTask<String> task = new FutureTask<>(() -> "done");
			task.run();
			return task;
		}

	}

	static class CustomStage extends CompletableFuture<String> {

	}

	static class ReturnsACustomStage {

		@DistributedLock(key = "'k'")
		public CustomStage run() {
			return new CustomStage();
		}

	}

	/**
	 * What the Kotlin compiler makes of {@code suspend fun order(id: String): String}.
	 */
	@Metadata
	static class SuspendingService {

		@DistributedLock(key = "'order:' + #p0")
		public Object order(String id, Continuation<? super String> continuation) {
			return id;
		}

	}

}
