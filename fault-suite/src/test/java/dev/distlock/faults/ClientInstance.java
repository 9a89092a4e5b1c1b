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

package dev.distlock.faults;

import java.time.Duration;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.redis.RedisLockStore;
import dev.distlock.redis.ReplicaAcknowledgement;
import dev.distlock.redis.ReplicaAcknowledgingLockStore;
import dev.distlock.testing.redis.RedisEndpoint;
import dev.distlock.testing.redis.RedisSentinelHandle;
import dev.distlock.testing.redis.TestRedis;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * One application instance of a workload: a Lettuce connection factory of its own, a
 * {@link RedisLockStore} and a {@link DefaultLockClient} on it.
 *
 * @author distlock
 */
final class ClientInstance implements AutoCloseable {

	private final LettuceConnectionFactory connectionFactory;

	private final DefaultLockClient client;

	private ClientInstance(LettuceConnectionFactory connectionFactory, LockClientSettings settings,
			ReplicaAcknowledgement acknowledgement) {
		this.connectionFactory = connectionFactory;
		RedisLockStore store = new RedisLockStore(TestRedis.template(connectionFactory));
		this.client = new DefaultLockClient(
				acknowledgement.isEnabled() ? new ReplicaAcknowledgingLockStore(store, acknowledgement) : store,
				settings);
	}

	static ClientInstance on(RedisEndpoint endpoint, Duration commandTimeout, Duration watchdogLease) {
		return new ClientInstance(TestRedis.connectionFactory(endpoint, commandTimeout), settings(watchdogLease),
				ReplicaAcknowledgement.none());
	}

	static ClientInstance on(RedisSentinelHandle sentinel, Duration commandTimeout, Duration watchdogLease,
			ReplicaAcknowledgement acknowledgement) {
		return new ClientInstance(TestRedis.connectionFactory(sentinel, commandTimeout), settings(watchdogLease),
				acknowledgement);
	}

	private static LockClientSettings settings(Duration watchdogLease) {
		return LockClientSettings.defaults().withWatchdogLease(watchdogLease).withCloseTimeout(Duration.ofSeconds(1));
	}

	DefaultLockClient client() {
		return this.client;
	}

	@Override
	public void close() {
		this.client.close();
		this.connectionFactory.destroy();
	}

}
