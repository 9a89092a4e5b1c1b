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
package dev.distlock.autoconfigure;

import dev.distlock.core.DefaultLockClient;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the {@code distlock} health contributor: down while the lease
 * watchdog's last renewal of a held lease failed and leases are at risk. It does not ping
 * Redis; Spring Boot's Redis health indicator does. One configuration per Spring Boot
 * health API: {@code org.springframework.boot.actuate.health} (3.x) and
 * {@code org.springframework.boot.health.contributor} (4.x). Disable it with
 * {@code management.health.distlock.enabled=false}.
 *
 * @author distlock
 * @since 0.1.0
 */
@AutoConfiguration(after = LockAutoConfiguration.class)
@ConditionalOnBean(DefaultLockClient.class)
@ConditionalOnBooleanProperty(name = "management.health.distlock.enabled", matchIfMissing = true)
public final class LockHealthAutoConfiguration {

	private static final String BEAN_NAME = "distlockHealthIndicator";

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
	static class ActuatorHealthConfiguration {

		@Bean(BEAN_NAME)
		@ConditionalOnMissingBean(name = BEAN_NAME)
		Boot3LockHealthIndicator distlockHealthIndicator(DefaultLockClient lockClient,
				ObjectProvider<LockStoreHealth> stores) {
			return new Boot3LockHealthIndicator(new LockHealth(lockClient, stores.orderedStream().toList()));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
	static class HealthContributorConfiguration {

		@Bean(BEAN_NAME)
		@ConditionalOnMissingBean(name = BEAN_NAME)
		Boot4LockHealthIndicator distlockHealthIndicator(DefaultLockClient lockClient,
				ObjectProvider<LockStoreHealth> stores) {
			return new Boot4LockHealthIndicator(new LockHealth(lockClient, stores.orderedStream().toList()));
		}

	}

}
