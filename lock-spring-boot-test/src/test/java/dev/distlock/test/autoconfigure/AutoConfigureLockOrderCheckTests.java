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

package dev.distlock.test.autoconfigure;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.test.LockOrderChecker;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Order;
import org.assertj.core.api.Condition;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.allOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.EventConditions.uniqueIdSubstring;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;

/**
 * Tests for {@link AutoConfigureLockOrderCheck} and
 * {@code distlock.test.lock-order-check}: fixture test classes, run one after the other
 * by the JUnit Platform's test kit, take two locked methods' locks nested in one order or
 * the other. Each scenario names its locks apart ({@code lock-order.prefix}), as the
 * checker of a test run is shared.
 *
 * @author distlock
 */
class AutoConfigureLockOrderCheckTests {

	@Test
	void aTestTakingLocksInTheOrderAnotherTestInvertedFailsWithBothCallPaths() {
		EngineExecutionResults results = run(InvertedFirst.class, InvertedSecond.class);
		results.testEvents().assertStatistics((stats) -> stats.started(2).succeeded(1).failed(1));
		assertThat(failure(results)).startsWith("Lock order inversion: 'inverted.B' -> 'inverted.A' -> 'inverted.B'")
			.contains("This test: 'inverted.A' taken while holding 'inverted.B'")
			.contains("Earlier: 'inverted.B' taken while holding 'inverted.A'")
			.contains("InvertedFirst.takesAThenB(AutoConfigureLockOrderCheckTests.java:")
			.contains("InvertedSecond.takesBThenA(AutoConfigureLockOrderCheckTests.java:");
		results.testEvents().assertThatEvents().haveExactly(1, failedWith(InvertedSecond.class, "takesBThenA"));
	}

	@Test
	void testsTakingLocksInTheSameOrderPass() {
		run(SameOrderFirst.class, SameOrderSecond.class).testEvents()
			.assertStatistics((stats) -> stats.started(2).succeeded(2).failed(0));
	}

	@Test
	void thePropertyAloneEnablesTheCheck() {
		EngineExecutionResults results = run(PropertyFirst.class, PropertySecond.class);
		results.testEvents().assertStatistics((stats) -> stats.started(2).succeeded(1).failed(1));
		assertThat(failure(results)).startsWith("Lock order inversion: 'property.B' -> 'property.A' -> 'property.B'");
	}

	@Test
	void withoutTheAnnotationOrThePropertyNothingIsChecked() {
		run(UncheckedFirst.class, UncheckedSecond.class).testEvents()
			.assertStatistics((stats) -> stats.started(2).succeeded(2).failed(0));
		assertThat(LockOrderChecker.shared().inversions()).noneMatch((inversion) -> inversion.contains("unchecked."));
	}

	private static EngineExecutionResults run(Class<?>... fixtures) {
		return EngineTestKit.engine("junit-jupiter")
			.configurationParameter("junit.jupiter.testclass.order.default",
					ClassOrderer.OrderAnnotation.class.getName())
			.selectors(selectClass(fixtures[0]), selectClass(fixtures[1]))
			.execute();
	}

	private static String failure(EngineExecutionResults results) {
		return results.testEvents()
			.failed()
			.stream()
			.map((event) -> event.getPayload(TestExecutionResult.class)
				.flatMap(TestExecutionResult::getThrowable)
				.map(Throwable::getMessage)
				.orElse(""))
			.findFirst()
			.orElseThrow();
	}

	private static Condition<Event> failedWith(Class<?> fixture, String name) {
		return allOf(test(name), uniqueIdSubstring(fixture.getSimpleName()),
				finishedWithFailure(instanceOf(AssertionError.class)));
	}

	/**
	 * The fixtures' application: one bean with two locked methods.
	 */
	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class FixtureApplication {

		@Bean
		Nested nested() {
			return new Nested();
		}

	}

	/**
	 * Two locked methods that run what they are given under their lock.
	 */
	public static class Nested {

		@DistributedLock(name = "${lock-order.prefix}.A", key = "'a'")
		public void underA(Runnable body) {
			body.run();
		}

		@DistributedLock(name = "${lock-order.prefix}.B", key = "'b'")
		public void underB(Runnable body) {
			body.run();
		}

	}

	abstract static class Fixture {

		@Autowired
		Nested nested;

		@Autowired
		ApplicationContext context;

		void aThenB() {
			this.nested.underA(() -> this.nested.underB(() -> {
			}));
		}

		void bThenA() {
			this.nested.underB(() -> this.nested.underA(() -> {
			}));
		}

	}

	@SpringBootTest(classes = FixtureApplication.class,
			properties = { "spring.data.redis.port=1", "lock-order.prefix=inverted" })
	@AutoConfigureInMemoryLocks
	@AutoConfigureLockOrderCheck
	@Order(1)
	static class InvertedFirst extends Fixture {

		@Test
		void takesAThenB() {
			aThenB();
		}

	}

	@SpringBootTest(classes = FixtureApplication.class,
			properties = { "spring.data.redis.port=1", "lock-order.prefix=inverted" })
	@AutoConfigureInMemoryLocks
	@AutoConfigureLockOrderCheck
	@Order(2)
	static class InvertedSecond extends Fixture {

		@Test
		void takesBThenA() {
			bThenA();
		}

	}

	@SpringBootTest(classes = FixtureApplication.class,
			properties = { "spring.data.redis.port=1", "lock-order.prefix=same" })
	@AutoConfigureInMemoryLocks
	@AutoConfigureLockOrderCheck
	@Order(1)
	static class SameOrderFirst extends Fixture {

		@Test
		void takesAThenB() {
			aThenB();
		}

	}

	@SpringBootTest(classes = FixtureApplication.class,
			properties = { "spring.data.redis.port=1", "lock-order.prefix=same" })
	@AutoConfigureInMemoryLocks
	@AutoConfigureLockOrderCheck
	@Order(2)
	static class SameOrderSecond extends Fixture {

		@Test
		void takesAThenBAndEachAlone() {
			aThenB();
			this.nested.underB(() -> {
			});
			this.nested.underA(() -> {
			});
		}

	}

	@SpringBootTest(classes = FixtureApplication.class,
			properties = { "spring.data.redis.port=1", "lock-order.prefix=property",
					"distlock.test.lock-order-check=true" })
	@AutoConfigureInMemoryLocks
	@Order(1)
	static class PropertyFirst extends Fixture {

		@Test
		void takesAThenB() {
			assertThat(this.context.getBean(LockOrderChecker.class)).isSameAs(LockOrderChecker.shared());
			aThenB();
		}

	}

	@SpringBootTest(classes = FixtureApplication.class,
			properties = { "spring.data.redis.port=1", "lock-order.prefix=property",
					"distlock.test.lock-order-check=true" })
	@AutoConfigureInMemoryLocks
	@Order(2)
	static class PropertySecond extends Fixture {

		@Test
		void takesBThenA() {
			bThenA();
		}

	}

	@SpringBootTest(classes = FixtureApplication.class,
			properties = { "spring.data.redis.port=1", "lock-order.prefix=unchecked" })
	@AutoConfigureInMemoryLocks
	@Order(1)
	static class UncheckedFirst extends Fixture {

		@Test
		void takesAThenB() {
			assertThat(this.context.getBeanNamesForType(LockOrderChecker.class)).isEmpty();
			aThenB();
		}

	}

	@SpringBootTest(classes = FixtureApplication.class,
			properties = { "spring.data.redis.port=1", "lock-order.prefix=unchecked" })
	@AutoConfigureInMemoryLocks
	@Order(2)
	static class UncheckedSecond extends Fixture {

		@Test
		void takesBThenA() {
			bThenA();
		}

	}

}
