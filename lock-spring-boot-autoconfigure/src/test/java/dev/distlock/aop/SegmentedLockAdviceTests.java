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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.distlock.InvalidLockKeyException;
import dev.distlock.LockAcquisitionException;
import dev.distlock.NoSegmentAvailableException;
import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.OnBusy;
import dev.distlock.autoconfigure.observation.LockMetricsAutoConfiguration;
import dev.distlock.core.LockHold;
import dev.distlock.core.SegmentHold;
import dev.distlock.annotation.SegmentKeys;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * {@code @DistributedLock(segments = 8)} on Redis: each call locks one of the item's
 * segment keys, so calls of one item run at once up to the number of segments, across
 * instances; the segment filter, {@code CurrentLock.segment()}, the wait time, the busy
 * policies, asynchronous methods and the metrics.
 *
 * @author distlock
 */
class SegmentedLockAdviceTests extends RedisAdviceTestSupport {

	@Test
	void eightCallsOfOneItemRunAtOnceEachOnASegmentOfItsOwnAcrossTwoInstances() throws Exception {
		contextRunner().withUserConfiguration(OrdersConfiguration.class).run((first) -> {
			contextRunner().withUserConfiguration(OrdersConfiguration.class).run((second) -> {
				List<Orders> instances = List.of(first.getBean(Orders.class), second.getBean(Orders.class));
				CountDownLatch inside = new CountDownLatch(8);
				ExecutorService callers = Executors.newFixedThreadPool(8);
				try {
					List<Future<Integer>> segments = new ArrayList<>();
					for (int i = 0; i < 8; i++) {
						Orders orders = instances.get(i % 2);
						segments.add(callers.submit(() -> orders.allAtOnce(1, inside)));
					}
					Set<Integer> taken = ConcurrentHashMap.newKeySet();
					for (Future<Integer> segment : segments) {
						taken.add(segment.get(20, TimeUnit.SECONDS));
					}
					assertThat(taken).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7);
				}
				finally {
					callers.shutdownNow();
				}
				await().atMost(Duration.ofSeconds(5)).until(() -> lockedKeys().isEmpty());
			});
		});
	}

	@Test
	void theMethodRunsOnTheSegmentLeftFreeByAnotherInstanceAndReadsIt() throws Exception {
		contextRunner().withUserConfiguration(OrdersConfiguration.class).run((context) -> {
			Orders orders = context.getBean(Orders.class);
			List<String> keys = SegmentKeys.of("stock:2", 8);
			List<LockHold> elsewhere = new ArrayList<>();
			for (int i = 0; i < 8; i++) {
				if (i != 5) {
					elsewhere.add(otherInstance().acquire(keys.get(i), Duration.ZERO, null));
				}
			}
			assertThat(orders.segment(2)).isEqualTo(5);
			// Read through methods: the bean is a proxy, whose own fields stay empty
			assertThat(orders.lastKey()).isEqualTo("stock:2#5");
			assertThat(orders.currentLockGet()).contains("CurrentLock.segment()");
			elsewhere.forEach(LockHold::release);
		});
	}

	@Test
	void everySegmentBusyWaitsForTheFirstReleaseWithinTheWaitTimeElseTheBusyPolicyAnswers() throws Exception {
		contextRunner().withUserConfiguration(OrdersConfiguration.class).run((context) -> {
			Orders orders = context.getBean(Orders.class);
			List<String> keys = SegmentKeys.of("stock:3", 8);
			List<LockHold> elsewhere = new ArrayList<>();
			for (String key : keys) {
				elsewhere.add(otherInstance().acquire(key, Duration.ZERO, null));
			}
			assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> orders.segment(3));
			assertThat(orders.skipped(3)).isNull();
			assertThat(orders.withFallback(3)).isEqualTo(-1);
			CompletableFuture<Integer> waiting = CompletableFuture.supplyAsync(() -> orders.waiting(3));
			// Nothing is free: the fixed wait is what this asserts
			await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !waiting.isDone());
			elsewhere.get(6).release();
			assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo(6);
			elsewhere.stream().filter(LockHold::isValid).forEach(LockHold::release);
		});
	}

	@Test
	void theSegmentFilterSeesTheArgumentsAndTheSegmentAndRejectingAllIsNoSegmentAvailable() throws Exception {
		contextRunner().withUserConfiguration(OrdersConfiguration.class).run((context) -> {
			Orders orders = context.getBean(Orders.class);
			Stock stock = context.getBean(Stock.class);
			stock.stocked.put(4L, Set.of(2, 5));
			Set<Integer> served = ConcurrentHashMap.newKeySet();
			for (int i = 0; i < 10; i++) {
				served.add(orders.filtered(4));
			}
			assertThat(served).isSubsetOf(2, 5);
			assertThat(stock.threads).containsOnly(Thread.currentThread().getName());
			stock.stocked.put(4L, Set.of());
			assertThatExceptionOfType(NoSegmentAvailableException.class).isThrownBy(() -> orders.filtered(4))
				.withMessageContaining("stock:4#0");
			assertThat(lockedKeys()).isEmpty();
		});
	}

	@Test
	void asynchronousMethodsRunTheFilterAndTheBodyOnTheExecutorNeverOnTheClientsThreads() throws Exception {
		contextRunner().withUserConfiguration(OrdersConfiguration.class)
			.withBean("applicationTaskExecutor", ThreadPoolTaskExecutor.class, SegmentedLockAdviceTests::executor)
			.run((context) -> {
				Orders orders = context.getBean(Orders.class);
				Stock stock = context.getBean(Stock.class);
				stock.stocked.put(5L, Set.of(3));
				assertThat(orders.stage(5).get(10, TimeUnit.SECONDS)).startsWith("app-task-");
				assertThat(orders.mono(5).block(Duration.ofSeconds(10))).startsWith("app-task-");
				assertThat(stock.threads).isNotEmpty().allMatch((thread) -> thread.startsWith("app-task-"));
				stock.stocked.put(5L, Set.of());
				assertThatExceptionOfType(Exception.class).isThrownBy(() -> orders.stage(5).get(10, TimeUnit.SECONDS))
					.withRootCauseInstanceOf(NoSegmentAvailableException.class);
				await().atMost(Duration.ofSeconds(5)).until(() -> lockedKeys().isEmpty());
			});
	}

	@Test
	void aCallIsOneAcquisitionInTheMetricsWithoutASegmentTag() throws Exception {
		contextRunner().withConfiguration(AutoConfigurations.of(LockMetricsAutoConfiguration.class))
			.withUserConfiguration(OrdersConfiguration.class)
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.run((context) -> {
				Orders orders = context.getBean(Orders.class);
				orders.segment(6);
				orders.segment(6);
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				Timer acquired = registry.get("distlock.acquire").tags("name", "orders.segment").timer();
				assertThat(acquired.count()).isEqualTo(2);
				assertThat(registry.getMeters()).allSatisfy((meter) -> assertThat(meter.getId().getTags())
					.noneMatch((tag) -> tag.getKey().contains("segment")));
			});
	}

	@Test
	void aKeyThatGivesSeveralKeysAtTheCallIsRefusedNamingSegments() throws Exception {
		contextRunner().withUserConfiguration(OrdersConfiguration.class).run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThatIllegalStateException().isThrownBy(() -> orders.severalItems(List.of("a", "b")))
				.withMessageContaining("segments = \"4\"")
				.withMessageContaining("collection");
			assertThat(lockedKeys()).isEmpty();
		});
	}

	@Test
	void anItemKeyHoldingTheSegmentSeparatorIsRefusedBeforeAnyLock() throws Exception {
		contextRunner().withUserConfiguration(OrdersConfiguration.class).run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThatExceptionOfType(InvalidLockKeyException.class).isThrownBy(() -> orders.named("42#1"))
				.withMessageContaining("'stock:42#1'")
				.withMessageContaining("contains '#'");
			assertThat(lockedKeys()).isEmpty();
			orders.named("42");
		});
	}

	private static ThreadPoolTaskExecutor executor() {
		ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
		executor.setCorePoolSize(2);
		executor.setThreadNamePrefix("app-task-");
		executor.initialize();
		return executor;
	}

	@Configuration(proxyBeanMethods = false)
	static class OrdersConfiguration {

		@Bean
		Orders orders() {
			return new Orders();
		}

		@Bean
		Stock stock() {
			return new Stock();
		}

	}

	static class Stock {

		final Map<Long, Set<Integer>> stocked = new ConcurrentHashMap<>();

		final Set<String> threads = ConcurrentHashMap.newKeySet();

		public boolean hasStock(long item, int segment) {
			this.threads.add(Thread.currentThread().getName());
			return this.stocked.getOrDefault(item, Set.of()).contains(segment);
		}

		public List<String> items(List<String> items) {
			return items;
		}

	}

	static class Orders {

		volatile String lastKey = "";

		volatile String currentLockGet = "";

		public String lastKey() {
			return this.lastKey;
		}

		public String currentLockGet() {
			return this.currentLockGet;
		}

		@DistributedLock(key = "'stock:' + #item", segments = 8, waitTime = "10s")
		public int allAtOnce(long item, CountDownLatch inside) throws InterruptedException {
			inside.countDown();
			// Every call is inside before any leaves: eight bodies of one item at once
			if (!inside.await(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("not all eight calls ran at once");
			}
			return CurrentLock.segment();
		}

		@DistributedLock(key = "'stock:' + #item", segments = 8, waitTime = "0", name = "orders.segment")
		public int segment(long item) {
			SegmentHold hold = CurrentLock.segmentHold();
			this.lastKey = hold.key();
			try {
				CurrentLock.get();
			}
			catch (IllegalStateException ex) {
				this.currentLockGet = String.valueOf(ex.getMessage());
			}
			return CurrentLock.segment();
		}

		@DistributedLock(key = "'stock:' + #item", segments = 8, waitTime = "0", onBusy = OnBusy.SKIP)
		public Integer skipped(long item) {
			return CurrentLock.segment();
		}

		@DistributedLock(key = "'stock:' + #item", segments = 8, waitTime = "0", fallbackMethod = "busy")
		public int withFallback(long item) {
			return CurrentLock.segment();
		}

		int busy(long item) {
			return -1;
		}

		@DistributedLock(key = "'stock:' + #item", segments = 8, waitTime = "10s")
		public int waiting(long item) {
			return CurrentLock.segment();
		}

		@DistributedLock(key = "'stock:' + #item", segments = 8, waitTime = "0",
				segmentFilter = "@stock.hasStock(#item, #segment)")
		public int filtered(long item) {
			return CurrentLock.segment();
		}

		@DistributedLock(key = "'stock:' + #item", segments = 8, waitTime = "2s",
				segmentFilter = "@stock.hasStock(#item, #segment)")
		public CompletableFuture<String> stage(long item) {
			return CompletableFuture.completedFuture(Thread.currentThread().getName());
		}

		@DistributedLock(key = "'stock:' + #item", segments = 8, waitTime = "2s",
				segmentFilter = "@stock.hasStock(#item, #segment)")
		public Mono<String> mono(long item) {
			return Mono.fromCallable(() -> Thread.currentThread().getName());
		}

		@DistributedLock(key = "@stock.items(#items)", segments = 4)
		public void severalItems(List<String> items) {
		}

		@DistributedLock(key = "'stock:' + #item", segments = 4)
		public void named(String item) {
		}

	}

}
