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
import dev.distlock.core.LockClient;
import dev.distlock.core.LockClientListener;
import dev.distlock.core.LockStore;
import dev.distlock.redis.RedisLockStore;
import dev.distlock.redis.ReplicaAcknowledgement;
import dev.distlock.redis.ReplicaAcknowledgingLockStore;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of a {@link LockClient} on a {@link LockStore}, by default a
 * {@link RedisLockStore} on the application's {@link StringRedisTemplate} (wrapped in a
 * {@link ReplicaAcknowledgingLockStore} when {@code distlock.replication.min-replicas} is
 * set). Runs after Spring Boot's Redis auto-configuration (Spring Boot 3.5 and 4.x),
 * backs off when the application defines its own {@link LockStore} or {@link LockClient},
 * and is off with {@code distlock.enabled=false}.
 *
 * @author distlock
 * @since 0.1.0
 */
@AutoConfiguration(afterName = { "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
		"org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration" })
@ConditionalOnClass(StringRedisTemplate.class)
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistlockProperties.class)
public final class LockAutoConfiguration {

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean(LockClient.class)
	@ConditionalOnSingleCandidate(LockStore.class)
	DefaultLockClient lockClient(LockStore lockStore, DistlockProperties properties,
			ObjectProvider<LockClientListener> listeners) {
		return new DefaultLockClient(lockStore, properties.toClientSettings(),
				LockClientListener.composite(listeners.orderedStream().toList()));
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingBean({ LockStore.class, LockClient.class })
	@ConditionalOnSingleCandidate(StringRedisTemplate.class)
	static class RedisLockStoreConfiguration {

		@Bean(destroyMethod = "close")
		LockStore lockStore(StringRedisTemplate redisTemplate, DistlockProperties properties) {
			return PropertyErrors.named(() -> {
				RedisLockStore store = new RedisLockStore(redisTemplate, properties.getKeyPrefix());
				RedisTimeoutWarning.warnIfTooLong(store::commandTimeout, properties.toClientSettings());
				ReplicaAcknowledgement acknowledgement = properties.getReplication().toAcknowledgement();
				return acknowledgement.isEnabled() ? new ReplicaAcknowledgingLockStore(store, acknowledgement) : store;
			});
		}

	}

}
