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
package dev.distlock.autoconfigure.redis;

import dev.distlock.autoconfigure.LockAutoConfiguration;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Startup warns, naming both properties, when the Redis command timeout
 * ({@code spring.data.redis.timeout}) is not below {@code distlock.watchdog-lease} minus
 * the renewal interval. The factory is never started: no Redis is needed.
 *
 * @author distlock
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisTimeoutWarningTests {

	private static final String WARNING = "spring.data.redis.timeout (";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class));

	@Test
	void warnsWhenTheCommandTimeoutIsNotBelowTheLeaseMinusTheRenewalInterval(CapturedOutput output) {
		this.contextRunner.withBean(StringRedisTemplate.class, () -> template(Duration.ofSeconds(60)))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).contains("spring.data.redis.timeout (60000 ms")
					.contains("distlock.watchdog-lease (30000 ms) minus its renewal interval (10000 ms)")
					.contains("set spring.data.redis.timeout below 20000 ms or raise distlock.watchdog-lease");
			});
	}

	@Test
	void warnsForAShorterLeaseToo(CapturedOutput output) {
		this.contextRunner.withBean(StringRedisTemplate.class, () -> template(Duration.ofSeconds(2)))
			.withPropertyValues("distlock.watchdog-lease=3s")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).contains("spring.data.redis.timeout (2000 ms")
					.contains("distlock.watchdog-lease (3000 ms) minus its renewal interval (1000 ms)");
			});
	}

	@Test
	void doesNotWarnWhenTheCommandTimeoutIsBelowTheLeaseMinusTheRenewalInterval(CapturedOutput output) {
		this.contextRunner.withBean(StringRedisTemplate.class, () -> template(Duration.ofSeconds(5))).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).doesNotContain(WARNING);
		});
	}

	private static StringRedisTemplate template(Duration commandTimeout) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(),
				LettuceClientConfiguration.builder().commandTimeout(commandTimeout).build());
		factory.afterPropertiesSet();
		return new StringRedisTemplate(factory);
	}

}
