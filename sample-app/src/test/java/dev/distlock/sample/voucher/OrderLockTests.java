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

package dev.distlock.sample.voucher;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.distlock.LockAcquisitionException;
import dev.distlock.sample.SampleTestRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.annotation.Transactional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lock, not the unique constraint, keeps a user to one order: on a schema whose
 * constraint is dropped before each test, concurrent duplicate orders through the locked
 * service never create a second order, while the same check-then-insert without the lock
 * does. Without the lock each duplicate gets a fencing token of its own, as if the lock
 * had granted every one, and each user's fence row exists beforehand; so the fence
 * refuses only the duplicates that write it out of token order.
 *
 * @author distlock
 */
@SpringBootTest(webEnvironment = WebEnvironment.NONE,
		properties = "spring.datasource.url=jdbc:h2:mem:order-lock-tests;DB_CLOSE_DELAY=-1")
@Import(OrderLockTests.UnlockedOrders.class)
class OrderLockTests {

	private static final int USERS = 40;

	private static final int DUPLICATES = 10;

	private static final ExecutorService executor = Executors.newFixedThreadPool(DUPLICATES);

	@Autowired
	private VoucherRepository vouchers;

	@Autowired
	private VoucherOrderRepository orders;

	@Autowired
	private VoucherOrderService lockedOrders;

	@Autowired
	private UnlockedOrders unlockedOrders;

	@Autowired
	private JdbcClient jdbc;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		SampleTestRedis.register(registry);
	}

	@AfterAll
	static void stopExecutor() {
		executor.shutdownNow();
	}

	@BeforeEach
	void dropTheUniqueConstraintAndTheFences() {
		this.jdbc.sql("ALTER TABLE voucher_order DROP CONSTRAINT IF EXISTS voucher_order_one_per_user").update();
		this.jdbc.sql("DELETE FROM order_user").update();
	}

	@Test
	void concurrentDuplicatesThroughTheLockCreateOneOrderPerUserWithoutUniqueConstraint() throws Exception {
		long voucher = newVoucher();
		Map<String, Integer> outcomes = burst((userId) -> this.lockedOrders.order(voucher, userId));
		Map<Long, Long> ordersPerUser = ordersPerUser(voucher);
		assertThat(ordersPerUser).hasSize(USERS);
		assertThat(ordersPerUser.values()).containsOnly(1L);
		assertThat(outcomes.get("created")).isEqualTo(USERS);
		assertThat(outcomes).containsKey("busy").doesNotContainKey("failed");
		assertThat(this.vouchers.find(voucher).orElseThrow().stock()).isEqualTo(1000 - USERS);
	}

	@Test
	void concurrentDuplicatesWithoutTheLockCreateDuplicateOrders() throws Exception {
		long voucher = newVoucher();
		for (long userId = 1; userId <= USERS; userId++) {
			this.jdbc.sql("INSERT INTO order_user (user_id, last_order_at) VALUES (?, CURRENT_TIMESTAMP)")
				.param(userId)
				.update();
		}
		burst((userId) -> this.unlockedOrders.order(voucher, userId));
		Map<Long, Long> ordersPerUser = ordersPerUser(voucher);
		assertThat(ordersPerUser.values()).anySatisfy((count) -> assertThat(count).isGreaterThan(1));
	}

	private long newVoucher() {
		return this.vouchers.insert(new NewVoucher("Race", 1000, null, null, null, null).toVoucher(Instant.now())).id();
	}

	/**
	 * For each user, {@value #DUPLICATES} threads place the same order at the same
	 * moment.
	 */
	private Map<String, Integer> burst(Function<Long, VoucherOrder> order) throws Exception {
		Map<String, Integer> outcomes = new ConcurrentHashMap<>();
		for (long userId = 1; userId <= USERS; userId++) {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<String>> results = new ArrayList<>();
			for (int i = 0; i < DUPLICATES; i++) {
				long user = userId;
				results.add(executor.submit(() -> {
					start.await();
					return attempt(() -> order.apply(user));
				}));
			}
			start.countDown();
			for (Future<String> result : results) {
				outcomes.merge(result.get(30, TimeUnit.SECONDS), 1, Integer::sum);
			}
		}
		return outcomes;
	}

	private static String attempt(Runnable order) {
		try {
			order.run();
			return "created";
		}
		catch (LockAcquisitionException ex) {
			return "busy";
		}
		catch (OrderRejectedException ex) {
			return ex.getReason().code();
		}
		catch (RuntimeException ex) {
			return "failed";
		}
	}

	private Map<Long, Long> ordersPerUser(long voucher) {
		return this.orders.findByVoucher(voucher)
			.stream()
			.collect(Collectors.groupingBy(VoucherOrder::userId, Collectors.counting()));
	}

	/**
	 * The same check-then-insert in a transaction, without the user's lock.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class UnlockedOrders {

		private final AtomicLong fencingTokens = new AtomicLong();

		private final OrderTaking orderTaking;

		UnlockedOrders(OrderTaking orderTaking) {
			this.orderTaking = orderTaking;
		}

		@Transactional
		public VoucherOrder order(long voucherId, long userId) {
			return this.orderTaking.take(voucherId, userId, this.fencingTokens.incrementAndGet());
		}

	}

}
