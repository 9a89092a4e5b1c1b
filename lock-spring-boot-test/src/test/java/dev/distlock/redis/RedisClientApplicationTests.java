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
import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHold;
import dev.distlock.testing.redis.RedisEndpoint;
import dev.distlock.testing.redis.TestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring Boot application with one Redis client on its classpath (the other one absent)
 * starts, locks an annotated method on a real Redis and takes a lock through
 * {@link LockClient}. Run by the surefire executions {@code jedis-only} and
 * {@code lettuce-only}, each with the other client removed from the classpath.
 *
 * @author distlock
 */
abstract class RedisClientApplicationTests {

	/**
	 * Return the class name of the connection factory Spring Boot must configure.
	 */
	protected abstract String expectedConnectionFactory();

	/**
	 * Return a class of the client that must be absent.
	 */
	protected abstract String absentClientClass();

	@Test
	void startsAndLocksAnAnnotatedMethodAndThroughTheLockClient() throws Exception {
		assertThat(ClassUtils.isPresent(absentClientClass(), getClass().getClassLoader()))
			.as("%s is absent from this classpath", absentClientClass())
			.isFalse();
		RedisEndpoint endpoint = TestRedis.endpoint();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(LockedApplication.class)
			.web(WebApplicationType.NONE)
			.properties("spring.data.redis.host=" + endpoint.host(), "spring.data.redis.port=" + endpoint.port(),
					"spring.data.redis.timeout=5s",
					// the JDBC store is on this module's test classpath too, with H2
					"distlock.store=redis")
			.run()) {
			assertThat(context.getBean(RedisConnectionFactory.class).getClass().getName())
				.isEqualTo(expectedConnectionFactory());
			LockedOrders orders = context.getBean(LockedOrders.class);
			String order = getClass().getSimpleName();
			assertThat(orders.place(order)).as("the lock key exists while the method runs").isTrue();
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			assertThat(redis.hasKey(LockedOrders.lockKey(order))).as("released after the method").isFalse();
			LockClient client = context.getBean(LockClient.class);
			try (LockHold hold = client.acquire("client:" + order, Duration.ZERO, null)) {
				assertThat(hold.isValid()).isTrue();
				assertThat(redis.hasKey(LockKeys.of(RedisLockStore.DEFAULT_KEY_PREFIX, "client:" + order).lockKey()))
					.isTrue();
			}
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class LockedApplication {

		@Bean
		LockedOrders lockedOrders(StringRedisTemplate redis) {
			return new LockedOrders(redis);
		}

	}

	static class LockedOrders {

		private final StringRedisTemplate redis;

		private final AtomicBoolean running = new AtomicBoolean();

		LockedOrders(StringRedisTemplate redis) {
			this.redis = redis;
		}

		static String lockKey(String order) {
			return LockKeys.of(RedisLockStore.DEFAULT_KEY_PREFIX, "order:" + order).lockKey();
		}

		@DistributedLock(key = "'order:' + #order")
		public boolean place(String order) {
			assertThat(this.running.compareAndSet(false, true)).isTrue();
			try {
				return Boolean.TRUE.equals(this.redis.hasKey(lockKey(order)));
			}
			finally {
				this.running.set(false);
			}
		}

	}

}
