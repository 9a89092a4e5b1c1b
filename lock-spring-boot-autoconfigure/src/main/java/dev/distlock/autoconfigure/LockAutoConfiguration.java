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

import java.time.Duration;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockClientListener;
import dev.distlock.core.LockClientSettings;
import dev.distlock.store.LockStore;
import dev.distlock.store.SessionLeaseExtension;

import org.springframework.aot.AotDetector;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of a {@link LockClient} on a {@link LockStore}: the one
 * {@code distlock.store} selects ({@code redis}, {@code memory}), or, with the property
 * unset, the only store whose module and connection are present (today Redis:
 * {@code lock-redis} and a single {@code StringRedisTemplate}). The in-memory store is
 * never chosen implicitly. Startup fails when the selected store is not available, or
 * when several stores are present and the property is unset. Runs after Spring Boot's
 * Redis auto-configuration (Spring Boot 3.5 and 4.x), backs off when the application
 * defines its own {@link LockStore} or {@link LockClient}, and is off with
 * {@code distlock.enabled=false}. The JDBC store ({@code distlock.store=jdbc}, or
 * {@code lock-jdbc} and a {@code DataSource} alone) is configured by
 * {@code JdbcLockStoreConfiguration}, after Spring Boot's {@code DataSource}
 * auto-configuration.
 *
 * @author distlock
 * @since 0.1.0
 * @see ConditionalOnLockStore
 */
@AutoConfiguration(afterName = { "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
		"org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration",
		"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
		"org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistlockProperties.class)
@Import(LockStoreConfigurations.class)
public final class LockAutoConfiguration {

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean(LockClient.class)
	@ConditionalOnSingleCandidate(LockStore.class)
	DefaultLockClient lockClient(LockStore lockStore, DistlockProperties properties,
			ObjectProvider<LockClientListener> listeners) {
		return new DefaultLockClient(lockStore, properties.toClientSettings(defaultLease(lockStore)),
				LockClientListener.composite(listeners.orderedStream().toList()));
	}

	/**
	 * Return the watchdog lease of a store when none is set: the longest a session-lease
	 * store keeps safely (a third of its session), else the client's default.
	 */
	private static Duration defaultLease(LockStore lockStore) {
		SessionLeaseExtension sessions = lockStore.extension(SessionLeaseExtension.class);
		return (sessions != null) ? sessions.longestLease() : LockClientSettings.DEFAULT_WATCHDOG_LEASE;
	}

	@Bean
	static LockStoreSelectionCheck distlockStoreSelectionCheck(Environment environment) {
		return new LockStoreSelectionCheck(environment);
	}

	/**
	 * Fails startup, once every store configuration was evaluated, when the selection
	 * does not name one store. Skipped when running from AOT-generated code, whose
	 * processing made the check.
	 */
	static final class LockStoreSelectionCheck implements BeanFactoryPostProcessor {

		private final Environment environment;

		LockStoreSelectionCheck(Environment environment) {
			this.environment = environment;
		}

		@Override
		public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
			if (!AotDetector.useGeneratedArtifacts()) {
				LockStoreSelection.get(beanFactory).check(LockStoreSelection.selected(this.environment));
			}
		}

	}

}
