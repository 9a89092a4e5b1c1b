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

package dev.distlock.benchmarks.contender;

import dev.distlock.benchmarks.RedisEndpoint;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Creates the Spring Data Redis connection factory that distlock, Spring Integration and
 * lock4j share the settings of: Lettuce, one shared native connection (the default).
 *
 * @author distlock
 * @since 0.1.0
 */
public final class SpringRedis {

	private SpringRedis() {
	}

	/**
	 * Create and start a connection factory; destroy it when done.
	 * @param endpoint the Redis
	 * @return the started factory
	 */
	public static LettuceConnectionFactory connectionFactory(RedisEndpoint endpoint) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(endpoint.host(), endpoint.port()));
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

}
