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

package dev.distlock.autoconfigure;

import java.util.Arrays;
import java.util.UUID;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.aop.DistributedLockAdvisor;
import dev.distlock.testing.redis.TestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter's auto-configuration together with Spring Boot's own Redis and AOP
 * auto-configuration (loaded by name, Spring Boot 3.5 or 4.x), on a real Redis.
 *
 * @author distlock
 */
class AutoConfiguredApplicationTests {

	private static final String[] BOOT_AUTO_CONFIGURATIONS = {
			"org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
			"org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration",
			"org.springframework.boot.autoconfigure.aop.AopAutoConfiguration" };

	private final String prefix = "app-" + UUID.randomUUID() + ":";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class))
		.withConfiguration(AutoConfigurations.of(bootAutoConfigurations()))
		.withPropertyValues("spring.data.redis.host=" + TestRedis.endpoint().host(),
				"spring.data.redis.port=" + TestRedis.endpoint().port(), "distlock.key-prefix=" + this.prefix)
		.withUserConfiguration(JobConfiguration.class);

	@Test
	void locksOnTheRedisThatSpringBootConfigures() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThat(AopUtils.isAopProxy(jobs)).isTrue();
			assertThat(jobs.run("nightly")).isTrue();
			assertThat(context.getBean(StringRedisTemplate.class).hasKey(lockKey("job:nightly"))).isFalse();
		});
	}

	@Test
	void locksWithoutAspectJOnTheClasspath() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.aspectj")).run((context) -> {
			assertThat(ClassUtils.isPresent("org.aspectj.weaver.Advice", context.getClassLoader())).isFalse();
			assertThat(context).hasSingleBean(DistributedLockAdvisor.class);
			assertThat(context.getBean(Jobs.class).run("hourly")).isTrue();
		});
	}

	@Test
	void locksWhenSpringBootsAopAutoProxyingIsOff() {
		this.contextRunner.withPropertyValues("spring.aop.auto=false").run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThat(AopUtils.isAopProxy(jobs)).isTrue();
			assertThat(jobs.run("weekly")).isTrue();
		});
	}

	private String lockKey(String key) {
		return this.prefix + "{" + key + "}";
	}

	private static Class<?>[] bootAutoConfigurations() {
		return Arrays.stream(BOOT_AUTO_CONFIGURATIONS)
			.filter((name) -> ClassUtils.isPresent(name, null))
			.map((name) -> ClassUtils.resolveClassName(name, null))
			.toArray(Class<?>[]::new);
	}

	@Configuration(proxyBeanMethods = false)
	static class JobConfiguration {

		@Bean
		Jobs jobs(StringRedisTemplate redis, @Value("${distlock.key-prefix}") String prefix) {
			return new Jobs(redis, prefix);
		}

	}

	public static class Jobs {

		private final StringRedisTemplate redis;

		private final String prefix;

		Jobs(StringRedisTemplate redis, String prefix) {
			this.redis = redis;
			this.prefix = prefix;
		}

		/**
		 * Run a job under its lock.
		 * @return whether the lock key existed in Redis while the job ran
		 */
		@DistributedLock(key = "'job:' + #name")
		public boolean run(String name) {
			return Boolean.TRUE.equals(this.redis.hasKey(this.prefix + "{job:" + name + "}"));
		}

	}

}
