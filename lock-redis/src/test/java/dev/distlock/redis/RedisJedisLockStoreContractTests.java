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

import dev.distlock.testing.redis.RedisEndpoint;
import dev.distlock.testing.redis.TestRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The lock contract on a standalone Redis reached through Jedis, the other client Spring
 * Boot supports: scripts, the pattern subscription on its own blocking thread, and
 * timeouts all go through Jedis instead of Lettuce.
 *
 * @author distlock
 */
class RedisJedisLockStoreContractTests extends RedisLockStoreContractTests {

	private static JedisConnectionFactory connectionFactory;

	private static StringRedisTemplate redis;

	@BeforeAll
	static void connect() {
		RedisEndpoint endpoint = TestRedis.endpoint();
		connectionFactory = new JedisConnectionFactory(
				new RedisStandaloneConfiguration(endpoint.host(), endpoint.port()),
				JedisClientConfiguration.builder()
					.connectTimeout(Duration.ofSeconds(2))
					.readTimeout(Duration.ofSeconds(2))
					.usePooling()
					.build());
		connectionFactory.afterPropertiesSet();
		connectionFactory.start();
		redis = TestRedis.template(connectionFactory);
	}

	@AfterAll
	static void disconnect() {
		connectionFactory.destroy();
	}

	@Override
	protected StringRedisTemplate redis() {
		return redis;
	}

}
