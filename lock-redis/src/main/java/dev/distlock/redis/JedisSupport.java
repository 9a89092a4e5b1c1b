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

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

/**
 * What {@link RedisLockStore} does only with a {@link JedisConnectionFactory}, kept out
 * of the store's own signatures: this class is loaded only when Jedis is on the
 * classpath, so that an application with Lettuce and without Jedis starts.
 *
 * @author distlock
 * @since 0.1.0
 */
final class JedisSupport {

	private JedisSupport() {
	}

	static boolean isJedis(RedisConnectionFactory connectionFactory) {
		return connectionFactory instanceof JedisConnectionFactory;
	}

	static boolean isCluster(RedisConnectionFactory connectionFactory) {
		return ((JedisConnectionFactory) connectionFactory).isRedisClusterAware();
	}

	static Duration readTimeout(RedisConnectionFactory connectionFactory) {
		return ((JedisConnectionFactory) connectionFactory).getClientConfiguration().getReadTimeout();
	}

}
