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

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import dev.distlock.InvalidLockKeyException;
import dev.distlock.annotation.DistributedLock;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Key safety of the {@code @DistributedLock} advice on a real Redis: a key expression
 * that would silently lock the wrong thing fails the call with an
 * {@link InvalidLockKeyException} before the method runs and before any Redis command.
 *
 * @author distlock
 */
class KeySafetyAdviceTests extends RedisAdviceTestSupport {

	private ApplicationContextRunner orders() {
		return contextRunner().withBean(Orders.class, Orders::new);
	}

	@Test
	void refusesANullArgumentConcatenatedIntoTheKey() {
		refuses((orders) -> orders.byUser(null), "byUser", "#userId", "is null");
	}

	@Test
	void refusesAnEmptyArgumentConcatenatedIntoTheKeyLikeANullOne() {
		refuses((orders) -> orders.byUser(""), "byUser", "#userId", "is empty");
	}

	@Test
	void refusesABlankArgumentAnywhereInTheTopLevelConcatenation() {
		refuses((orders) -> orders.byTenant(" ", "7"), "byTenant", "#tenant", "is blank (' ')");
		refuses((orders) -> orders.byTenant("eu", ""), "byTenant", "#id", "is empty");
	}

	@Test
	void refusesANullArgumentAnywhereInTheTopLevelConcatenation() {
		refuses((orders) -> orders.byTenant(null, "7"), "byTenant", "#tenant", "is null");
		refuses((orders) -> orders.byTenant("eu", null), "byTenant", "#id", "is null");
	}

	@Test
	void refusesAnArgumentWithoutToStringConcatenatedIntoTheKey() {
		refuses((orders) -> orders.byCustomer(new Customer()), "byCustomer", "#customer",
				"does not override toString()");
	}

	@Test
	void refusesAnArrayConcatenatedIntoTheKey() {
		refuses((orders) -> orders.byIds(new long[] { 1, 2 }), "byIds", "#ids", "is an array (long[])");
	}

	@Test
	void refusesAnArgumentWithoutToStringAsTheWholeKey() {
		refuses((orders) -> orders.wholeCustomer(new Customer()), "wholeCustomer", "the key",
				"does not override toString()");
	}

	@Test
	void refusesAnIdentityTextInANestedConcatenation() {
		refuses((orders) -> orders.nested(new Customer()), "nested", "a value turned into text",
				"does not override toString()");
	}

	@Test
	void refusesAKeyLongerThanTheMaximum() {
		refuses((orders) -> orders.byUser("u".repeat(507)), "byUser", "the key", "513 bytes of UTF-8");
	}

	@Test
	void refusesALoneSurrogate() {
		refuses((orders) -> orders.byUser("\uD83D"), "byUser", "the key", "lone surrogate");
	}

	@Test
	void refusesMoreKeysThanTheMaximum() {
		List<String> ids = IntStream.rangeClosed(1, 65).mapToObj((i) -> "a" + i).toList();
		refuses((orders) -> orders.all(ids), "all", "the key collection", "65 keys");
	}

	@Test
	void refusesANullOrIdentityElementOfAKeyCollection() {
		refuses((orders) -> orders.all(java.util.Arrays.asList("a", null)), "all", "an element of the key collection",
				"is null");
		refuses((orders) -> orders.allObjects(List.of(new Customer())), "allObjects",
				"an element of the key collection", "does not override toString()");
	}

	@Test
	void appliesTheConfiguredLimits() {
		orders().withPropertyValues("distlock.max-key-length=8", "distlock.max-keys=2").run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThatExceptionOfType(InvalidLockKeyException.class).isThrownBy(() -> orders.byUser("123"))
				.withMessageContaining("9 bytes of UTF-8, more than the maximum of 8");
			assertThatExceptionOfType(InvalidLockKeyException.class)
				.isThrownBy(() -> orders.all(List.of("a", "b", "c")))
				.withMessageContaining("3 keys, more than the maximum of 2");
			assertThat(orders.all(List.of("a", "b"))).isEqualTo(2);
			assertThat(orders.calls()).isOne();
		});
	}

	@Test
	void allowsANullThatTheExpressionHandles() {
		orders().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThat(orders.orGuest(null)).isEqualTo("order:guest");
			assertThat(orders.guarded(null)).isEqualTo("guest");
			assertThat(orders.guarded("7")).isEqualTo("order:7");
			assertThat(orders.byUser("7")).isEqualTo("order:7");
			assertThat(orders.byNumber(7)).isEqualTo("order:7");
			assertThat(orders.calls()).isEqualTo(5);
		});
	}

	private void refuses(Consumer<Orders> call, String method, String part, String problem) {
		orders().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			ThrowingCallable callable = () -> call.accept(orders);
			assertThatExceptionOfType(InvalidLockKeyException.class).isThrownBy(callable)
				.withMessageContaining(problem)
				.satisfies((ex) -> {
					assertThat(ex.getMethod().getName()).isEqualTo(method);
					assertThat(ex.getExpression()).isEqualTo(ex.getMethod().getAnnotation(DistributedLock.class).key());
					assertThat(ex.getPart()).startsWith(part);
					assertThat(ex.getMessage()).contains(ex.getExpression()).contains(method);
				});
			assertThat(orders.calls()).isZero();
			assertThat(redis.keys(this.prefix + "*")).isEmpty();
		});
	}

	/**
	 * A type without its own {@code toString()}.
	 */
	static class Customer {

	}

	static class Orders {

		private final AtomicInteger calls = new AtomicInteger();

		int calls() {
			return this.calls.get();
		}

		@DistributedLock(key = "'order:' + #userId")
		public String byUser(@Nullable String userId) {
			this.calls.incrementAndGet();
			return "order:" + userId;
		}

		@DistributedLock(key = "'order:' + #number")
		public String byNumber(int number) {
			this.calls.incrementAndGet();
			return "order:" + number;
		}

		@DistributedLock(key = "#tenant + ':' + #id")
		public void byTenant(@Nullable String tenant, @Nullable String id) {
			this.calls.incrementAndGet();
		}

		@DistributedLock(key = "'customer:' + #customer")
		public void byCustomer(Customer customer) {
			this.calls.incrementAndGet();
		}

		@DistributedLock(key = "'ids:' + #ids")
		public void byIds(long[] ids) {
			this.calls.incrementAndGet();
		}

		@DistributedLock(key = "#customer")
		public void wholeCustomer(Customer customer) {
			this.calls.incrementAndGet();
		}

		@DistributedLock(key = "#customer != null ? 'customer:' + #customer : 'none'")
		public void nested(Customer customer) {
			this.calls.incrementAndGet();
		}

		@DistributedLock(key = "#ids")
		public int all(List<@Nullable String> ids) {
			this.calls.incrementAndGet();
			return ids.size();
		}

		@DistributedLock(key = "#customers")
		public void allObjects(List<Customer> customers) {
			this.calls.incrementAndGet();
		}

		@DistributedLock(key = "'order:' + (#userId ?: 'guest')")
		public String orGuest(@Nullable String userId) {
			this.calls.incrementAndGet();
			return "order:" + ((userId != null) ? userId : "guest");
		}

		@DistributedLock(key = "#userId != null ? 'order:' + #userId : 'guest'")
		public String guarded(@Nullable String userId) {
			this.calls.incrementAndGet();
			return (userId != null) ? "order:" + userId : "guest";
		}

	}

}
