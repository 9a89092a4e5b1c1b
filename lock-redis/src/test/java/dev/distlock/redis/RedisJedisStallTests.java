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

import dev.distlock.DistributedLockException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockHold;
import dev.distlock.testing.redis.RedisEndpoint;
import dev.distlock.testing.redis.RedisServerHandle;
import dev.distlock.testing.redis.TestRedis;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Jedis runs scripts on a pool of connections, so the release that gives back a grant
 * whose acquire got no answer can travel on another connection than that acquire: an
 * acquire stalled longer than the command timeout (Redis paused) still leaves no key held
 * once Redis resumes and runs both.
 *
 * @author distlock
 */
class RedisJedisStallTests {

	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

	private RedisServerHandle server;

	private JedisConnectionFactory connectionFactory;

	private StringRedisTemplate redis;

	@BeforeEach
	void start() {
		this.server = TestRedis.startServer();
		RedisEndpoint endpoint = this.server.endpoint();
		this.connectionFactory = new JedisConnectionFactory(
				new RedisStandaloneConfiguration(endpoint.host(), endpoint.port()),
				JedisClientConfiguration.builder()
					.connectTimeout(COMMAND_TIMEOUT)
					.readTimeout(COMMAND_TIMEOUT)
					.usePooling()
					.build());
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
		this.redis = TestRedis.template(this.connectionFactory);
	}

	@AfterEach
	void stop() {
		this.server.resume();
		this.connectionFactory.destroy();
		this.server.close();
	}

	@Test
	void anAcquireStalledLongerThanTheCommandTimeoutLeavesNoKeyHeldOnceRedisResumes() throws Exception {
		String key = "stalled";
		LockKeys keys = LockKeys.of(RedisLockStore.DEFAULT_KEY_PREFIX, key);
		try (DefaultLockClient client = new DefaultLockClient(new RedisLockStore(this.redis))) {
			// Loads the script and opens pooled connections before the stall
			long before;
			try (LockHold hold = client.acquire(key, Duration.ZERO, Duration.ofMinutes(10))) {
				before = hold.fencingToken();
			}
			this.server.pause();
			assertThatExceptionOfType(DistributedLockException.class)
				.isThrownBy(() -> client.acquire(key, Duration.ZERO, Duration.ofMinutes(10)));
			this.server.resume();
			// The stalled acquire ran once Redis resumed (it issued a new fencing token),
			// and
			// the release that compensates it ran after it
			Awaitility.await("the stalled acquire ran and no key is held")
				.atMost(Duration.ofSeconds(20))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> lastFence(keys) > before && !Boolean.TRUE.equals(this.redis.hasKey(keys.lockKey())));
			assertThat(client.heldCount()).isZero();
		}
	}

	private long lastFence(LockKeys keys) {
		String fence = this.redis.opsForValue().get(keys.fenceKey());
		return (fence != null) ? Long.parseLong(fence) : 0;
	}

}
