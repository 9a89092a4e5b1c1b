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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.annotation.DistributedLock;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.EnableAspectJAutoProxy;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code @DistributedLock} methods called from virtual threads of Spring Boot's task
 * executor ({@code spring.threads.virtual.enabled=true}). Tagged {@code jdk25}: the build
 * runs it on the JDK 25 when installed; on older JDKs it is skipped.
 *
 * @author distlock
 */
@Tag("jdk25")
class VirtualThreadLockTests extends RedisAdviceTestSupport {

	private static final String TASK_EXECUTION_AUTO_CONFIGURATION = "org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration";

	private static final int CALLS = 24;

	@Test
	void locksMethodsCalledFromVirtualThreads() {
		assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21 or later");
		contextRunner()
			.withConfiguration(
					AutoConfigurations.of(ClassUtils.resolveClassName(TASK_EXECUTION_AUTO_CONFIGURATION, null)))
			.withPropertyValues("spring.threads.virtual.enabled=true")
			.withUserConfiguration(CounterConfiguration.class)
			.run((context) -> {
				AsyncTaskExecutor executor = context.getBean("applicationTaskExecutor", AsyncTaskExecutor.class);
				Counter counter = context.getBean(Counter.class);
				List<Future<Boolean>> calls = new ArrayList<>();
				for (int i = 0; i < CALLS; i++) {
					calls.add(executor.submit(counter::increment));
				}
				for (Future<Boolean> call : calls) {
					assertThat(call.get(60, TimeUnit.SECONDS)).as("ran on a virtual thread").isTrue();
				}
				assertThat(counter.value()).isEqualTo(CALLS);
				assertThat(counter.mostInside()).isEqualTo(1);
				assertThat(lockedKeys()).isEmpty();
			});
	}

	@Test
	void runsAsynchronousBodiesOnVirtualThreadsWhenTheyAreOnAndThereIsNoApplicationTaskExecutor() {
		assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21 or later");
		contextRunner().withPropertyValues("spring.threads.virtual.enabled=true")
			.withUserConfiguration(CounterConfiguration.class)
			.run((context) -> {
				assertThat(context).doesNotHaveBean("applicationTaskExecutor");
				Counter counter = context.getBean(Counter.class);
				List<CompletableFuture<Boolean>> calls = new ArrayList<>();
				for (int i = 0; i < CALLS; i++) {
					calls.add(counter.incrementAsync());
				}
				for (CompletableFuture<Boolean> call : calls) {
					assertThat(call.get(60, TimeUnit.SECONDS)).as("the body ran on a virtual thread").isTrue();
				}
				assertThat(counter.value()).isEqualTo(CALLS);
				assertThat(counter.mostInside()).isEqualTo(1);
				assertThat(lockedKeys()).isEmpty();
			});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAspectJAutoProxy(proxyTargetClass = true)
	static class CounterConfiguration {

		@Bean
		Counter counter() {
			return new Counter();
		}

	}

	static class Counter {

		private final AtomicInteger inside = new AtomicInteger();

		private final AtomicInteger mostInside = new AtomicInteger();

		private int value;

		/**
		 * Increment with an unsafe read-modify-write that only the lock makes safe.
		 * @return whether the call ran on a virtual thread
		 */
		@DistributedLock(key = "'counter'", waitTime = "60s")
		public boolean increment() throws InterruptedException {
			this.mostInside.accumulateAndGet(this.inside.incrementAndGet(), Math::max);
			int current = this.value;
			Thread.sleep(5);
			this.value = current + 1;
			this.inside.decrementAndGet();
			return isVirtual(Thread.currentThread());
		}

		@DistributedLock(key = "'counter'", waitTime = "60s")
		public CompletableFuture<Boolean> incrementAsync() throws InterruptedException {
			return CompletableFuture.completedFuture(increment());
		}

		public int value() {
			return this.value;
		}

		public int mostInside() {
			return this.mostInside.get();
		}

		private static boolean isVirtual(Thread thread) {
			Object virtual = ReflectionUtils.invokeMethod(ReflectionUtils.findMethod(Thread.class, "isVirtual"),
					thread);
			return Boolean.TRUE.equals(virtual);
		}

	}

}
