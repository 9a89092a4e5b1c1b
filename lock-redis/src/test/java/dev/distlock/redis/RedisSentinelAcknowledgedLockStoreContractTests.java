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

package dev.distlock.redis;

import java.time.Duration;

import dev.distlock.store.LockStore;
import dev.distlock.redis.RedisLockStore;
import dev.distlock.redis.ReplicaAcknowledgement;
import dev.distlock.redis.ReplicaAcknowledgingLockStore;
import dev.distlock.testing.redis.RedisSentinelHandle;
import dev.distlock.testing.redis.TestRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The lock client contract on a Redis master with a replica and a Sentinel, with every
 * grant acknowledged by the replica ({@link ReplicaAcknowledgement}): waiting for
 * replicas changes no lock semantics. The store declares neither read and fair locks nor
 * wake-one and hand-over, so the suite skips those cases.
 *
 * @author distlock
 */
@Tag("slow")
class RedisSentinelAcknowledgedLockStoreContractTests extends RedisLockStoreContractTests {

	private static RedisSentinelHandle sentinel;

	private static LettuceConnectionFactory connectionFactory;

	private static StringRedisTemplate redis;

	@BeforeAll
	static void start() {
		sentinel = TestRedis.startSentinel();
		connectionFactory = TestRedis.connectionFactory(sentinel, Duration.ofSeconds(2));
		redis = TestRedis.template(connectionFactory);
	}

	@AfterAll
	static void stop() {
		if (connectionFactory != null) {
			connectionFactory.destroy();
		}
		if (sentinel != null) {
			sentinel.close();
		}
	}

	@Override
	protected StringRedisTemplate redis() {
		return redis;
	}

	@Override
	protected LockStore newStore() {
		return new ReplicaAcknowledgingLockStore(new RedisLockStore(redis),
				new ReplicaAcknowledgement(1, Duration.ofSeconds(1)));
	}

}
