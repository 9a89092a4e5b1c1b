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

import dev.distlock.autoconfigure.DistlockProperties;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockClientListener;
import dev.distlock.test.InMemoryLocks;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Test auto-configuration imported by {@link AutoConfigureInMemoryLocks}: an
 * {@link InMemoryLocks} bean, configured by the {@code distlock.*} client properties and
 * telling the application's {@link LockClientListener} beans (meters, observation), and
 * its client as the {@link LockClient} bean, before {@link LockAutoConfiguration} so the
 * Redis lock client and store back off.
 *
 * @author distlock
 * @since 0.1.0
 */
@AutoConfiguration(before = LockAutoConfiguration.class)
@EnableConfigurationProperties(DistlockProperties.class)
public final class InMemoryLocksAutoConfiguration {

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	InMemoryLocks inMemoryLocks(DistlockProperties properties, ObjectProvider<LockClientListener> listeners) {
		return new InMemoryLocks(properties.toClientSettings(),
				LockClientListener.composite(listeners.orderedStream().toList()));
	}

	/**
	 * The in-memory client as the application's lock client; {@link InMemoryLocks} closes
	 * it.
	 */
	@Bean(destroyMethod = "")
	@ConditionalOnMissingBean(LockClient.class)
	DefaultLockClient lockClient(InMemoryLocks locks) {
		return locks.client();
	}

}
