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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.annotation.DistributedLock;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The lock follows the work, never the caller's cancel: a caller that gives up on a
 * locked call after the grant (a cancel, a time limit) never lets the next call of the
 * same key overlap the work, which runs on.
 *
 * @author distlock
 */
class CancelledWorkAdviceTests extends RedisAdviceTestSupport {

	@Test
	void aSupplyAsyncBodyCancelledByItsCallerKeepsTheLockUntilItEnds() {
		contextRunner().withUserConfiguration(WorkConfiguration.class).run((context) -> {
			Work work = context.getBean(Work.class);
			CompletableFuture<String> first = work.future("a");
			work.awaitStarted(1);
			Thread.sleep(100);
			assertThat(first.cancel(true)).isTrue();
			CompletableFuture<String> second = work.future("a");
			assertThat(second.get(20, TimeUnit.SECONDS)).isEqualTo("a");
			assertThat(first).isCancelled();
			assertThat(work.finished()).as("the first body ran to its end").hasValue(2);
			assertThat(work.maxInside()).as("never two bodies at once").hasValue(1);
		});
	}

	@Test
	void aSupplyAsyncBodyWhoseCallerTimesOutKeepsTheLockUntilItEnds() {
		contextRunner().withUserConfiguration(WorkConfiguration.class).run((context) -> {
			Work work = context.getBean(Work.class);
			CompletableFuture<String> first = work.future("b").orTimeout(100, TimeUnit.MILLISECONDS);
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> first.get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(TimeoutException.class);
			CompletableFuture<String> second = work.future("b");
			assertThat(second.get(20, TimeUnit.SECONDS)).isEqualTo("b");
			assertThat(work.started()).hasValue(2);
			assertThat(work.maxInside()).as("never two bodies at once").hasValue(1);
		});
	}

	@Test
	void aMonoWhoseWorkIgnoresTheCancelNeverOverlapsTheNextCallWithinTheHoldAfterCancel() {
		contextRunner().withUserConfiguration(WorkConfiguration.class)
			.withPropertyValues("distlock.reactive.hold-after-cancel=2s")
			.run((context) -> {
				Work work = context.getBean(Work.class);
				assertThatExceptionOfType(RuntimeException.class)
					.isThrownBy(() -> work.mono("c").timeout(Duration.ofMillis(100)).block(Duration.ofSeconds(10)))
					.withCauseInstanceOf(TimeoutException.class);
				assertThat(work.mono("c").block(Duration.ofSeconds(20))).isEqualTo("c");
				await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(work.finished()).hasValue(2));
				assertThat(work.maxInside()).as("never two bodies at once").hasValue(1);
			});
	}

	@Test
	void aFluxWhoseWorkIgnoresTheCancelNeverOverlapsTheNextCallWithinTheHoldAfterCancel() {
		contextRunner().withUserConfiguration(WorkConfiguration.class)
			.withPropertyValues("distlock.reactive.hold-after-cancel=2s")
			.run((context) -> {
				Work work = context.getBean(Work.class);
				var first = work.flux("d").subscribe();
				work.awaitStarted(1);
				Thread.sleep(100);
				first.dispose();
				assertThat(work.flux("d").collectList().block(Duration.ofSeconds(20))).containsExactly("d");
				await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(work.finished()).hasValue(2));
				assertThat(work.maxInside()).as("never two bodies at once").hasValue(1);
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class WorkConfiguration {

		@Bean
		Work work() {
			return new Work();
		}

	}

	/**
	 * Locked methods whose work takes 600 ms and ignores cancels and interrupts; each
	 * runs on a thread of its own (a pool that queued one behind the other would hide an
	 * overlap).
	 */
	static class Work {

		final AtomicInteger inside = new AtomicInteger();

		final AtomicInteger maxInside = new AtomicInteger();

		final AtomicInteger started = new AtomicInteger();

		final AtomicInteger finished = new AtomicInteger();

		private final ExecutorService pool = Executors.newCachedThreadPool();

		@DistributedLock(key = "'work:' + #id", waitTime = "10s")
		public CompletableFuture<String> future(String id) {
			return CompletableFuture.supplyAsync(() -> stubborn(id), this.pool);
		}

		@DistributedLock(key = "'work:' + #id", waitTime = "10s")
		public Mono<String> mono(String id) {
			return Mono.fromCallable(() -> stubborn(id)).subscribeOn(Schedulers.fromExecutor(this.pool));
		}

		@DistributedLock(key = "'work:' + #id", waitTime = "10s")
		public Flux<String> flux(String id) {
			return Flux.defer(() -> Flux.just(stubborn(id))).subscribeOn(Schedulers.fromExecutor(this.pool));
		}

		AtomicInteger started() {
			return this.started;
		}

		AtomicInteger finished() {
			return this.finished;
		}

		AtomicInteger maxInside() {
			return this.maxInside;
		}

		void awaitStarted(int count) {
			await().atMost(Duration.ofSeconds(10)).until(() -> this.started.get() >= count);
		}

		private String stubborn(String id) {
			this.started.incrementAndGet();
			this.maxInside.accumulateAndGet(this.inside.incrementAndGet(), Math::max);
			CountDownLatch never = new CountDownLatch(1);
			long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(600);
			boolean interrupted = false;
			while (System.nanoTime() - deadline < 0) {
				try {
					never.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
			this.inside.decrementAndGet();
			this.finished.incrementAndGet();
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
			return id;
		}

	}

}
