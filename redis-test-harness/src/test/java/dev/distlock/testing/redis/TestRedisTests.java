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

package dev.distlock.testing.redis;

import java.net.ConnectException;
import java.net.Socket;
import java.time.Duration;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link TestRedis}: the servers it provides are real and obey the fault
 * controls.
 *
 * @author distlock
 */
class TestRedisTests {

	private static final Duration TIMEOUT = Duration.ofMillis(500);

	@Test
	void sharedEndpointAnswers() {
		LettuceConnectionFactory factory = TestRedis.connectionFactory(TestRedis.endpoint(), TIMEOUT);
		try {
			StringRedisTemplate redis = TestRedis.template(factory);
			redis.opsForValue().set("harness:shared", "yes");
			assertThat(redis.opsForValue().get("harness:shared")).isEqualTo("yes");
			assertThat(TestRedis.endpoint()).isEqualTo(TestRedis.endpoint());
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void stoppedServerFailsCommandsAndTheSameFactoryWorksAfterARestart() {
		try (RedisServerHandle server = TestRedis.startServer()) {
			LettuceConnectionFactory factory = TestRedis.connectionFactory(server.endpoint(), TIMEOUT);
			StringRedisTemplate redis = TestRedis.template(factory);
			redis.opsForValue().set("k", "before");
			server.stop();
			assertThat(server.isRunning()).isFalse();
			assertRefusesConnections(server.endpoint());
			LettuceConnectionFactory fresh = TestRedis.connectionFactory(server.endpoint(), TIMEOUT);
			assertThatExceptionOfType(RedisConnectionFailureException.class)
				.isThrownBy(() -> TestRedis.template(fresh).opsForValue().get("k"));
			fresh.destroy();
			// the open connection queues commands while it reconnects, as Lettuce does by
			// default, so they fail when the command timeout ends
			assertThatExceptionOfType(QueryTimeoutException.class).isThrownBy(() -> redis.opsForValue().get("k"));
			server.start();
			assertThat(eventually(() -> redis.opsForValue().get("k") == null)).isTrue();
			redis.opsForValue().set("k", "after");
			assertThat(redis.opsForValue().get("k")).isEqualTo("after");
			factory.destroy();
		}
	}

	@Test
	void pausedServerTimesOutAndRecoversWhenResumed() {
		try (RedisServerHandle server = TestRedis.startServer()) {
			LettuceConnectionFactory factory = TestRedis.connectionFactory(server.endpoint(), TIMEOUT);
			StringRedisTemplate redis = TestRedis.template(factory);
			redis.opsForValue().set("k", "v");
			server.pause();
			assertThat(server.isRunning()).isTrue();
			long started = System.nanoTime();
			assertThatExceptionOfType(QueryTimeoutException.class).isThrownBy(() -> redis.opsForValue().get("k"));
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(TIMEOUT)
				.isLessThan(Duration.ofSeconds(5));
			server.resume();
			assertThat(eventually(() -> "v".equals(redis.opsForValue().get("k")))).isTrue();
			factory.destroy();
		}
	}

	@Test
	void killEndsTheProcess() {
		try (RedisServerHandle server = TestRedis.startServer()) {
			assertThat(server.isRunning()).isTrue();
			server.kill();
			assertThat(server.isRunning()).isFalse();
			assertRefusesConnections(server.endpoint());
		}
	}

	@Test
	void closeEndsAPausedServerAndMayBeRepeated() {
		RedisServerHandle server = TestRedis.startServer();
		server.pause();
		server.close();
		assertThat(server.isRunning()).isFalse();
		assertRefusesConnections(server.endpoint());
		server.close();
		assertThat(server.isRunning()).isFalse();
	}

	@Test
	void serversAreIndependent() {
		try (RedisServerHandle first = TestRedis.startServer(); RedisServerHandle second = TestRedis.startServer()) {
			assertThat(first.endpoint().port()).isNotEqualTo(second.endpoint().port());
			LettuceConnectionFactory firstFactory = TestRedis.connectionFactory(first.endpoint(), TIMEOUT);
			LettuceConnectionFactory secondFactory = TestRedis.connectionFactory(second.endpoint(), TIMEOUT);
			TestRedis.template(firstFactory).opsForValue().set("only-here", "1");
			assertThat(TestRedis.template(secondFactory).hasKey("only-here")).isFalse();
			assertThat(TestRedis.template(firstFactory).hasKey("only-here")).isTrue();
			firstFactory.destroy();
			secondFactory.destroy();
		}
	}

	@Test
	void embeddedBinaryServesToo() {
		try (RedisServerHandle server = TestRedis.startEmbeddedServer()) {
			try (AdminConnection connection = new AdminConnection(server.endpoint())) {
				assertThat(connection.commands().info("server")).contains("redis_version:6.2.");
			}
			LettuceConnectionFactory factory = TestRedis.connectionFactory(server.endpoint(), TIMEOUT);
			StringRedisTemplate redis = TestRedis.template(factory);
			redis.opsForValue().set("embedded", "ok");
			assertThat(redis.opsForValue().get("embedded")).isEqualTo("ok");
			factory.destroy();
		}
	}

	@Test
	void parsesEndpoints() {
		assertThat(RedisEndpoint.parse("localhost:6380")).isEqualTo(new RedisEndpoint("localhost", 6380));
		assertThat(RedisEndpoint.parse("redis://10.0.0.1:7000/0").uri()).isEqualTo("redis://10.0.0.1:7000");
		assertThatIllegalArgumentException().isThrownBy(() -> RedisEndpoint.parse("localhost"))
			.withMessageContaining("'localhost'");
		assertThatIllegalArgumentException().isThrownBy(() -> RedisEndpoint.parse("localhost:port"))
			.withMessage("Expected a port number in 'localhost:port'");
		assertThatIllegalArgumentException().isThrownBy(() -> RedisEndpoint.parse("redis://user:secret@host:6379"))
			.withMessageContaining("without credentials");
	}

	private static void assertRefusesConnections(RedisEndpoint endpoint) {
		assertThatExceptionOfType(ConnectException.class)
			.isThrownBy(() -> new Socket(endpoint.host(), endpoint.port()).close());
	}

	private static boolean eventually(BooleanSupplier condition) {
		long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
		while (System.nanoTime() - deadline < 0) {
			try {
				if (condition.getAsBoolean()) {
					return true;
				}
			}
			catch (DataAccessException ex) {
				// not back yet
			}
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		return false;
	}

}
