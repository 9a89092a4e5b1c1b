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

package dev.distlock.test.autoconfigure;

import dev.distlock.LockAcquisitionException;
import dev.distlock.core.LockClient;
import dev.distlock.redis.RedisLockStore;
import dev.distlock.test.InMemoryLocks;
import dev.distlock.test.LockAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link AutoConfigureInMemoryLocks} in a Spring Boot test with every
 * auto-configuration of the classpath, Spring Boot's Redis one included: the in-memory
 * client replaces the Redis lock client, and no Redis server is needed.
 *
 * @author distlock
 */
@SpringBootTest(properties = "spring.data.redis.port=1")
@AutoConfigureInMemoryLocks
class AutoConfigureInMemoryLocksTests {

	@Autowired
	private ApplicationContext context;

	@Autowired
	private InMemoryLocks locks;

	@Autowired
	private LockedService service;

	@AfterEach
	void forgetHolds() {
		this.locks.clearHolds();
	}

	@Test
	void inMemoryClientReplacesTheRedisLockClient() {
		assertThat(this.context.getBeansOfType(StringRedisTemplate.class)).isNotEmpty();
		assertThat(this.context.getBeansOfType(RedisLockStore.class)).isEmpty();
		assertThat(this.context.getBean(LockClient.class)).isSameAs(this.locks.client());
	}

	@Test
	void lockedBeanRunsUnderItsLock() {
		LockAssertions.assertRanUnderLock(this.locks, "order:8", () -> this.service.order(8));
	}

	@Test
	void busyKeyFailsTheLockedMethod() {
		this.locks.makeBusy("order:9");
		try {
			assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> this.service.order(9));
			assertThat(this.locks.holds()).isEmpty();
		}
		finally {
			this.locks.makeFree("order:9");
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		LockedService lockedService(InMemoryLocks locks) {
			return new LockedService(locks);
		}

	}

}
