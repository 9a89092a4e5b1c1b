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

package dev.distlock.docs;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.distlock.LockAcquisitionException;
import dev.distlock.testing.redis.TestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The README's quick start on Redis: an application with the README's properties (the
 * test's Redis in place of {@code localhost:6379}) refuses a call while the README's
 * {@code redis-cli SET} holds the key, with the README's message, and runs it once the
 * key is deleted; two calls of the application for one user exclude each other the same
 * way.
 *
 * @author distlock
 */
class RedisQuickStartTests {

	private final ReadmeQuickStart quickStart = ReadmeQuickStart.of("redis");

	@Test
	void theReadmesPropertiesLockAndTheReadmesCommandHoldsTheKey() {
		Map<String, String> properties = this.quickStart.properties();
		assertThat(properties).containsKeys("spring.data.redis.host", "spring.data.redis.port",
				"spring.data.redis.timeout", "spring.data.redis.connect-timeout");
		QuickStartApplication
			.runner("dev.distlock.redis", QuickStartApplication.REDIS, properties, Map.of("spring.data.redis.host",
					TestRedis.endpoint().host(), "spring.data.redis.port", String.valueOf(TestRedis.endpoint().port())))
			.run((context) -> {
				StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
				// Lettuce's first connection of the JVM may take longer than the README's
				// 2 s
				// on a loaded machine: connect once before the first locked call
				await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> redis.hasKey("warm-up") != null);
				List<String> command = arguments(this.quickStart.check());
				assertThat(command.subList(0, 2)).containsExactly("redis-cli", "SET");
				String key = command.get(2);
				QuickStartOrders.seeTheLockWork(context, this.quickStart, () -> assertThat(redis.hasKey(key)).isTrue());
				QuickStartOrders orders = context.getBean(QuickStartOrders.class);
				try {
					redis.execute((RedisCallback<Object>) (connection) -> connection.execute("SET",
							command.subList(2, command.size())
								.stream()
								.map((argument) -> argument.getBytes(StandardCharsets.UTF_8))
								.toArray(byte[][]::new)));
					assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> orders.placeOrder(1, 7))
						.withMessage(this.quickStart.refusal());
				}
				finally {
					redis.delete(key);
				}
				assertThat(orders.placeOrder(1, 7)).isEqualTo(7);
			});
	}

	private static List<String> arguments(String command) {
		return Arrays.stream(command.split("\\s+")).map((argument) -> argument.replace("'", "")).toList();
	}

}
