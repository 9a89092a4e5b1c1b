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

package dev.distlock.sample;

import dev.distlock.testing.redis.RedisEndpoint;
import dev.distlock.testing.redis.TestRedis;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Points the sample at the shared test Redis of the harness, never at an embedded
 * fallback.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class SampleTestRedis {

	private SampleTestRedis() {
	}

	/**
	 * Register the Redis settings of the shared test Redis.
	 * @param registry the registry of a test class
	 */
	public static void register(DynamicPropertyRegistry registry) {
		RedisEndpoint redis = TestRedis.endpoint();
		registry.add("spring.data.redis.host", redis::host);
		registry.add("spring.data.redis.port", redis::port);
		registry.add("sample.embedded-redis.enabled", () -> false);
	}

}
