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
import io.lettuce.core.ClientOptions;
import io.lettuce.core.TimeoutOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The lock contract on a standalone Redis whose Lettuce client options time no command
 * out, so that every request of the store is bounded by the store's own timer from its
 * start: the path {@link RedisStandaloneLockStoreContractTests} does not take (there
 * Lettuce's timer alone bounds a request on a ready connection).
 *
 * @author distlock
 */
class RedisStoreBoundLockStoreContractTests extends RedisLockStoreContractTests {

	private static LettuceConnectionFactory connectionFactory;

	private static StringRedisTemplate redis;

	@BeforeAll
	static void connect() {
		RedisEndpoint endpoint = TestRedis.endpoint();
		connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(endpoint.host(), endpoint.port()),
				LettuceClientConfiguration.builder()
					.commandTimeout(Duration.ofSeconds(2))
					.clientOptions(ClientOptions.builder().timeoutOptions(TimeoutOptions.create()).build())
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
