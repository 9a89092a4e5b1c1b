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

import dev.distlock.autoconfigure.DistlockProperties.Store;
import dev.distlock.store.LockStore;
import dev.distlock.memory.InMemoryLockStore;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Configuration of the in-memory lock store, with {@code distlock.store=memory} only: its
 * locks hold within this JVM only, so it is never chosen implicitly (an application that
 * forgot its store's starter must not lock within one JVM without knowing), and its
 * creation logs a warning.
 *
 * @author distlock
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnLockStore(Store.MEMORY)
class InMemoryLockStoreConfiguration {

	private static final Log logger = LogFactory.getLog(InMemoryLockStoreConfiguration.class);

	@Bean(destroyMethod = "close")
	LockStore inMemoryLockStore() {
		logger.warn("distlock.store is memory: locks hold within this JVM only, two instances of the application "
				+ "do not exclude each other. Use it for tests and single-instance applications; for locks "
				+ "between instances, add a store's starter (lock-spring-boot-starter for Redis) and set "
				+ "distlock.store accordingly or leave it unset.");
		return new InMemoryLockStore();
	}

}
