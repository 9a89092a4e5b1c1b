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

import dev.distlock.testing.redis.RedisClusterHandle;
import dev.distlock.testing.redis.TestRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The lock contract on a three-master Redis Cluster, where keys of different locks live
 * on different nodes and releases travel over sharded pub/sub.
 *
 * @author distlock
 */
class RedisClusterLockStoreContractTests extends RedisLockStoreContractTests {

	private static RedisClusterHandle cluster;

	private static LettuceConnectionFactory connectionFactory;

	private static StringRedisTemplate redis;

	@BeforeAll
	static void start() {
		cluster = TestRedis.startCluster(3);
		connectionFactory = TestRedis.connectionFactory(cluster, Duration.ofSeconds(2));
		redis = TestRedis.template(connectionFactory);
	}

	@AfterAll
	static void stop() {
		if (connectionFactory != null) {
			connectionFactory.destroy();
		}
		if (cluster != null) {
			cluster.close();
		}
	}

	@Override
	protected StringRedisTemplate redis() {
		return redis;
	}

}
