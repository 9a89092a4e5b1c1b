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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.AcquireOutcome;
import dev.distlock.core.LockClientListener;
import dev.distlock.core.LockHold;
import dev.distlock.core.LockTracker;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * No user code on the lock client's threads: the bodies of asynchronous locked methods,
 * their fallbacks and the failure handler run on the application's executor
 * ({@code distlock.async.executor}), listeners on the client's listener thread, so bodies
 * that block or wait for each other stall nothing else.
 *
 * @author distlock
 */
class AsyncExecutorAdviceTests extends RedisAdviceTestSupport {

	/**
	 * The threads of a lock client (timer, callbacks), of its Redis store (request
	 * timeouts, pooled scripts) and Lettuce's I/O threads.
	 */
	static final Pattern ENGINE_THREADS = Pattern
		.compile("distlock-\\p{XDigit}{8}-(timer|callback)-\\d+|distlock-redis-.*|lettuce-.*");

	@Test
	void eightAsynchronousBodiesOnEightKeysThatWaitForEachOtherAllRunAtOnce() {
		contextRunner().withUserConfiguration(BodiesConfiguration.class).run((context) -> {
			Bodies bodies = context.getBean(Bodies.class);
			CountDownLatch allStarted = new CountDownLatch(8);
			List<CompletableFuture<Boolean>> calls = IntStream.range(0, 8)
				.mapToObj((i) -> bodies.meet("k" + i, allStarted))
				.toList();
			for (CompletableFuture<Boolean> call : calls) {
				assertThat(call.get(20, TimeUnit.SECONDS)).as("every body saw the 7 others start").isTrue();
			}
		});
	}

	@Test
	void eightReactiveBodiesOnEightKeysThatWaitForEachOtherAllRunAtOnce() {
		contextRunner().withUserConfiguration(BodiesConfiguration.class).run((context) -> {
			Bodies bodies = context.getBean(Bodies.class);
			CountDownLatch allStarted = new CountDownLatch(8);
			List<CompletableFuture<Boolean>> calls = IntStream.range(0, 8)
				.mapToObj((i) -> bodies.meetMono("r" + i, allStarted).toFuture())
				.toList();
			for (CompletableFuture<Boolean> call : calls) {
				assertThat(call.get(20, TimeUnit.SECONDS)).as("every body saw the 7 others start").isTrue();
			}
		});
	}

	@Test
	void lockedCallsAnswerWhileEightAsynchronousBodiesBlock() {
		contextRunner().withUserConfiguration(BodiesConfiguration.class).run((context) -> {
			Bodies bodies = context.getBean(Bodies.class);
			CountDownLatch release = new CountDownLatch(1);
			List<CompletableFuture<Boolean>> blocked = IntStream.range(0, 8)
				.mapToObj((i) -> bodies.block("b" + i, release))
				.toList();
			await().atMost(Duration.ofSeconds(10)).until(() -> bodies.blocking().get() == 8);
			CompletableFuture<String> plain = CompletableFuture.supplyAsync(() -> bodies.plain("p"));
			CompletableFuture<String> future = bodies.quick("q");
			await().atMost(Duration.ofSeconds(3)).until(() -> plain.isDone() && future.isDone());
			assertThat(plain).isCompletedWithValue("p");
			assertThat(future).isCompletedWithValue("q");
			release.countDown();
			for (CompletableFuture<Boolean> call : blocked) {
				assertThat(call.get(10, TimeUnit.SECONDS)).isTrue();
			}
		});
	}

	@Test
	void bodiesThatJoinAnotherLockedMethodComplete() {
		contextRunner().withUserConfiguration(BodiesConfiguration.class).run((context) -> {
			Bodies bodies = context.getBean(Bodies.class);
			List<CompletableFuture<String>> calls = IntStream.range(0, 8)
				.mapToObj((i) -> bodies.joining("outer" + i, "inner" + i, bodies))
				.toList();
			for (int i = 0; i < calls.size(); i++) {
				assertThat(calls.get(i).get(20, TimeUnit.SECONDS)).isEqualTo("inner" + i);
			}
		});
	}

	@Test
	void bodiesFallbacksTheFailureHandlerAndListenersNeverRunOnAThreadOfTheLockClient() {
		contextRunner().withUserConfiguration(BodiesConfiguration.class).run((context) -> {
			Bodies bodies = context.getBean(Bodies.class);
			assertThat(bodies.quick("t1").get(10, TimeUnit.SECONDS)).isEqualTo("t1");
			assertThat(bodies.monoQuick("t2").block(Duration.ofSeconds(10))).isEqualTo("t2");
			try (LockHold elsewhere = otherInstance().acquire("body:busy", Duration.ZERO, null)) {
				assertThat(bodies.withFallback("busy").get(10, TimeUnit.SECONDS)).isEqualTo("fallback");
				assertThat(bodies.monoWithFallback("busy").block(Duration.ofSeconds(10))).isEqualTo("fallback");
				assertThat(bodies.handled("busy").get(10, TimeUnit.SECONDS)).isEqualTo("handled");
				assertThat(bodies.monoHandled("busy").block(Duration.ofSeconds(10))).isEqualTo("handled");
			}
			await().atMost(Duration.ofSeconds(5)).until(() -> bodies.threads().containsKey("listener:released"));
			assertThat(bodies.threads()).containsOnlyKeys("quick", "monoQuick", "fallback", "monoFallback", "handler",
					"listener:acquired", "listener:notAcquired", "listener:released");
			assertThat(bodies.threads().values())
				.allSatisfy((thread) -> assertThat(ENGINE_THREADS.matcher(thread).matches()).as(thread).isFalse());
		});
	}

	@Test
	void continuationsOfTheCallerNeverRunOnAThreadOfTheLockClient() {
		contextRunner().withUserConfiguration(BodiesConfiguration.class).run((context) -> {
			Bodies bodies = context.getBean(Bodies.class);
			String afterFuture = bodies.quick("c1")
				.thenApply((value) -> Thread.currentThread().getName())
				.get(10, TimeUnit.SECONDS);
			String afterMono = bodies.monoQuick("c2")
				.map((value) -> Thread.currentThread().getName())
				.block(Duration.ofSeconds(10));
			String afterEmptyMono = bodies.monoEmpty("c3")
				.then(Mono.fromCallable(() -> Thread.currentThread().getName()))
				.block(Duration.ofSeconds(10));
			assertThat(List.of(afterFuture, afterMono, afterEmptyMono))
				.allSatisfy((thread) -> assertThat(ENGINE_THREADS.matcher(thread).matches()).as(thread).isFalse());
		});
	}

	@Test
	void bodiesRunOnTheApplicationTaskExecutorWhenThereIsOne() {
		contextRunner().withUserConfiguration(BodiesConfiguration.class)
			.withBean("applicationTaskExecutor", ThreadPoolTaskExecutor.class, () -> executor("app-task-"))
			.run((context) -> {
				Bodies bodies = context.getBean(Bodies.class);
				bodies.quick("e1").get(10, TimeUnit.SECONDS);
				assertThat(bodies.threads().get("quick")).startsWith("app-task-");
			});
	}

	@Test
	void bodiesRunOnTheExecutorThePropertyNames() {
		contextRunner().withUserConfiguration(BodiesConfiguration.class)
			.withBean("applicationTaskExecutor", ThreadPoolTaskExecutor.class, () -> executor("app-task-"))
			.withBean("lockedBodies", ThreadPoolTaskExecutor.class, () -> executor("locked-body-"))
			.withPropertyValues("distlock.async.executor=lockedBodies")
			.run((context) -> {
				Bodies bodies = context.getBean(Bodies.class);
				bodies.quick("e2").get(10, TimeUnit.SECONDS);
				bodies.monoQuick("e3").block(Duration.ofSeconds(10));
				assertThat(bodies.threads().get("quick")).startsWith("locked-body-");
				assertThat(bodies.threads().get("monoQuick")).startsWith("locked-body-");
			});
	}

	@Test
	void bodiesRunOnTheExecutorEvenWhenItDeliversTheGrantBeforeTheCallerRegisters() {
		DeliversBeforeReturning executor = new DeliversBeforeReturning();
		try {
			contextRunner().withUserConfiguration(BodiesConfiguration.class)
				.withBean("deliversFirst", Executor.class, () -> executor)
				.withPropertyValues("distlock.async.executor=deliversFirst")
				.run((context) -> {
					Bodies bodies = context.getBean(Bodies.class);
					for (int i = 0; i < 20; i++) {
						bodies.quick("f" + i).get(10, TimeUnit.SECONDS);
						bodies.monoQuick("m" + i).block(Duration.ofSeconds(10));
						assertThat(bodies.threads().get("quick")).as("call %d", i).startsWith("delivers-first-");
						assertThat(bodies.threads().get("monoQuick")).as("call %d", i).startsWith("delivers-first-");
					}
				});
		}
		finally {
			executor.threads.shutdownNow();
		}
	}

	@Test
	void failsAtStartupWhenThePropertyNamesNoBean() {
		contextRunner().withUserConfiguration(BodiesConfiguration.class)
			.withPropertyValues("distlock.async.executor=missing")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining("distlock.async.executor")
					.hasMessageContaining("'missing'");
			});
	}

	private static ThreadPoolTaskExecutor executor(String prefix) {
		ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
		executor.setCorePoolSize(2);
		executor.setThreadNamePrefix(prefix);
		executor.initialize();
		return executor;
	}

	/**
	 * Runs each task on a thread of its own and returns only once the task has run: the
	 * grant is delivered before the code that submitted it goes on, the worst order for a
	 * caller that registers what follows the grant after starting the acquisition.
	 */
	static final class DeliversBeforeReturning implements Executor {

		private final AtomicInteger created = new AtomicInteger();

		final ExecutorService threads = Executors
			.newCachedThreadPool((task) -> new Thread(task, "delivers-first-" + this.created.incrementAndGet()));

		@Override
		public void execute(Runnable task) {
			try {
				this.threads.submit(task).get(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
			catch (ExecutionException | TimeoutException ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BodiesConfiguration {

		@Bean
		Bodies bodies() {
			return new Bodies();
		}

		@Bean
		LockClientListener recordingListener(Bodies bodies) {
			return new LockClientListener() {

				@Override
				public LockTracker acquisitionStarted(String name, String key) {
					return new LockTracker() {

						@Override
						public void acquired(Duration waited, long fencingToken) {
							bodies.record("listener:acquired");
						}

						@Override
						public void notAcquired(AcquireOutcome outcome, Duration waited, @Nullable Throwable failure) {
							bodies.record("listener:notAcquired");
						}

						@Override
						public void released(@Nullable Throwable failure) {
							bodies.record("listener:released");
						}

					};
				}

			};
		}

		@Bean
		LockFailureHandler lockFailureHandler(Bodies bodies) {
			return (failure) -> {
				bodies.record("handler");
				return "handled";
			};
		}

	}

	/**
	 * Asynchronous locked methods whose bodies block, wait for each other or record the
	 * thread they run on.
	 */
	static class Bodies {

		final Map<String, String> threads = new ConcurrentHashMap<>();

		final AtomicInteger blocking = new AtomicInteger();

		private static boolean awaitQuietly(CountDownLatch latch, int seconds) {
			try {
				return latch.await(seconds, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}

		Map<String, String> threads() {
			return this.threads;
		}

		AtomicInteger blocking() {
			return this.blocking;
		}

		void record(String what) {
			this.threads.put(what, Thread.currentThread().getName());
		}

		@DistributedLock(key = "'body:' + #key", waitTime = "10s")
		public CompletableFuture<Boolean> meet(String key, CountDownLatch allStarted) {
			allStarted.countDown();
			return CompletableFuture.completedFuture(awaitQuietly(allStarted, 10));
		}

		@DistributedLock(key = "'body:' + #key", waitTime = "10s")
		public Mono<Boolean> meetMono(String key, CountDownLatch allStarted) {
			return Mono.fromCallable(() -> {
				allStarted.countDown();
				return allStarted.await(10, TimeUnit.SECONDS);
			});
		}

		@DistributedLock(key = "'body:' + #key", waitTime = "10s")
		public CompletableFuture<Boolean> block(String key, CountDownLatch release) {
			this.blocking.incrementAndGet();
			return CompletableFuture.completedFuture(awaitQuietly(release, 20));
		}

		@DistributedLock(key = "'body:' + #key", waitTime = "10s")
		public String plain(String key) {
			return key;
		}

		@DistributedLock(key = "'body:' + #key", waitTime = "10s")
		public CompletableFuture<String> quick(String key) {
			record("quick");
			return CompletableFuture.completedFuture(key);
		}

		@DistributedLock(key = "'body:' + #key", waitTime = "10s")
		public Mono<String> monoQuick(String key) {
			record("monoQuick");
			return Mono.just(key);
		}

		@DistributedLock(key = "'body:' + #key", waitTime = "10s")
		public Mono<Void> monoEmpty(String key) {
			return Mono.empty();
		}

		@DistributedLock(key = "'body:' + #outer", waitTime = "10s")
		public CompletableFuture<String> joining(String outer, String inner, Bodies proxy) {
			return CompletableFuture.completedFuture(proxy.quick(inner).join());
		}

		@DistributedLock(key = "'body:' + #key", fallbackMethod = "fallback")
		public CompletableFuture<String> withFallback(String key) {
			return CompletableFuture.completedFuture(key);
		}

		CompletableFuture<String> fallback(String key) {
			record("fallback");
			return CompletableFuture.completedFuture("fallback");
		}

		@DistributedLock(key = "'body:' + #key", fallbackMethod = "monoFallback")
		public Mono<String> monoWithFallback(String key) {
			return Mono.just(key);
		}

		Mono<String> monoFallback(String key) {
			record("monoFallback");
			return Mono.just("fallback");
		}

		@DistributedLock(key = "'body:' + #key")
		public CompletableFuture<String> handled(String key) {
			return CompletableFuture.completedFuture(key);
		}

		@DistributedLock(key = "'body:' + #key")
		public Mono<String> monoHandled(String key) {
			return Mono.just(key);
		}

	}

}
