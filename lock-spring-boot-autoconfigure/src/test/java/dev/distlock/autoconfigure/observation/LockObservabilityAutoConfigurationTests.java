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
package dev.distlock.autoconfigure.observation;

import dev.distlock.autoconfigure.LockAspectAutoConfiguration;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import dev.distlock.autoconfigure.LockHealthAutoConfiguration;
import dev.distlock.autoconfigure.endpoint.DistlockEndpoint;
import dev.distlock.autoconfigure.endpoint.LockEndpointAutoConfiguration;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.distlock.LockAcquisitionException;
import dev.distlock.LockLostException;
import dev.distlock.annotation.DistributedLock;
import dev.distlock.autoconfigure.endpoint.DistlockEndpoint.ForcedReleaseDescriptor;
import dev.distlock.autoconfigure.endpoint.DistlockEndpoint.HeldLocksDescriptor;
import dev.distlock.autoconfigure.endpoint.DistlockEndpoint.LockStateDescriptor;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockHold;
import dev.distlock.memory.ControllableInMemoryLockStore;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The optional observability of distlock: meters, the {@code distlock.lock} observation,
 * the {@code distlock} endpoint and health contributor, each present only with its
 * library and bean. On the in-memory lock store; the same suite runs on Spring Boot 3.5
 * and 4.1.
 *
 * @author distlock
 */
class LockObservabilityAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class,
				LockMetricsAutoConfiguration.class, LockObservationAutoConfiguration.class,
				LockEndpointAutoConfiguration.class, LockHealthAutoConfiguration.class))
		.withUserConfiguration(StoreConfiguration.class);

	@Test
	void recordsAcquireAndHeldMetersOfAnAnnotatedMethodUnderSimpleClassNameAndMethodName() {
		this.contextRunner.withUserConfiguration(MetricsConfiguration.class, LockedServiceConfiguration.class)
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				LockedService service = context.getBean(LockedService.class);
				service.work("a");
				assertThat(registry.get("distlock.acquire")
					.tags("name", "LockedService.work", "outcome", "acquired")
					.timer()
					.count()).isOne();
				assertThat(
						registry.get("distlock.held").tag("name", "LockedService.work").longTaskTimer().activeTasks())
					.isZero();
				service.whileHeld("b",
						() -> assertThat(registry.get("distlock.held")
							.tag("name", "LockedService.whileHeld")
							.longTaskTimer()
							.activeTasks()).isOne());
				assertThat(registry.get("distlock.held")
					.tag("name", "LockedService.whileHeld")
					.longTaskTimer()
					.activeTasks()).isZero();
			});
	}

	@Test
	void namesMetersAfterTheAnnotationsNameAttribute() {
		this.contextRunner.withUserConfiguration(MetricsConfiguration.class, LockedServiceConfiguration.class)
			.run((context) -> {
				context.getBean(LockedService.class).named("x");
				assertThat(context.getBean(MeterRegistry.class)
					.get("distlock.acquire")
					.tags("name", "reports.nightly", "outcome", "acquired")
					.timer()
					.count()).isOne();
			});
	}

	@Test
	void resolvesPlaceholdersInTheNameAttribute() {
		this.contextRunner.withUserConfiguration(MetricsConfiguration.class, LockedServiceConfiguration.class)
			.withPropertyValues("jobs.lock-name=jobs.cleanup")
			.run((context) -> {
				context.getBean(LockedService.class).placeholder("y");
				assertThat(context.getBean(MeterRegistry.class)
					.get("distlock.acquire")
					.tags("name", "jobs.cleanup", "outcome", "acquired")
					.timer()
					.count()).isOne();
			});
	}

	@Test
	void countsBusyAcquisitionsAndLostLocks() {
		this.contextRunner.withUserConfiguration(MetricsConfiguration.class, LockedServiceConfiguration.class)
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				ControllableInMemoryLockStore store = context.getBean(ControllableInMemoryLockStore.class);
				LockedService service = context.getBean(LockedService.class);
				store.takeOver("busy", "another-instance");
				assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> service.work("busy"));
				assertThat(registry.get("distlock.acquire").tags("outcome", "busy").timer().count()).isOne();
				assertThatExceptionOfType(LockLostException.class)
					.isThrownBy(() -> service.whileHeld("lost", () -> store.takeOver("lost", "another-instance")));
				assertThat(registry.get("distlock.lost")
					.tags("name", "LockedService.whileHeld", "reason", "taken")
					.counter()
					.count()).isOne();
			});
	}

	@Test
	void thousandKeysThroughOneMethodMakeOneAcquireTimerPerOutcome() {
		this.contextRunner.withUserConfiguration(MetricsConfiguration.class, LockedServiceConfiguration.class)
			.run((context) -> {
				LockedService service = context.getBean(LockedService.class);
				ControllableInMemoryLockStore store = context.getBean(ControllableInMemoryLockStore.class);
				for (int i = 0; i < 1000; i++) {
					service.work("key-" + i);
				}
				store.takeOver("key-busy", "another-instance");
				for (int i = 0; i < 3; i++) {
					assertThatExceptionOfType(LockAcquisitionException.class)
						.isThrownBy(() -> service.work("key-busy"));
				}
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.find("distlock.acquire").timers()).hasSize(2)
					.allSatisfy((timer) -> assertThat(timer.getId().getTags()).hasSize(2));
				assertThat(registry.get("distlock.acquire").tag("outcome", "acquired").timer().count()).isEqualTo(1000);
				assertThat(registry.get("distlock.acquire").tag("outcome", "busy").timer().count()).isEqualTo(3);
				assertThat(registry.find("distlock.held").longTaskTimers()).hasSize(1);
			});
	}

	@Test
	void timesRenewalBatchesByOutcome() {
		this.contextRunner.withUserConfiguration(MetricsConfiguration.class)
			.withPropertyValues("distlock.watchdog-lease=600ms")
			.run((context) -> {
				LockHold hold = context.getBean(DefaultLockClient.class).acquire("renewing", Duration.ZERO, null);
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				await().atMost(Duration.ofSeconds(5))
					.until(() -> registry.find("distlock.renewal").tag("outcome", "renewed").timer() != null);
				hold.release();
			});
	}

	@Test
	void observesAcquireAndHoldAsDistlockLockWithNameOutcomeAndKeyWhenTheKeyIsIncluded() {
		this.contextRunner.withUserConfiguration(ObservationConfiguration.class, LockedServiceConfiguration.class)
			.withPropertyValues("distlock.observation.include-key=true")
			.run((context) -> {
				context.getBean(LockedService.class).work("order:42");
				TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
				TestObservationRegistryAssert.assertThat(registry)
					.hasObservationWithNameEqualTo("distlock.lock")
					.that()
					.hasContextualNameEqualTo("lock LockedService.work")
					.hasLowCardinalityKeyValue("distlock.name", "LockedService.work")
					.hasLowCardinalityKeyValue("distlock.outcome", "acquired")
					.hasHighCardinalityKeyValue("distlock.key", "order:42")
					.doesNotHaveLowCardinalityKeyValueWithKey("distlock.key")
					.hasBeenStarted()
					.hasBeenStopped();
				assertThat(context.getBean(EventRecorder.class).events).containsExactly("distlock.acquired");
			});
	}

	@Test
	void leavesTheLockKeyOutOfTheObservationByDefault() {
		this.contextRunner.withUserConfiguration(ObservationConfiguration.class, LockedServiceConfiguration.class)
			.run((context) -> {
				context.getBean(LockedService.class).work("order:42");
				TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
					.hasObservationWithNameEqualTo("distlock.lock")
					.that()
					.hasLowCardinalityKeyValue("distlock.name", "LockedService.work")
					.hasHighCardinalityKeyValueWithKey("distlock.fencing-token")
					.doesNotHaveHighCardinalityKeyValueWithKey("distlock.key")
					.doesNotHaveLowCardinalityKeyValueWithKey("distlock.key");
			});
	}

	@Test
	void observesABusyLockWithItsOutcome() {
		this.contextRunner.withUserConfiguration(ObservationConfiguration.class, LockedServiceConfiguration.class)
			.run((context) -> {
				context.getBean(ControllableInMemoryLockStore.class).takeOver("busy", "another-instance");
				assertThatExceptionOfType(LockAcquisitionException.class)
					.isThrownBy(() -> context.getBean(LockedService.class).work("busy"));
				TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
					.hasObservationWithNameEqualTo("distlock.lock")
					.that()
					.hasLowCardinalityKeyValue("distlock.outcome", "busy")
					.hasBeenStopped();
			});
	}

	@Test
	void aLockObservationConventionBeanReplacesTheDefault() {
		this.contextRunner.withUserConfiguration(ObservationConfiguration.class, LockedServiceConfiguration.class)
			.withBean(LockObservationConvention.class, () -> new DefaultLockObservationConvention() {

				@Override
				public KeyValues getLowCardinalityKeyValues(LockObservationContext context) {
					return super.getLowCardinalityKeyValues(context).and("team", "orders");
				}

			})
			.run((context) -> {
				context.getBean(LockedService.class).work("custom");
				TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
					.hasObservationWithNameEqualTo("distlock.lock")
					.that()
					.hasLowCardinalityKeyValue("team", "orders");
			});
	}

	@Test
	void backsOffWithoutAMeterRegistryOrObservationRegistry() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(DefaultLockClient.class)
			.doesNotHaveBean(MicrometerLockClientListener.class)
			.doesNotHaveBean(ObservationLockClientListener.class));
	}

	@Test
	void backsOffWithoutMicrometer() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("io.micrometer")).run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(MicrometerLockClientListener.class)
				.doesNotHaveBean(ObservationLockClientListener.class);
			context.getBean(DefaultLockClient.class).acquire("without-micrometer", Duration.ZERO, null).release();
		});
	}

	@Test
	void backsOffWithoutTheActuator() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate"))
			.withPropertyValues("management.endpoints.web.exposure.include=distlock")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(DistlockEndpoint.class));
	}

	@Test
	void endpointIsNotCreatedUnlessExposed() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(DistlockEndpoint.class));
	}

	@Test
	void endpointListsHeldLocksAndInspectsAKey() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=distlock",
					"distlock.endpoint.show-keys=always")
			.run((context) -> {
				DistlockEndpoint endpoint = context.getBean(DistlockEndpoint.class);
				DefaultLockClient client = context.getBean(DefaultLockClient.class);
				try (LockHold hold = client.acquire("orders", "order/7", Duration.ZERO, null)) {
					HeldLocksDescriptor held = endpoint.heldLocks();
					assertThat(held.clientId()).isEqualTo(client.clientId());
					assertThat(held.locks()).singleElement().satisfies((lock) -> {
						assertThat(lock.name()).isEqualTo("orders");
						assertThat(lock.key()).isEqualTo("order/7");
						assertThat(lock.fencingToken()).isEqualTo(hold.fencingToken());
						assertThat(lock.leaseRemainingMillis()).isPositive();
					});
					WebEndpointResponse<Object> state = endpoint.lock(new String[] { "order", "7" });
					assertThat(state.getStatus()).isEqualTo(200);
					assertThat(state.getBody()).isInstanceOfSatisfying(LockStateDescriptor.class, (body) -> {
						assertThat(body.state()).isEqualTo("held");
						assertThat(body.heldByThisInstance()).isTrue();
						assertThat(body.ttlMillis()).isPositive();
					});
				}
				assertThat(endpoint.heldLocks().locks()).isEmpty();
			});
	}

	@Test
	void endpointRefusesForceReleaseUnlessEnabled() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=distlock").run((context) -> {
			ControllableInMemoryLockStore store = context.getBean(ControllableInMemoryLockStore.class);
			store.takeOver("stuck", "another-instance");
			WebEndpointResponse<Object> refused = context.getBean(DistlockEndpoint.class)
				.forceRelease(new String[] { "stuck" }, SecurityContext.NONE);
			assertThat(refused.getStatus()).isEqualTo(403);
			assertThat(store.isLocked("stuck")).isTrue();
		});
	}

	@Test
	void endpointForceReleasesWhenEnabled() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=distlock",
					"distlock.endpoint.force-release=true")
			.run((context) -> {
				DistlockEndpoint endpoint = context.getBean(DistlockEndpoint.class);
				LockHold hold = context.getBean(DefaultLockClient.class)
					.acquire("orders", "stuck", Duration.ZERO, null);
				WebEndpointResponse<Object> released = endpoint.forceRelease(new String[] { "stuck" },
						SecurityContext.NONE);
				assertThat(released.getStatus()).isEqualTo(200);
				assertThat(released.getBody()).isInstanceOfSatisfying(ForcedReleaseDescriptor.class,
						(body) -> assertThat(body.heldByThisInstance()).isTrue());
				assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release);
				assertThat(endpoint.forceRelease(new String[] { "stuck" }, SecurityContext.NONE).getStatus())
					.isEqualTo(404);
			});
	}

	@Test
	void healthIsUpNormallyAndDownWhileRenewalsFailWithLeasesAtRisk() {
		this.contextRunner.withPropertyValues("distlock.watchdog-lease=600ms").run((context) -> {
			Object indicator = context.getBean("distlockHealthIndicator");
			assertThat(indicator.getClass().getSimpleName())
				.isEqualTo(ClassUtils.isPresent("org.springframework.boot.health.contributor.HealthIndicator", null)
						? "Boot4LockHealthIndicator" : "Boot3LockHealthIndicator");
			assertThat(status(indicator)).isEqualTo("UP");
			ControllableInMemoryLockStore store = context.getBean(ControllableInMemoryLockStore.class);
			LockHold hold = context.getBean(DefaultLockClient.class).acquire("orders", "at-risk", Duration.ZERO, null);
			store.setUnreachable(true);
			await().atMost(Duration.ofSeconds(5)).until(() -> "DOWN".equals(status(indicator)));
			assertThat(details(indicator)).containsEntry("held", 1)
				.containsKeys("lastRenewalError", "lastRenewalErrorTime");
			assertThat(details(indicator).get("lastRenewalError")).asString()
				.doesNotContain("at-risk")
				.doesNotContain("the in-memory store is down");
			store.setUnreachable(false);
			await().atMost(Duration.ofSeconds(5)).until(() -> "UP".equals(status(indicator)));
			hold.release();
		});
	}

	@Test
	void healthContributorCanBeDisabled() {
		this.contextRunner.withPropertyValues("management.health.distlock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("distlockHealthIndicator"));
	}

	private static Object health(Object indicator) {
		Method health = ReflectionUtils.findMethod(indicator.getClass(), "health");
		ReflectionUtils.makeAccessible(health);
		return ReflectionUtils.invokeMethod(health, indicator);
	}

	private static String status(Object indicator) {
		Object health = health(indicator);
		Object status = ReflectionUtils.invokeMethod(ReflectionUtils.findMethod(health.getClass(), "getStatus"),
				health);
		return (String) ReflectionUtils.invokeMethod(ReflectionUtils.findMethod(status.getClass(), "getCode"), status);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> details(Object indicator) {
		Object health = health(indicator);
		return (Map<String, Object>) ReflectionUtils
			.invokeMethod(ReflectionUtils.findMethod(health.getClass(), "getDetails"), health);
	}

	@Configuration(proxyBeanMethods = false)
	static class StoreConfiguration {

		@Bean
		ControllableInMemoryLockStore lockStore() {
			return new ControllableInMemoryLockStore();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MetricsConfiguration {

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ObservationConfiguration {

		@Bean
		TestObservationRegistry observationRegistry(EventRecorder events) {
			TestObservationRegistry registry = TestObservationRegistry.create();
			registry.observationConfig().observationHandler(events);
			return registry;
		}

		@Bean
		EventRecorder eventRecorder() {
			return new EventRecorder();
		}

	}

	static class EventRecorder implements ObservationHandler<Observation.Context> {

		final List<String> events = new CopyOnWriteArrayList<>();

		@Override
		public void onEvent(Observation.Event event, Observation.Context context) {
			this.events.add(event.getName());
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return context instanceof LockObservationContext;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LockedServiceConfiguration {

		@Bean
		LockedService lockedService() {
			return new LockedService();
		}

	}

	static class LockedService {

		@DistributedLock(key = "#p0")
		public void work(String key) {
		}

		@DistributedLock(key = "#p0")
		public void whileHeld(String key, Runnable action) {
			action.run();
		}

		@DistributedLock(key = "#p0", name = "reports.nightly")
		public void named(String key) {
		}

		@DistributedLock(key = "#p0", name = "${jobs.lock-name:unset}")
		public void placeholder(String key) {
		}

	}

}
