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

import java.util.Map;

import dev.distlock.autoconfigure.DistlockProperties.Replication;
import dev.distlock.autoconfigure.DistlockProperties.Store;
import dev.distlock.store.LockStore;
import dev.distlock.redis.RedisLockStore;
import dev.distlock.redis.ReplicaAcknowledgement;
import dev.distlock.redis.ReplicaAcknowledgingLockStore;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Configuration of the Redis lock store: a {@link RedisLockStore} on the application's
 * {@link StringRedisTemplate}, wrapped in a {@link ReplicaAcknowledgingLockStore} when
 * {@code distlock.replication.min-replicas} is set. Needs {@code lock-redis} (brought by
 * {@code lock-spring-boot-starter}) and a single {@link StringRedisTemplate} bean, or a
 * primary one.
 *
 * @author distlock
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnLockStore(value = Store.REDIS,
		classes = { "dev.distlock.redis.RedisLockStore", "org.springframework.data.redis.core.StringRedisTemplate" },
		connection = "org.springframework.data.redis.core.StringRedisTemplate", dependency = "lock-spring-boot-starter")
class RedisLockStoreConfiguration {

	@Bean(destroyMethod = "close")
	LockStore redisLockStore(StringRedisTemplate redisTemplate, DistlockProperties properties) {
		return PropertyErrors.named(() -> {
			RedisLockStore store = new RedisLockStore(redisTemplate, properties.getKeyPrefix());
			RedisTimeoutWarning.warnIfTooLong(store::commandTimeout, properties.toClientSettings());
			ReplicaAcknowledgement acknowledgement = acknowledgement(properties.getReplication());
			return acknowledgement.isEnabled() ? new ReplicaAcknowledgingLockStore(store, acknowledgement) : store;
		});
	}

	private static ReplicaAcknowledgement acknowledgement(Replication replication) {
		return PropertyErrors.named(
				() -> new ReplicaAcknowledgement(replication.getMinReplicas(), replication.getTimeout()),
				Map.of("timeout", "distlock.replication.timeout"));
	}

}
