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

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.InvalidLockKeyException;
import dev.distlock.LockAcquisitionException;
import dev.distlock.LockBackendException;
import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.OnBusy;
import dev.distlock.autoconfigure.LockAspectAutoConfiguration;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import dev.distlock.core.LockHold;
import dev.distlock.testing.redis.RedisServerHandle;
import dev.distlock.testing.redis.TestRedis;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.annotation.AliasFor;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Busy policies ({@code onBusy}, fallback, a global {@link LockFailureHandler}),
 * {@code holdAtLeast}, several keys on one method, composed annotations and
 * {@link CurrentLock#assertHeld()}, against a real Redis.
 *
 * @author distlock
 */
class LockPoliciesTests extends RedisAdviceTestSupport {

	@Test
	void skippedCallsReturnNothingInTheMethodsReturnType() {
		Skipping.runs.set(0);
		contextRunner().withBean(Skipping.class).run((context) -> {
			Skipping skipping = context.getBean(Skipping.class);
			try (LockHold elsewhere = otherInstance().acquire("busy", Duration.ZERO, null)) {
				assertThat(skipping.object()).isNull();
				assertThat(skipping.optional()).isEmpty();
				skipping.nothing();
				assertThat(skipping.future().get(5, TimeUnit.SECONDS)).isNull();
				assertThat(skipping.mono().block(Duration.ofSeconds(5))).isNull();
				assertThat(skipping.flux().collectList().block(Duration.ofSeconds(5))).isEmpty();
				assertThat(skipping.withFallback()).isEqualTo("fallback");
				assertThat(elsewhere.isValid()).isTrue();
			}
			assertThat(Skipping.runs).as("no method body ran").hasValue(0);
			assertThat(skipping.object()).isEqualTo("ran");
		});
	}

	@Test
	void theGlobalHandlerAnswersBusyCallsWithoutTheirOwnPolicy() {
		List<LockFailure> failures = new CopyOnWriteArrayList<>();
		contextRunner().withBean(Handled.class).withBean(LockFailureHandler.class, () -> (failure) -> {
			failures.add(failure);
			return "handled:" + failure.kind();
		}).run((context) -> {
			Handled handled = context.getBean(Handled.class);
			try (LockHold elsewhere = otherInstance().acquire("handled:1", Duration.ZERO, null)) {
				assertThat(handled.order(1)).isEqualTo("handled:BUSY");
				assertThat(handled.orderAsync(1).get(5, TimeUnit.SECONDS)).isEqualTo("handled:BUSY");
				assertThat(handled.skipping(1)).as("an explicit SKIP wins over the handler").isNull();
				assertThat(elsewhere.isValid()).isTrue();
			}
			assertThat(failures).hasSize(2).allSatisfy((failure) -> {
				assertThat(failure.kind()).isEqualTo(LockFailure.Kind.BUSY);
				assertThat(failure.keys()).containsExactly("handled:1");
				assertThat(failure.exception()).isInstanceOf(LockAcquisitionException.class);
				assertThat(failure.arguments()).containsExactly(1L);
			});
			assertThat(handled.order(2)).isEqualTo("ordered:2");
		});
	}

	@Test
	void theGlobalHandlerAnswersCallsWhileRedisIsDown() {
		List<LockFailure> failures = new CopyOnWriteArrayList<>();
		try (RedisServerHandle server = TestRedis.startServer()) {
			LettuceConnectionFactory factory = TestRedis.connectionFactory(server.endpoint(), Duration.ofSeconds(1));
			try {
				StringRedisTemplate template = TestRedis.template(factory);
				new ApplicationContextRunner()
					.withConfiguration(
							AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class))
					.withBean(StringRedisTemplate.class, () -> template)
					.withBean(Handled.class)
					.withBean(LockFailureHandler.class, () -> (failure) -> {
						failures.add(failure);
						return "handled:" + failure.kind();
					})
					.run((context) -> {
						Handled handled = context.getBean(Handled.class);
						assertThat(handled.order(3)).isEqualTo("ordered:3");
						server.stop();
						assertThat(handled.order(3)).isEqualTo("handled:BACKEND_UNAVAILABLE");
						assertThat(failures).singleElement()
							.satisfies((failure) -> assertThat(failure.exception())
								.isInstanceOf(LockBackendException.class));
					});
			}
			finally {
				factory.destroy();
			}
		}
	}

	@Test
	void aMethodWithSeveralKeysLocksThemAllAndNeverDeadlocksWithOverlappingCallers() {
		Transfers.runs.set(0);
		Transfers.overlaps.set(0);
		contextRunner().withBean(Transfers.class).run((context) -> {
			Transfers transfers = context.getBean(Transfers.class);
			List<List<String>> sets = List.of(List.of("a", "b"), List.of("b", "a"), List.of("b", "c", "b"),
					List.of("c", "a"));
			ExecutorService pool = Executors.newFixedThreadPool(sets.size());
			List<Future<?>> callers = new ArrayList<>();
			for (List<String> set : sets) {
				callers.add(pool.submit(() -> {
					for (int i = 0; i < 20; i++) {
						transfers.transfer(set);
					}
					return null;
				}));
			}
			for (Future<?> caller : callers) {
				caller.get(2, TimeUnit.MINUTES);
			}
			pool.shutdown();
			assertThat(Transfers.overlaps).hasValue(0);
			assertThat(Transfers.runs).hasValue(80);
			assertThat(lockedKeys()).isEmpty();
			try (LockHold elsewhere = otherInstance().acquire("account:c", Duration.ZERO, null)) {
				assertThatExceptionOfType(LockAcquisitionException.class)
					.isThrownBy(() -> transfers.transferNow(List.of("a", "c")));
				assertThat(lockedKeys()).containsOnly("account:c");
				assertThat(elsewhere.isValid()).isTrue();
			}
			assertThatExceptionOfType(InvalidLockKeyException.class).isThrownBy(() -> transfers.transfer(List.of()))
				.withMessageContaining("no key at all");
			assertThat(transfers.arrayKeys(new String[] { "x", "y" })).containsExactly("account:x", "account:y");
		});
	}

	@Test
	void aComposedAnnotationLocksThroughInterfacesAndClassProxies() {
		contextRunner().withBean(OrderDesk.class, () -> new DefaultOrderDesk())
			.withBean(ClassOrderDesk.class)
			.run((context) -> {
				OrderDesk desk = context.getBean(OrderDesk.class);
				ClassOrderDesk classDesk = context.getBean(ClassOrderDesk.class);
				assertThat(desk.place(7)).isEqualTo(List.of("order:7"));
				assertThat(classDesk.place(8)).isEqualTo(List.of("order:8"));
				try (LockHold elsewhere = otherInstance().acquire("order:9", Duration.ZERO, null)) {
					long started = System.nanoTime();
					assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> classDesk.place(9))
						.satisfies((ex) -> assertThat(ex.getWaitTime()).isEqualTo(Duration.ofMillis(200)));
					assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isGreaterThanOrEqualTo(150);
					assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> desk.place(9));
					assertThat(elsewhere.isValid()).isTrue();
				}
			});
	}

	@Test
	void assertHeldPassesUnderALockAndFailsOutsideOrAfterALoss() {
		contextRunner().withBean(Jobs.class).run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThat(jobs.checked()).isEqualTo("checked");
			assertThat(jobs.checkedWithSeveralKeys()).isEqualTo("checked");
			assertThatIllegalStateException().isThrownBy(CurrentLock::assertHeld)
				.withMessageContaining("No @DistributedLock method");
			assertThatIllegalStateException().isThrownBy(jobs::checkedAfterALoss)
				.withMessageContaining("no longer held");
		});
	}

	@Test
	void failsAtStartupOnHoldAtLeastLongerThanTheLeaseOrSkippingAPrimitive() {
		contextRunner().withBean(HoldsLongerThanItsLease.class)
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("HoldsLongerThanItsLease.run()")
				.hasMessageContaining("holdAtLeast = \"2s\"")
				.hasMessageContaining("must not be longer than the fixed leaseTime"));
		contextRunner().withBean(SkipsAPrimitive.class)
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("SkipsAPrimitive.count()")
				.hasMessageContaining("onBusy = \"SKIP\"")
				.hasMessageContaining("has no empty result"));
	}

	static class Skipping {

		static final AtomicInteger runs = new AtomicInteger();

		@DistributedLock(key = "'busy'", onBusy = OnBusy.SKIP)
		public String object() {
			return "ran";
		}

		@DistributedLock(key = "'busy'", onBusy = OnBusy.SKIP)
		public Optional<String> optional() {
			runs.incrementAndGet();
			return Optional.of("ran");
		}

		@DistributedLock(key = "'busy'", onBusy = OnBusy.SKIP)
		public void nothing() {
			runs.incrementAndGet();
		}

		@DistributedLock(key = "'busy'", onBusy = OnBusy.SKIP)
		public CompletableFuture<String> future() {
			runs.incrementAndGet();
			return CompletableFuture.completedFuture("ran");
		}

		@DistributedLock(key = "'busy'", onBusy = OnBusy.SKIP)
		public Mono<String> mono() {
			return Mono.fromCallable(() -> {
				runs.incrementAndGet();
				return "ran";
			});
		}

		@DistributedLock(key = "'busy'", onBusy = OnBusy.SKIP)
		public Flux<String> flux() {
			return Flux.defer(() -> {
				runs.incrementAndGet();
				return Flux.just("ran");
			});
		}

		@DistributedLock(key = "'busy'", onBusy = OnBusy.SKIP, fallbackMethod = "fallback")
		public String withFallback() {
			runs.incrementAndGet();
			return "ran";
		}

		String fallback() {
			return "fallback";
		}

	}

	static class Handled {

		@DistributedLock(key = "'handled:' + #id")
		public String order(long id) {
			return "ordered:" + id;
		}

		@DistributedLock(key = "'handled:' + #id")
		public CompletableFuture<String> orderAsync(long id) {
			return CompletableFuture.completedFuture("ordered:" + id);
		}

		@DistributedLock(key = "'handled:' + #id", onBusy = OnBusy.SKIP)
		public String skipping(long id) {
			return "ordered:" + id;
		}

	}

	static class Transfers {

		static final Map<String, AtomicInteger> inside = new ConcurrentHashMap<>();

		static final AtomicInteger overlaps = new AtomicInteger();

		static final AtomicInteger runs = new AtomicInteger();

		@DistributedLock(key = "#accounts.![ 'account:' + #this ]", waitTime = "60s")
		public void transfer(List<String> accounts) {
			List<String> distinct = accounts.stream().distinct().toList();
			for (String account : distinct) {
				if (inside.computeIfAbsent(account, (a) -> new AtomicInteger()).incrementAndGet() > 1) {
					overlaps.incrementAndGet();
				}
			}
			Thread.onSpinWait();
			distinct.forEach((account) -> inside.get(account).decrementAndGet());
			runs.incrementAndGet();
		}

		@DistributedLock(key = "#accounts.![ 'account:' + #this ]", waitTime = "0")
		public void transferNow(List<String> accounts) {
			runs.incrementAndGet();
		}

		@DistributedLock(key = "#ids.![ 'account:' + #this ]")
		public List<String> arrayKeys(String[] ids) {
			return CurrentLockKeys.current();
		}

	}

	/**
	 * Reads the keys of the running locked method, for the tests.
	 */
	static final class CurrentLockKeys {

		private CurrentLockKeys() {
		}

		static List<String> current() {
			HeldLocks.HeldLock held = HeldLocks.innermost();
			assertThat(held).isNotNull();
			return held.keys();
		}

	}

	/**
	 * A composed annotation: locks the order of the first argument, its wait time
	 * overridable.
	 */
	@Target(ElementType.METHOD)
	@Retention(RetentionPolicy.RUNTIME)
	@DistributedLock(key = "'order:' + #p0")
	@interface OrderLock {

		@AliasFor(annotation = DistributedLock.class, attribute = "waitTime")
		String waitTime() default "0";

	}

	interface OrderDesk {

		@OrderLock
		List<String> place(long orderId);

	}

	static class DefaultOrderDesk implements OrderDesk {

		@Override
		public List<String> place(long orderId) {
			return CurrentLockKeys.current();
		}

	}

	static class ClassOrderDesk {

		@OrderLock(waitTime = "200ms")
		public List<String> place(long orderId) {
			return CurrentLockKeys.current();
		}

	}

	static class Jobs {

		@DistributedLock(key = "'job'")
		public String checked() {
			CurrentLock.assertHeld();
			return "checked";
		}

		@DistributedLock(key = "{'job:a', 'job:b'}")
		public String checkedWithSeveralKeys() {
			CurrentLock.assertHeld();
			return "checked";
		}

		@DistributedLock(key = "'job:short'", leaseTime = "100ms")
		public String checkedAfterALoss() throws InterruptedException {
			Thread.sleep(200);
			CurrentLock.assertHeld();
			return "checked";
		}

	}

	static class HoldsLongerThanItsLease {

		@DistributedLock(key = "'k'", leaseTime = "1s", holdAtLeast = "2s")
		public void run() {
		}

	}

	static class SkipsAPrimitive {

		@DistributedLock(key = "'k'", onBusy = OnBusy.SKIP)
		public int count() {
			return 1;
		}

	}

}
