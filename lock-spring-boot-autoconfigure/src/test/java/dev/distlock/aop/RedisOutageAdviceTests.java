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

package dev.distlock.aop;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.LockBackendException;
import dev.distlock.annotation.DistributedLock;
import dev.distlock.autoconfigure.LockAspectAutoConfiguration;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import dev.distlock.test.RedisServerHandle;
import dev.distlock.test.TestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.EnableAspectJAutoProxy;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The {@code @DistributedLock} advice fails closed when Redis is unreachable: the method
 * does not run.
 *
 * @author distlock
 */
class RedisOutageAdviceTests {

	@Test
	void doesNotRunTheMethodWhenRedisIsDown() {
		try (RedisServerHandle server = TestRedis.startServer()) {
			LettuceConnectionFactory connectionFactory = TestRedis.connectionFactory(server.endpoint(),
					Duration.ofSeconds(2));
			try {
				StringRedisTemplate redis = TestRedis.template(connectionFactory);
				new ApplicationContextRunner()
					.withConfiguration(
							AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class))
					.withBean(StringRedisTemplate.class, () -> redis)
					.withUserConfiguration(JobConfiguration.class)
					.run((context) -> {
						Job job = context.getBean(Job.class);
						job.run();
						server.stop();
						assertThatExceptionOfType(LockBackendException.class).isThrownBy(job::run);
						assertThat(job.runs()).isEqualTo(1);
					});
			}
			finally {
				connectionFactory.destroy();
			}
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAspectJAutoProxy(proxyTargetClass = true)
	static class JobConfiguration {

		@Bean
		Job job() {
			return new Job();
		}

	}

	static class Job {

		private final AtomicInteger runs = new AtomicInteger();

		@DistributedLock(key = "'job'")
		public void run() {
			this.runs.incrementAndGet();
		}

		public int runs() {
			return this.runs.get();
		}

	}

}
