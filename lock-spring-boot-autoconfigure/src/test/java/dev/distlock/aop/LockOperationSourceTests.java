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
import java.lang.reflect.Method;
import java.time.Duration;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.LockMode;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link LockOperationSource}: how annotation attributes become a validated
 * lock operation. No Redis involved.
 *
 * @author distlock
 */
class LockOperationSourceTests {

	private final DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();

	private final LockOperationSource source;

	LockOperationSourceTests() {
		this.beanFactory.addEmbeddedValueResolver((value) -> value.replace("${lock.wait}", "750ms"));
		this.source = new LockOperationSource(Duration.ofMillis(42), this.beanFactory,
				new LockKeyEvaluator(this.beanFactory));
	}

	@ParameterizedTest(name = "waitTime \"{0}\" is {1}")
	@CsvSource({ "emptyWait, PT0.042S", "zeroWait, PT0S", "millisWait, PT0.5S", "secondsWait, PT2S", "isoWait, PT2S",
			"plainNumberWait, PT1.5S", "placeholderWait, PT0.75S" })
	void parsesWaitTimes(String methodName, Duration expected) {
		assertThat(operation(methodName).waitTime()).isEqualTo(expected);
	}

	@Test
	void emptyLeaseTimeMeansTheWatchdogLease() {
		assertThat(operation("emptyWait").leaseTime()).isNull();
	}

	@Test
	void parsesAFixedLeaseTime() {
		assertThat(operation("fixedLease").leaseTime()).isEqualTo(Duration.ofSeconds(10));
	}

	@Test
	void takesTheWriteLockUnlessTheModeSaysRead() {
		assertThat(operation("emptyWait").mode()).isEqualTo(LockMode.WRITE);
		assertThat(operation("readMode").mode()).isEqualTo(LockMode.READ);
	}

	@Test
	void takesAFairLockWhenAsked() {
		assertThat(operation("emptyWait").fair()).isFalse();
		assertThat(operation("fairMode").fair()).isTrue();
	}

	@Test
	void rejectsAFairReadLock() {
		assertThatIllegalStateException()
			.isThrownBy(() -> this.source.getOperation(method(FairRead.class, "read"), FairRead.class))
			.withMessageContaining("fair = \"true\"")
			.withMessageContaining("FairRead.read()")
			.withMessageContaining("read locks have no fair mode");
	}

	@Test
	void findsTheAnnotationOnTheInterfaceForTheImplementation() {
		LockOperation operation = this.source.getOperation(method(Api.class, "call", String.class), ApiImpl.class);
		assertThat(operation).isNotNull();
		assertThat(operation.keyExpression()).isEqualTo("'api:' + #p0");
		assertThat(operation.method().getDeclaringClass()).isEqualTo(ApiImpl.class);
	}

	@Test
	void ignoresMethodsWithoutTheAnnotation() {
		assertThat(this.source.getOperation(method(Locked.class, "notLocked"), Locked.class)).isNull();
	}

	@Test
	void reportsWhetherAClassHasLockedMethods() {
		assertThat(this.source.hasLockedMethods(Locked.class)).isTrue();
		assertThat(this.source.hasLockedMethods(ApiImpl.class)).isTrue();
		assertThat(this.source.hasLockedMethods(String.class)).isFalse();
	}

	@Test
	void validatesEveryMethodOfAClassWhenItIsFirstInspected() {
		assertThatIllegalStateException().isThrownBy(() -> this.source.hasLockedMethods(OneBadMethod.class))
			.withMessageContaining("OneBadMethod.bad()")
			.withMessageContaining("waitTime = \"2 seconds\"");
	}

	@Test
	void acceptsAFallbackWhoseExtraParameterIsASupertypeOfTheException() {
		assertThat(operation("fallbackWithRuntimeException").fallback()).hasToString(
				ReflectionUtils.findMethod(Locked.class, "fallback", String.class, RuntimeException.class).toString());
	}

	@Test
	void rejectsAFallbackWhoseExtraParameterCannotTakeTheException() {
		assertThatIllegalStateException()
			.isThrownBy(() -> this.source.getOperation(method(WrongFallbackParameter.class, "run", String.class),
					WrongFallbackParameter.class))
			.withMessageContaining("fallbackMethod = \"fallback\"")
			.withMessageContaining("WrongFallbackParameter.run(java.lang.String)");
	}

	@Test
	void rejectsAPrivateMethodThatNoProxyCanIntercept() {
		assertThatIllegalStateException()
			.isThrownBy(() -> this.source.getOperation(method(Unreachable.class, "privateMethod"), Unreachable.class))
			.withMessageContaining("Unreachable.privateMethod()")
			.withMessageContaining("the method is private");
	}

	@Test
	void rejectsAStaticMethodThatNoProxyCanIntercept() {
		assertThatIllegalStateException()
			.isThrownBy(() -> this.source.getOperation(method(Unreachable.class, "staticMethod"), Unreachable.class))
			.withMessageContaining("Unreachable.staticMethod()")
			.withMessageContaining("the method is static");
	}

	@Test
	void leavesFinalMethodsToTheCheckOfTheProxy() {
		assertThat(this.source.getOperation(method(Unreachable.class, "finalMethod"), Unreachable.class)).isNotNull();
	}

	private LockOperation operation(String methodName) {
		LockOperation operation = this.source.getOperation(method(Locked.class, methodName, String.class),
				Locked.class);
		assertThat(operation).isNotNull();
		return operation;
	}

	private static Method method(Class<?> type, String name, Class<?>... parameterTypes) {
		Method method = ReflectionUtils.findMethod(type, name, parameterTypes);
		assertThat(method).isNotNull();
		return method;
	}

	static class Locked {

		@DistributedLock(key = "#p0")
		public void emptyWait(String key) {
		}

		@DistributedLock(key = "#p0", waitTime = "0")
		public void zeroWait(String key) {
		}

		@DistributedLock(key = "#p0", waitTime = "500ms")
		public void millisWait(String key) {
		}

		@DistributedLock(key = "#p0", waitTime = "2s")
		public void secondsWait(String key) {
		}

		@DistributedLock(key = "#p0", waitTime = "PT2S")
		public void isoWait(String key) {
		}

		@DistributedLock(key = "#p0", waitTime = "1500")
		public void plainNumberWait(String key) {
		}

		@DistributedLock(key = "#p0", waitTime = "${lock.wait}")
		public void placeholderWait(String key) {
		}

		@DistributedLock(key = "#p0", leaseTime = "10s")
		public void fixedLease(String key) {
		}

		@DistributedLock(key = "#p0", mode = LockMode.READ)
		public void readMode(String key) {
		}

		@DistributedLock(key = "#p0", fair = true)
		public void fairMode(String key) {
		}

		@DistributedLock(key = "#p0", fallbackMethod = "fallback")
		public void fallbackWithRuntimeException(String key) {
		}

		void fallback(String key, RuntimeException ex) {
		}

		public void notLocked() {
		}

	}

	static class WrongFallbackParameter {

		@DistributedLock(key = "#p0", fallbackMethod = "fallback")
		public void run(String key) {
		}

		void fallback(String key, IOException ex) {
		}

	}

	static class FairRead {

		@DistributedLock(key = "'k'", mode = LockMode.READ, fair = true)
		public void read() {
		}

	}

	static class Unreachable {

		@DistributedLock(key = "'k'")
		private void privateMethod() {
		}

		@DistributedLock(key = "'k'")
		static void staticMethod() {
		}

		@DistributedLock(key = "'k'")
		public final void finalMethod() {
		}

	}

	static class OneBadMethod {

		@DistributedLock(key = "'good'")
		public void good() {
		}

		@DistributedLock(key = "'bad'", waitTime = "2 seconds")
		public void bad() {
		}

	}

	interface Api {

		@DistributedLock(key = "'api:' + #p0")
		@Nullable String call(String id);

	}

	static class ApiImpl implements Api {

		@Override
		public @Nullable String call(String id) {
			return null;
		}

	}

}
