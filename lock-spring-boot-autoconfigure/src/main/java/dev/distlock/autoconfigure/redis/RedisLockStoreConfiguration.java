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

package dev.distlock.autoconfigure.redis;

import dev.distlock.autoconfigure.DistlockProperties;
import dev.distlock.autoconfigure.PropertyErrors;
import dev.distlock.autoconfigure.store.ConditionalOnLockStore;
import java.util.Map;

import dev.distlock.autoconfigure.DistlockProperties.Store;
import dev.distlock.autoconfigure.redis.RedisLockStoreProperties.Replication;
import dev.distlock.redis.RedisLockStore;
import dev.distlock.redis.ReplicaAcknowledgement;
import dev.distlock.redis.ReplicaAcknowledgingLockStore;
import dev.distlock.store.LockStore;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Configuration of the Redis lock store: a {@link RedisLockStore} on the application's
 * {@link StringRedisTemplate}, wrapped in a {@link ReplicaAcknowledgingLockStore} when
 * {@code distlock.redis.replication.min-replicas} is set. Needs {@code lock-redis}
 * (brought by {@code lock-spring-boot-starter}) and a single {@link StringRedisTemplate}
 * bean, or a primary one.
 *
 * @author distlock
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnLockStore(value = Store.REDIS,
		classes = { "dev.distlock.redis.RedisLockStore", "org.springframework.data.redis.core.StringRedisTemplate" },
		connection = "org.springframework.data.redis.core.StringRedisTemplate", dependency = "lock-spring-boot-starter")
class RedisLockStoreConfiguration {

	/**
	 * The {@code distlock.redis.*} properties, over the deprecated names they replace:
	 * these are bound here, and binding the bean then applies the new names over them.
	 */
	@Bean
	@ConditionalOnMissingBean
	static RedisLockStoreProperties redisLockStoreProperties(Environment environment) {
		RedisLockStoreProperties properties = new RedisLockStoreProperties();
		Binder.get(environment).bind("distlock", Bindable.ofInstance(properties));
		return properties;
	}

	@Bean(destroyMethod = "close")
	LockStore redisLockStore(StringRedisTemplate redisTemplate, RedisLockStoreProperties redis,
			DistlockProperties properties) {
		return PropertyErrors.named(() -> {
			RedisLockStore store = new RedisLockStore(redisTemplate, redis.getKeyPrefix());
			RedisTimeoutWarning.warnIfTooLong(store::commandTimeout, properties.toClientSettings());
			ReplicaAcknowledgement acknowledgement = acknowledgement(redis.getReplication());
			return acknowledgement.isEnabled() ? new ReplicaAcknowledgingLockStore(store, acknowledgement) : store;
		});
	}

	private static ReplicaAcknowledgement acknowledgement(Replication replication) {
		return PropertyErrors.named(
				() -> new ReplicaAcknowledgement(replication.getMinReplicas(), replication.getTimeout()),
				Map.of("timeout", "distlock.redis.replication.timeout"));
	}

}
