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

import java.time.Duration;
import java.time.Instant;

import dev.distlock.LockAcquisitionException;
import dev.distlock.LockLostAfterCompletionException;
import dev.distlock.LockLostException;
import dev.distlock.StaleFencingTokenException;
import dev.distlock.test.InMemoryLocks;
import dev.distlock.test.LockAssertions;
import dev.distlock.test.autoconfigure.AutoConfigureInMemoryLocks;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The locked voucher order service tested without Redis, on the in-memory locks of
 * {@code lock-spring-boot-test}: the lock key, a busy user lock, and a lease lost before
 * and after the commit. Spring Boot's Redis auto-configuration is excluded and the
 * embedded Redis fallback is off, so nothing in the context can reach a Redis.
 *
 * @author distlock
 */
@SpringBootTest(webEnvironment = WebEnvironment.NONE, properties = {
		"spring.datasource.url=jdbc:h2:mem:order-service-lock-tests;DB_CLOSE_DELAY=-1",
		"sample.embedded-redis.enabled=false",
		"spring.autoconfigure.exclude=org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration,"
				+ "org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration,"
				+ "org.springframework.boot.data.redis.autoconfigure.DataRedisRepositoriesAutoConfiguration" })
@AutoConfigureInMemoryLocks
@Import(OrderTransactionHooks.HooksConfiguration.class)
class VoucherOrderServiceLockTests {

	@Autowired
	private ApplicationContext context;

	@Autowired
	private InMemoryLocks locks;

	@Autowired
	private VoucherOrderService service;

	@Autowired
	private VoucherRepository vouchers;

	@Autowired
	private VoucherOrderRepository orders;

	@Autowired
	private VoucherProblems problems;

	@Autowired
	private OrderTransactionHooks hooks;

	@Test
	void contextHasNoRedisConnection() {
		assertThat(this.context.getBeanNamesForType(RedisConnectionFactory.class)).isEmpty();
		assertThat(this.context.getBeanNamesForType(ReactiveRedisConnectionFactory.class)).isEmpty();
	}

	@Test
	void orderRunsUnderTheUsersLockWithItsFencingToken() {
		long voucher = newVoucher();
		VoucherOrder order = LockAssertions.assertRanUnderLock(this.locks, "order:7",
				() -> this.service.order(voucher, 7));
		assertThat(order.userId()).isEqualTo(7);
		assertThat(this.locks.holds()).last().satisfies((hold) -> {
			assertThat(hold.key()).isEqualTo("order:7");
			assertThat(hold.fencingToken()).isEqualTo(order.fencingToken());
		});
	}

	@Test
	void aStaleHoldersOrderWritesNothingOnceANewerHolderOfTheUsersLockOrdered() {
		long first = newVoucher();
		long second = newVoucher();
		long third = newVoucher();
		VoucherOrder older = this.service.order(first, 11);
		VoucherOrder newer = this.service.order(second, 11);
		assertThat(newer.fencingToken()).isGreaterThan(older.fencingToken());
		assertThatExceptionOfType(StaleFencingTokenException.class)
			.isThrownBy(() -> this.orders.insert(third, 11, Instant.now(), older.fencingToken()))
			.satisfies((ex) -> assertThat(ex.getCurrentToken()).isEqualTo(newer.fencingToken()));
		assertThat(this.orders.findByVoucher(third)).isEmpty();
	}

	@Test
	void busyUserLockIsRefusedAsBusyWithTheHoldersRemainingLeaseAndOrdersNothing() {
		long voucher = newVoucher();
		this.locks.makeBusy("order:8", Duration.ofSeconds(30));
		try {
			LockAcquisitionException busy = catchThrowableOfType(LockAcquisitionException.class,
					() -> this.service.order(voucher, 8));
			assertThat(busy).isNotNull();
			ResponseEntity<Object> response = this.problems.busy(busy);
			assertThat(response.getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
			assertThat(response.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("30");
			assertThat(this.orders.findByVoucher(voucher)).isEmpty();
		}
		finally {
			this.locks.makeFree("order:8");
		}
	}

	@Test
	void leaseLostBeforeTheCommitRollsTheOrderBack() {
		long voucher = newVoucher();
		this.hooks.beforeCommit(9, () -> this.locks.loseLease("order:9"));
		try {
			assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> this.service.order(voucher, 9))
				.isNotInstanceOf(LockLostAfterCompletionException.class);
			assertThat(this.orders.findByVoucher(voucher)).isEmpty();
		}
		finally {
			this.locks.makeFree("order:9");
		}
	}

	@Test
	void leaseLostAfterTheCommitIsReportedWithTheCommittedOrder() {
		long voucher = newVoucher();
		this.hooks.afterCommit(10, () -> this.locks.loseLease("order:10"));
		try {
			assertThatExceptionOfType(LockLostAfterCompletionException.class)
				.isThrownBy(() -> this.service.order(voucher, 10))
				.satisfies((ex) -> assertThat(ex.getResult()).isInstanceOf(VoucherOrder.class));
			assertThat(this.orders.findByVoucher(voucher)).extracting(VoucherOrder::userId).containsExactly(10L);
		}
		finally {
			this.locks.makeFree("order:10");
		}
	}

	private long newVoucher() {
		return this.vouchers.insert(new NewVoucher("Lock test", 10, null, null, null, null).toVoucher(Instant.now()))
			.id();
	}

}
