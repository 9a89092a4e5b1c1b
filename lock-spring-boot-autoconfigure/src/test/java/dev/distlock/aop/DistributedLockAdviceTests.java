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

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import dev.distlock.InvalidLockKeyException;
import dev.distlock.LockAcquisitionException;
import dev.distlock.LockLostAfterCompletionException;
import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHandle;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.EnableAspectJAutoProxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The {@code @DistributedLock} advice on a real Redis: keys, release, return values,
 * exceptions, nesting, busy locks, fallbacks, durations and proxy types.
 *
 * @author distlock
 */
class DistributedLockAdviceTests extends RedisAdviceTestSupport {

	private ApplicationContextRunner classProxies() {
		return contextRunner().withPropertyValues("orders.wait=5s")
			.withBean(LockProbe.class, () -> new LockProbe(this.prefix))
			.withUserConfiguration(ClassProxyConfiguration.class);
	}

	private ApplicationContextRunner interfaceProxies() {
		return contextRunner().withBean(LockProbe.class, () -> new LockProbe(this.prefix))
			.withUserConfiguration(InterfaceProxyConfiguration.class);
	}

	@Test
	void holdsTheLockWhileTheMethodRunsAndReleasesItAfter() {
		classProxies().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThat(AopUtils.isCglibProxy(orders)).isTrue();
			assertThat(orders.byName("42")).containsExactly("order:42");
			assertThat(lockedKeys()).isEmpty();
			assertThat(orders.callCount()).isEqualTo(1);
		});
	}

	@Test
	void doesNotLockMethodsWithoutTheAnnotation() {
		classProxies().run((context) -> assertThat(context.getBean(Orders.class).unlocked()).isEmpty());
	}

	@Test
	void doesNotLockSelfInvocations() {
		classProxies().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThat(orders.callsByNameOnItself("s")).isEmpty();
			assertThat(orders.callCount()).isEqualTo(1);
		});
	}

	@Test
	void passesReturnValuesThrough() {
		classProxies().run((context) -> assertThat(context.getBean(Orders.class).primitive("1")).isEqualTo(7));
	}

	@Test
	void releasesWhenTheMethodThrowsAnUncheckedException() {
		classProxies().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> orders.failsUnchecked("1"))
				.withMessage("boom");
			assertThat(lockedKeys()).isEmpty();
			assertThat(orders.callCount()).isEqualTo(1);
		});
	}

	@Test
	void releasesWhenTheMethodThrowsACheckedException() {
		classProxies().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThatExceptionOfType(IOException.class).isThrownBy(() -> orders.failsChecked("1")).withMessage("io");
			assertThat(lockedKeys()).isEmpty();
		});
	}

	@Test
	void evaluatesParameterNames() {
		classProxies()
			.run((context) -> assertThat(context.getBean(Orders.class).byName("a")).containsExactly("order:a"));
	}

	@Test
	void evaluatesParameterPositions() {
		classProxies().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThat(orders.byP0("b")).containsExactly("order:b");
			assertThat(orders.byA1("eu", 42)).containsExactly("order:42");
		});
	}

	@Test
	void evaluatesTheRootObject() {
		classProxies().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThat(orders.byRootArgs("c")).containsExactly("byRootArgs:c");
			assertThat(orders.byRootMethod()).containsExactly("Orders:byRootMethod");
			assertThat(orders.byRootTarget("d")).containsExactly("eu:d");
		});
	}

	@Test
	void evaluatesBeanReferences() {
		classProxies().run((context) -> assertThat(context.getBean(Orders.class).byBean("e")).containsExactly("ref:e"));
	}

	@Test
	void convertsNonStringKeys() {
		classProxies().run((context) -> assertThat(context.getBean(Orders.class).byRawKey(42L)).containsExactly("42"));
	}

	@Test
	void rejectsANullKeyWithoutRunningTheMethod() {
		classProxies().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThatExceptionOfType(InvalidLockKeyException.class).isThrownBy(() -> orders.byRawKey(null))
				.withMessageContaining("\"#p0\"")
				.withMessageContaining("Orders.byRawKey(java.lang.Object)")
				.withMessageContaining("null");
			assertThat(orders.callCount()).isEqualTo(0);
		});
	}

	@Test
	void rejectsABlankKeyWithoutRunningTheMethod() {
		classProxies().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThatExceptionOfType(InvalidLockKeyException.class).isThrownBy(() -> orders.byRawKey("  "))
				.withMessageContaining("\"#p0\"")
				.withMessageContaining("Orders.byRawKey")
				.withMessageContaining("blank");
			assertThat(orders.callCount()).isEqualTo(0);
		});
	}

	@Test
	void rejectsAKeyExpressionThatFailsWithoutRunningTheMethod() {
		classProxies().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThatExceptionOfType(InvalidLockKeyException.class).isThrownBy(() -> orders.byMissingProperty("f"))
				.withMessageContaining("\"#p0.noSuchProperty\"")
				.withMessageContaining("Orders.byMissingProperty");
			assertThat(orders.callCount()).isEqualTo(0);
		});
	}

	@Test
	void releasesTheKeyItAcquiredEvenIfTheExpressionWouldNowYieldAnother() {
		classProxies().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThat(orders.changesRegion("us")).containsExactly("eu:region");
			assertThat(lockedKeys()).isEmpty();
		});
	}

	@Test
	void reentersOnNestedCallsWithTheSameKey() {
		classProxies().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThat(orders.nestedSameKey("g")).isEqualTo(2);
			assertThat(lockedKeys()).isEmpty();
		});
	}

	@Test
	void holdsBothLocksOnNestedCallsWithAnotherKey() {
		classProxies().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThat(orders.nestedOtherKey("h")).containsExactlyInAnyOrder("order:h", "stock:h");
			assertThat(lockedKeys()).isEmpty();
		});
	}

	@Test
	void letsTheMethodReadTheFencingTokenOfItsLock() {
		classProxies().run((context) -> {
			Stock stock = context.getBean(Stock.class);
			long first = stock.fencingToken("sku-1");
			assertThat(first).isPositive();
			assertThat(stock.fencingToken("sku-1")).isGreaterThan(first);
		});
	}

	@Test
	void exposesTheLockOfTheRunningMethod() {
		classProxies().run((context) -> {
			Stock stock = context.getBean(Stock.class);
			assertThat(stock.currentLock("sku-2")).isEqualTo("stock:sku-2 held 1");
			assertThatIllegalStateException().isThrownBy(CurrentLock::get).withMessageContaining("@DistributedLock");
		});
	}

	@Test
	void failsWithoutRunningTheMethodWhenTheLockIsHeldElsewhere() throws Exception {
		LockHandle elsewhere = otherInstance().obtain("order:7");
		assertThat(elsewhere.tryLock(Duration.ZERO)).isTrue();
		classProxies().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> orders.byName("7"))
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("order:7"))
				.satisfies((ex) -> assertThat(ex.getWaitTime()).isEqualTo(Duration.ZERO));
			assertThat(orders.callCount()).isEqualTo(0);
		});
		elsewhere.unlock();
	}

	@Test
	void waitsForTheLockUpToAPlaceholderWaitTime() throws Exception {
		CountDownLatch held = new CountDownLatch(1);
		LockHandle elsewhere = otherInstance().obtain("order:8");
		Thread holder = new Thread(() -> {
			elsewhere.lock();
			held.countDown();
			sleep(Duration.ofMillis(300));
			elsewhere.unlock();
		});
		holder.start();
		assertThat(held.await(5, TimeUnit.SECONDS)).isTrue();
		classProxies().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThat(orders.patient("8")).containsExactly("order:8");
			assertThat(orders.callCount()).isEqualTo(1);
		});
		holder.join();
	}

	@Test
	void usesTheDefaultWaitTimeProperty() throws Exception {
		LockHandle elsewhere = otherInstance().obtain("order:9");
		assertThat(elsewhere.tryLock(Duration.ZERO)).isTrue();
		classProxies().withPropertyValues("distlock.wait-time=250ms").run((context) -> {
			Orders orders = context.getBean(Orders.class);
			long started = System.nanoTime();
			assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> orders.byName("9"))
				.satisfies((ex) -> assertThat(ex.getWaitTime()).isEqualTo(Duration.ofMillis(250)));
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
		});
		elsewhere.unlock();
	}

	@Test
	void restoresTheInterruptFlagWhenInterruptedWhileWaiting() throws Exception {
		LockHandle elsewhere = otherInstance().obtain("order:10");
		assertThat(elsewhere.tryLock(Duration.ZERO)).isTrue();
		classProxies().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			Thread.currentThread().interrupt();
			try {
				assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> orders.patient("10"))
					.withCauseInstanceOf(InterruptedException.class);
			}
			finally {
				assertThat(Thread.interrupted()).isTrue();
			}
			assertThat(orders.callCount()).isEqualTo(0);
		});
		elsewhere.unlock();
	}

	@Test
	void callsTheFallbackWithTheExceptionWhenTheLockIsHeldElsewhere() throws Exception {
		LockHandle elsewhere = otherInstance().obtain("order:11");
		assertThat(elsewhere.tryLock(Duration.ZERO)).isTrue();
		classProxies().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThat(orders.withFallback("11")).isEqualTo("busy 11 order:11");
			assertThat(orders.callCount()).isEqualTo(0);
		});
		elsewhere.unlock();
	}

	@Test
	void callsAFallbackWithTheSameParameters() throws Exception {
		LockHandle elsewhere = otherInstance().obtain("order:12");
		assertThat(elsewhere.tryLock(Duration.ZERO)).isTrue();
		classProxies().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThat(orders.withPlainFallback("12")).isEqualTo("busy 12");
			assertThat(orders.callCount()).isEqualTo(0);
		});
		elsewhere.unlock();
	}

	@Test
	void doesNotCallTheFallbackWhenTheLockIsFree() {
		classProxies().run((context) -> assertThat(context.getBean(Orders.class).withFallback("13")).isEqualTo("13"));
	}

	@Test
	void fixedLeaseTimeSetsTheLeaseInRedis() {
		classProxies().run((context) -> assertThat(context.getBean(Orders.class).fixedLeaseMillis("14"))
			.isBetween(15_000L, 20_000L));
	}

	@Test
	void reportsALeaseThatEndedWhileTheMethodRan() {
		classProxies().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThatExceptionOfType(LockLostAfterCompletionException.class)
				.isThrownBy(() -> orders.outlivesItsLease("16"))
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("order:16"))
				.satisfies((ex) -> assertThat(ex.getResult()).isEqualTo("16"))
				.satisfies((ex) -> assertThat(ex.isTransactionCommitted()).isFalse());
			assertThat(orders.callCount()).isEqualTo(1);
		});
	}

	@Test
	void withoutLeaseTimeTheWatchdogLeaseApplies() {
		classProxies().withPropertyValues("distlock.watchdog-lease=12s")
			.run((context) -> assertThat(context.getBean(Orders.class).watchdogLeaseMillis("15")).isBetween(8_000L,
					12_000L));
	}

	@Test
	void locksThroughAJdkProxyWhenTheInterfaceIsAnnotated() {
		interfaceProxies().run((context) -> {
			Greeter greeter = context.getBean(Greeter.class);
			assertThat(AopUtils.isJdkDynamicProxy(greeter)).isTrue();
			assertThat(greeter.annotatedOnInterface("ann")).containsExactly("greet:ann");
			assertThat(lockedKeys()).isEmpty();
		});
	}

	@Test
	void locksThroughAJdkProxyWhenTheImplementationIsAnnotated() {
		interfaceProxies().run((context) -> {
			Greeter greeter = context.getBean(Greeter.class);
			assertThat(greeter.annotatedOnImplementation("bob")).containsExactly("impl:bob");
			assertThat(lockedKeys()).isEmpty();
		});
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("invalidDeclarations")
	void failsAtStartupOnAnInvalidDeclaration(Class<?> beanClass, String expectedMessage) {
		contextRunner().withUserConfiguration(AutoProxyConfiguration.class).withBean(beanClass).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(declarationFailure(context.getStartupFailure()))
				.hasMessageContaining(beanClass.getSimpleName() + ".run")
				.hasMessageContaining(expectedMessage);
		});
	}

	static Stream<Arguments> invalidDeclarations() {
		return Stream.of(Arguments.of(UnparsableWaitTime.class, "waitTime = \"soon\""),
				Arguments.of(NegativeWaitTime.class, "must not be negative"),
				Arguments.of(ZeroLeaseTime.class, "leaseTime = \"0\""),
				Arguments.of(UnresolvablePlaceholder.class, "leaseTime = \"${no.such.lease}\""),
				Arguments.of(UnparsableKey.class, "is not a valid SpEL expression"),
				Arguments.of(BlankKey.class, "must not be blank"),
				Arguments.of(MissingFallback.class, "no instance method nope"),
				Arguments.of(FallbackWithOtherReturnType.class, "no instance method fallback"),
				Arguments.of(PrivateMethod.class, "the method is private"),
				Arguments.of(StaticMethod.class, "the method is static"),
				Arguments.of(FinalMethod.class, "the method is final"));
	}

	@Test
	void failsAtStartupOnAFinalImplementationOfAnInterfaceMethodOfAClassProxy() {
		contextRunner().withUserConfiguration(ClassAutoProxyConfiguration.class)
			.withBean(DefaultGreeter.class, () -> new DefaultGreeter(new LockProbe(this.prefix)))
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(declarationFailure(context.getStartupFailure()))
					.hasMessageContaining("DefaultGreeter.finalImplementation(java.lang.String)")
					.hasMessageContaining("bean 'distributedLockAdviceTests.DefaultGreeter'")
					.hasMessageContaining("class-based (CGLIB) proxy, which cannot override final methods");
			});
	}

	@Test
	void failsAtStartupOnAnInheritedFinalMethodOfAClassProxy() {
		contextRunner().withUserConfiguration(AutoProxyConfiguration.class)
			.withBean(InheritsAFinalMethod.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(declarationFailure(context.getStartupFailure()))
					.hasMessageContaining("DeclaresAFinalMethod.run()")
					.hasMessageContaining("InheritsAFinalMethod")
					.hasMessageContaining("the method is final");
			});
	}

	@Test
	void locksAFinalImplementationOfAnInterfaceMethodThroughAJdkProxy() {
		interfaceProxies().run((context) -> {
			Greeter greeter = context.getBean(Greeter.class);
			assertThat(AopUtils.isJdkDynamicProxy(greeter)).isTrue();
			assertThat(greeter.finalImplementation("fin")).containsExactly("final:fin");
			assertThat(lockedKeys()).isEmpty();
		});
	}

	@Test
	void locksProtectedAndPackagePrivateMethodsOfAClassProxy() {
		classProxies().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThat(AopUtils.isCglibProxy(orders)).isTrue();
			assertThat(orders.protectedMethod("p")).containsExactly("protected:p");
			assertThat(orders.packagePrivateMethod("q")).containsExactly("package:q");
			assertThat(lockedKeys()).isEmpty();
		});
	}

	private static IllegalStateException declarationFailure(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof IllegalStateException ex && ex.getMessage().contains("@DistributedLock")) {
				return ex;
			}
		}
		throw new AssertionError("No @DistributedLock declaration failure in the causes of " + failure, failure);
	}

	static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAspectJAutoProxy
	static class AutoProxyConfiguration {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAspectJAutoProxy(proxyTargetClass = true)
	static class ClassAutoProxyConfiguration {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAspectJAutoProxy(proxyTargetClass = true)
	static class ClassProxyConfiguration {

		@Bean
		Orders orders(LockProbe probe, Stock stock) {
			return new Orders(probe, stock);
		}

		@Bean
		Stock stock(LockProbe probe, LockClient lockClient) {
			return new Stock(probe, lockClient);
		}

		@Bean
		KeyNames lockKeys() {
			return new KeyNames();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAspectJAutoProxy(proxyTargetClass = false)
	static class InterfaceProxyConfiguration {

		@Bean
		Greeter greeter(LockProbe probe) {
			return new DefaultGreeter(probe);
		}

	}

	/**
	 * Reports the lock keys present in Redis while a method runs.
	 */
	static class LockProbe {

		private final String prefix;

		LockProbe(String prefix) {
			this.prefix = prefix;
		}

		Set<String> lockedKeys() {
			return RedisAdviceTestSupport.lockedKeys(this.prefix);
		}

		long leaseMillis(String key) {
			Long ttl = redis.getExpire(redisKey(this.prefix, key), TimeUnit.MILLISECONDS);
			return (ttl != null) ? ttl : -3;
		}

	}

	static class KeyNames {

		public String order(String id) {
			return "ref:" + id;
		}

	}

	static class Orders {

		private final AtomicInteger calls = new AtomicInteger();

		private final LockProbe probe;

		private final Stock stock;

		private String region = "eu";

		public int callCount() {
			return this.calls.get();
		}

		Orders(LockProbe probe, Stock stock) {
			this.probe = probe;
			this.stock = stock;
		}

		public String getRegion() {
			return this.region;
		}

		public Set<String> unlocked() {
			return this.probe.lockedKeys();
		}

		@DistributedLock(key = "'order:' + #orderId")
		public Set<String> byName(String orderId) {
			this.calls.incrementAndGet();
			return this.probe.lockedKeys();
		}

		public Set<String> callsByNameOnItself(String orderId) {
			return byName(orderId);
		}

		@DistributedLock(key = "'order:' + #p0")
		public Set<String> byP0(String orderId) {
			return this.probe.lockedKeys();
		}

		@DistributedLock(key = "'order:' + #a1")
		public Set<String> byA1(String region, long orderId) {
			return this.probe.lockedKeys();
		}

		@DistributedLock(key = "#root.methodName + ':' + #root.args[0]")
		public Set<String> byRootArgs(String orderId) {
			return this.probe.lockedKeys();
		}

		@DistributedLock(key = "#root.targetClass.simpleName + ':' + #root.method.name")
		public Set<String> byRootMethod() {
			return this.probe.lockedKeys();
		}

		@DistributedLock(key = "#root.target.region + ':' + #p0")
		public Set<String> byRootTarget(String orderId) {
			return this.probe.lockedKeys();
		}

		@DistributedLock(key = "@lockKeys.order(#p0)")
		public Set<String> byBean(String orderId) {
			return this.probe.lockedKeys();
		}

		@DistributedLock(key = "#p0")
		public Set<String> byRawKey(@Nullable Object key) {
			this.calls.incrementAndGet();
			return this.probe.lockedKeys();
		}

		@DistributedLock(key = "#p0.noSuchProperty")
		public Set<String> byMissingProperty(String orderId) {
			this.calls.incrementAndGet();
			return this.probe.lockedKeys();
		}

		@DistributedLock(key = "#root.target.region + ':region'")
		public Set<String> changesRegion(String newRegion) {
			this.region = newRegion;
			return this.probe.lockedKeys();
		}

		@DistributedLock(key = "'order:' + #p0")
		public int primitive(String orderId) {
			return 7;
		}

		@DistributedLock(key = "'order:' + #p0")
		public void failsUnchecked(String orderId) {
			this.calls.incrementAndGet();
			throw new IllegalStateException("boom");
		}

		@DistributedLock(key = "'order:' + #p0")
		public void failsChecked(String orderId) throws IOException {
			throw new IOException("io");
		}

		@DistributedLock(key = "'order:' + #p0")
		public int nestedSameKey(String orderId) {
			return this.stock.holdCountOfOrder(orderId);
		}

		@DistributedLock(key = "'order:' + #p0")
		public Set<String> nestedOtherKey(String orderId) {
			return this.stock.reserve(orderId);
		}

		@DistributedLock(key = "'order:' + #p0", waitTime = "${orders.wait}")
		public Set<String> patient(String orderId) {
			this.calls.incrementAndGet();
			return this.probe.lockedKeys();
		}

		@DistributedLock(key = "'order:' + #p0", fallbackMethod = "busyWithCause")
		public String withFallback(String orderId) {
			this.calls.incrementAndGet();
			return orderId;
		}

		public String busyWithCause(String orderId, LockAcquisitionException ex) {
			return "busy " + orderId + " " + ex.getKey();
		}

		@DistributedLock(key = "'order:' + #p0", fallbackMethod = "busy")
		public String withPlainFallback(String orderId) {
			this.calls.incrementAndGet();
			return orderId;
		}

		String busy(String orderId) {
			return "busy " + orderId;
		}

		@DistributedLock(key = "'order:' + #p0", leaseTime = "20s")
		public long fixedLeaseMillis(String orderId) {
			return this.probe.leaseMillis("order:" + orderId);
		}

		@DistributedLock(key = "'order:' + #p0", leaseTime = "100ms")
		public String outlivesItsLease(String orderId) {
			this.calls.incrementAndGet();
			sleep(Duration.ofMillis(400));
			return orderId;
		}

		@DistributedLock(key = "'order:' + #p0")
		public long watchdogLeaseMillis(String orderId) {
			return this.probe.leaseMillis("order:" + orderId);
		}

		@DistributedLock(key = "'protected:' + #p0")
		protected Set<String> protectedMethod(String orderId) {
			return this.probe.lockedKeys();
		}

		@DistributedLock(key = "'package:' + #p0")
		Set<String> packagePrivateMethod(String orderId) {
			return this.probe.lockedKeys();
		}

	}

	static class Stock {

		private final LockProbe probe;

		private final LockClient lockClient;

		Stock(LockProbe probe, LockClient lockClient) {
			this.probe = probe;
			this.lockClient = lockClient;
		}

		@DistributedLock(key = "'order:' + #p0")
		public int holdCountOfOrder(String orderId) {
			return this.lockClient.obtain("order:" + orderId).getHoldCount();
		}

		@DistributedLock(key = "'stock:' + #p0")
		public Set<String> reserve(String orderId) {
			return this.probe.lockedKeys();
		}

		@DistributedLock(key = "'stock:' + #p0")
		public long fencingToken(String sku) {
			return this.lockClient.obtain("stock:" + sku).fencingToken();
		}

		@DistributedLock(key = "'stock:' + #p0")
		public String currentLock(String sku) {
			LockHandle lock = CurrentLock.get();
			assertThat(lock.fencingToken()).isPositive();
			return lock.key() + " held " + lock.getHoldCount();
		}

	}

	interface Greeter {

		@DistributedLock(key = "'greet:' + #p0")
		Set<String> annotatedOnInterface(String name);

		Set<String> annotatedOnImplementation(String name);

		Set<String> finalImplementation(String name);

	}

	static class DefaultGreeter implements Greeter {

		private final LockProbe probe;

		DefaultGreeter(LockProbe probe) {
			this.probe = probe;
		}

		@Override
		public Set<String> annotatedOnInterface(String name) {
			return this.probe.lockedKeys();
		}

		@Override
		@DistributedLock(key = "'impl:' + #name")
		public Set<String> annotatedOnImplementation(String name) {
			return this.probe.lockedKeys();
		}

		@Override
		@DistributedLock(key = "'final:' + #name")
		public final Set<String> finalImplementation(String name) {
			return this.probe.lockedKeys();
		}

	}

	static class UnparsableWaitTime {

		@DistributedLock(key = "'k'", waitTime = "soon")
		public void run() {
		}

	}

	static class NegativeWaitTime {

		@DistributedLock(key = "'k'", waitTime = "-1s")
		public void run() {
		}

	}

	static class ZeroLeaseTime {

		@DistributedLock(key = "'k'", leaseTime = "0")
		public void run() {
		}

	}

	static class UnresolvablePlaceholder {

		@DistributedLock(key = "'k'", leaseTime = "${no.such.lease}")
		public void run() {
		}

	}

	static class UnparsableKey {

		@DistributedLock(key = "'k")
		public void run() {
		}

	}

	static class BlankKey {

		@DistributedLock(key = " ")
		public void run() {
		}

	}

	static class MissingFallback {

		@DistributedLock(key = "'k'", fallbackMethod = "nope")
		public void run() {
		}

	}

	static class FallbackWithOtherReturnType {

		@DistributedLock(key = "'k'", fallbackMethod = "fallback")
		public String run() {
			return "ran";
		}

		public Integer fallback() {
			return 1;
		}

	}

	static class PrivateMethod {

		public void call() {
			run();
		}

		@DistributedLock(key = "'k'")
		private void run() {
		}

	}

	static class StaticMethod {

		@DistributedLock(key = "'k'")
		public static void run() {
		}

	}

	static class FinalMethod {

		@DistributedLock(key = "'k'")
		public final void run() {
		}

	}

	static class DeclaresAFinalMethod {

		@DistributedLock(key = "'k'")
		public final void run() {
		}

	}

	static class InheritsAFinalMethod extends DeclaresAFinalMethod {

	}

}
