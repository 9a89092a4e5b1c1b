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

package dev.distlock.benchmarks.annotation;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.distlock.autoconfigure.LockAspectAutoConfiguration;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockHandle;
import dev.distlock.memory.InMemoryLockStore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Cost of {@code @DistributedLock} itself: the advice, the cached key expression and the
 * held-lock bookkeeping, against the same {@link DefaultLockClient} calls, on an
 * in-memory store, written by hand. The lock client is in memory so that a Redis round
 * trip (tens of microseconds, with jitter of the same order) does not drown a difference
 * of about a microsecond.
 *
 * @author distlock
 * @since 0.1.0
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AnnotationOverheadBenchmark {

	private static final Duration NO_WAIT = Duration.ZERO;

	private AnnotationConfigApplicationContext context;

	private OrderService service;

	private DefaultLockClient lockClient;

	private long orderId;

	/**
	 * Start the Spring context with distlock's auto-configuration and the in-memory
	 * client.
	 */
	@Setup(Level.Trial)
	public void start() {
		this.context = new AnnotationConfigApplicationContext(BenchmarkConfiguration.class);
		this.service = this.context.getBean(OrderService.class);
		this.lockClient = this.context.getBean(DefaultLockClient.class);
		if (!AopUtils.isAopProxy(this.service)) {
			throw new IllegalStateException("OrderService is not proxied; the advice would not run");
		}
	}

	/**
	 * Close the Spring context.
	 */
	@TearDown(Level.Trial)
	public void stop() {
		this.context.close();
	}

	/**
	 * The annotated method through the proxy.
	 * @return the method's result
	 */
	@Benchmark
	public long annotated() {
		return this.service.confirmLocked(nextOrder());
	}

	/**
	 * The same lock calls written by hand around the unannotated method.
	 * @return the method's result
	 * @throws InterruptedException never, the in-memory lock is free
	 */
	@Benchmark
	public long handWritten() throws InterruptedException {
		long id = nextOrder();
		LockHandle lock = this.lockClient.obtain("order:" + id);
		if (!lock.tryLock(NO_WAIT)) {
			throw new IllegalStateException("in-memory lock busy");
		}
		try {
			return this.service.confirm(id);
		}
		finally {
			lock.unlock();
		}
	}

	/**
	 * The unannotated method alone, through the same proxy.
	 * @return the method's result
	 */
	@Benchmark
	public long unlocked() {
		return this.service.confirm(nextOrder());
	}

	private long nextOrder() {
		this.orderId = (this.orderId + 1) & 1023;
		return this.orderId;
	}

	/**
	 * The benchmark's application: distlock's auto-configuration, an in-memory lock
	 * client and the order service.
	 */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ LockAutoConfiguration.class, LockAspectAutoConfiguration.class })
	static class BenchmarkConfiguration {

		@Bean
		DefaultLockClient lockClient() {
			return new DefaultLockClient(new InMemoryLockStore());
		}

		@Bean
		OrderService orderService() {
			return new OrderService();
		}

	}

}
