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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.LockHold;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Locked reactive and future methods never block a non-blocking thread, proved with
 * BlockHound on Reactor's parallel scheduler, also while they wait for a lock held by
 * another instance; and the lock client's own threads (its timer and the threads that
 * complete callers' futures) are guarded the same way, so a method body that blocks would
 * fail if it ran on one of them. Runs in a JVM of its own (tag {@code blockhound}), since
 * BlockHound instruments the JDK for the whole JVM.
 *
 * @author distlock
 */
@Tag("blockhound")
class NonBlockingAdviceTests extends RedisAdviceTestSupport {

	/**
	 * The threads of a lock client: its timer and its callback threads.
	 */
	private static final Pattern CLIENT_THREADS = Pattern.compile("distlock-\\p{XDigit}{8}-(timer|callback)-\\d+");

	@BeforeAll
	static void installBlockHound() {
		BlockHound.install((builder) -> builder
			.nonBlockingThreadPredicate(
					(nonBlocking) -> nonBlocking.or((thread) -> CLIENT_THREADS.matcher(thread.getName()).matches()))
			// the pools' own idle wait for their next task
			.allowBlockingCallsInside(ThreadPoolExecutor.class.getName(), "getTask"));
	}

	@Test
	void blockHoundCatchesBlockingOnAThreadOfTheLockClient() throws Exception {
		LockHold holder = otherInstance().acquire("order:guard", Duration.ZERO, null);
		// Attached while the waiter's future cannot be complete yet, so the continuation
		// runs on the client thread that completes it when the holder releases
		CompletableFuture<LockHold> waiter = otherInstance().acquireAsync("order:guard", Duration.ofSeconds(10), null)
			.toCompletableFuture();
		CompletableFuture<LockHold> blocking = waiter.thenApply((hold) -> {
			try {
				Thread.sleep(1);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return hold;
		});
		holder.release();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> blocking.get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(BlockingOperationError.class);
		waiter.get(10, TimeUnit.SECONDS).release();
	}

	@Test
	void blockingBodiesOfLockedFutureAndMonoMethodsNeverRunOnAThreadOfTheLockClient() {
		contextRunner().withUserConfiguration(ReactiveOrdersConfiguration.class).run((context) -> {
			ReactiveOrders orders = context.getBean(ReactiveOrders.class);
			for (int i = 0; i < 10; i++) {
				assertThat(orders.blockingFuture("bf" + i).get(10, TimeUnit.SECONDS)).isEqualTo("bf" + i);
				assertThat(orders.blockingMono("bm" + i).block(Duration.ofSeconds(10))).isEqualTo("bm" + i);
			}
		});
	}

	@Test
	void blockHoundCatchesBlockingOnAParallelThread() {
		assertThatExceptionOfType(RuntimeException.class).isThrownBy(() -> Mono.fromCallable(() -> {
			Thread.sleep(1);
			return 1;
		}).subscribeOn(Schedulers.parallel()).block(Duration.ofSeconds(10)))
			.havingRootCause()
			.isInstanceOf(BlockingOperationError.class);
	}

	@Test
	void aLockedMonoNeverBlocksTheParallelSchedulerEvenWhenItWaits() {
		contextRunner().withUserConfiguration(ReactiveOrdersConfiguration.class).run((context) -> {
			ReactiveOrders orders = context.getBean(ReactiveOrders.class);
			assertThat(Mono.defer(() -> orders.mono("free"))
				.subscribeOn(Schedulers.parallel())
				.block(Duration.ofSeconds(10))).isEqualTo("free");
			LockHold elsewhere = otherInstance().acquire("order:held", Duration.ZERO, null);
			CompletableFuture<String> waiting = Mono.defer(() -> orders.mono("held"))
				.subscribeOn(Schedulers.parallel())
				.toFuture();
			Thread.sleep(300);
			assertThat(waiting).isNotDone();
			elsewhere.release();
			assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo("held");
		});
	}

	@Test
	void aLockedFutureMethodCalledOnAParallelThreadNeverBlocksIt() {
		contextRunner().withUserConfiguration(ReactiveOrdersConfiguration.class).run((context) -> {
			ReactiveOrders orders = context.getBean(ReactiveOrders.class);
			LockHold elsewhere = otherInstance().acquire("order:future", Duration.ZERO, null);
			CompletableFuture<String> waiting = Mono.fromCallable(() -> orders.future("future"))
				.subscribeOn(Schedulers.parallel())
				.flatMap(Mono::fromFuture)
				.toFuture();
			Thread.sleep(300);
			assertThat(waiting).isNotDone();
			elsewhere.release();
			assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo("future");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class ReactiveOrdersConfiguration {

		@Bean
		ReactiveOrders reactiveOrders() {
			return new ReactiveOrders();
		}

	}

	static class ReactiveOrders {

		@DistributedLock(key = "'order:' + #id", waitTime = "10s")
		public Mono<String> mono(String id) {
			return Mono.delay(Duration.ofMillis(20)).map((tick) -> id);
		}

		@DistributedLock(key = "'order:' + #id", waitTime = "10s")
		public CompletableFuture<String> blockingFuture(String id) throws InterruptedException {
			Thread.sleep(2);
			return CompletableFuture.completedFuture(id);
		}

		@DistributedLock(key = "'order:' + #id", waitTime = "10s")
		public Mono<String> blockingMono(String id) {
			return Mono.fromCallable(() -> {
				Thread.sleep(2);
				return id;
			});
		}

		@DistributedLock(key = "'order:' + #id", waitTime = "10s")
		public CompletableFuture<String> future(String id) {
			return Mono.delay(Duration.ofMillis(20)).map((tick) -> id).toFuture();
		}

	}

}
