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

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.distlock.LockAcquisitionException;
import dev.distlock.autoconfigure.LockAspectAutoConfiguration;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockClientListener;
import dev.distlock.store.LockStore;
import dev.distlock.core.LockTracker;
import dev.distlock.test.InMemoryLocks;
import dev.distlock.test.LockAssertions;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link InMemoryLocksAutoConfiguration} with distlock's auto-configurations
 * and no Redis auto-configuration at all.
 *
 * @author distlock
 */
class InMemoryLocksAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(InMemoryLocksAutoConfiguration.class, LockAutoConfiguration.class,
				LockAspectAutoConfiguration.class))
		.withUserConfiguration(LockedServiceConfiguration.class);

	@Test
	void inMemoryClientIsTheApplicationsLockClient() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(LockClient.class).doesNotHaveBean(LockStore.class);
			assertThat(context.getBean(LockClient.class)).isSameAs(context.getBean(InMemoryLocks.class).client());
		});
	}

	@Test
	void clientUsesTheDistlockProperties() {
		this.contextRunner.withPropertyValues("distlock.watchdog-lease=2s")
			.run((context) -> assertThat(context.getBean(InMemoryLocks.class).client().settings().watchdogLease())
				.isEqualTo(Duration.ofSeconds(2)));
	}

	@Test
	void clientTellsTheApplicationsListeners() {
		this.contextRunner.withUserConfiguration(ListenerConfiguration.class).run((context) -> {
			context.getBean(LockedService.class).order(7);
			assertThat(context.getBean(ListenerConfiguration.class).asked).containsExactly("order:7");
		});
	}

	@Test
	void lockedBeanRunsUnderItsLock() {
		this.contextRunner.run((context) -> {
			InMemoryLocks locks = context.getBean(InMemoryLocks.class);
			LockedService service = context.getBean(LockedService.class);
			assertThat(LockAssertions.assertRanUnderLock(locks, "order:7", () -> service.order(7)))
				.isEqualTo("ordered for 7");
			assertThat(service.runs()).isOne();
		});
	}

	@Test
	void busyKeyFailsTheLockedMethodWithoutRunningIt() {
		this.contextRunner.run((context) -> {
			context.getBean(InMemoryLocks.class).makeBusy("order:7");
			LockedService service = context.getBean(LockedService.class);
			assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> service.order(7));
			assertThat(service.runs()).isZero();
		});
	}

	@Test
	void closingTheContextReleasesTheHeldLocks() {
		this.contextRunner.run((context) -> {
			InMemoryLocks locks = context.getBean(InMemoryLocks.class);
			locks.client().acquire("order:7", Duration.ZERO, null);
			context.close();
			assertThat(locks.holds()).singleElement().satisfies((hold) -> assertThat(hold.isOpen()).isFalse());
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class ListenerConfiguration {

		final List<String> asked = new CopyOnWriteArrayList<>();

		@Bean
		LockClientListener recordingListener() {
			return new LockClientListener() {

				@Override
				public LockTracker acquisitionStarted(String name, String key) {
					ListenerConfiguration.this.asked.add(key);
					return LockTracker.NONE;
				}

			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LockedServiceConfiguration {

		@Bean
		LockedService lockedService(InMemoryLocks locks) {
			return new LockedService(locks);
		}

	}

}
