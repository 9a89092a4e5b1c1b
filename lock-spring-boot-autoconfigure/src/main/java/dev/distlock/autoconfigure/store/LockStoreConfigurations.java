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

package dev.distlock.autoconfigure.store;

import dev.distlock.autoconfigure.LockAutoConfiguration;
import org.springframework.context.annotation.ImportSelector;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Imports the configuration of every lock store ({@link ConditionalOnLockStore}) by name,
 * so that Spring reads each one's metadata without loading its class: the bean methods of
 * a store's configuration name its backend's classes, which an application with another
 * store's starter does not have. A class literal in {@code @Import} would be introspected
 * by reflection when {@link LockAutoConfiguration} itself is registered as a class
 * ({@code @ImportAutoConfiguration}, {@code ApplicationContextRunner}), and fail.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class LockStoreConfigurations implements ImportSelector {

	private static final String[] STORE_CONFIGURATIONS = {
			"dev.distlock.autoconfigure.redis.RedisLockStoreConfiguration",
			"dev.distlock.autoconfigure.store.InMemoryLockStoreConfiguration",
			"dev.distlock.autoconfigure.jdbc.JdbcLockStoreConfiguration",
			"dev.distlock.autoconfigure.zookeeper.ZooKeeperLockStoreConfiguration" };

	@Override
	public String[] selectImports(AnnotationMetadata importingClassMetadata) {
		return STORE_CONFIGURATIONS.clone();
	}

}
