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

package dev.distlock.zookeeper;

import java.time.Duration;

import dev.distlock.core.LockClient;
import dev.distlock.core.LockHold;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application on exactly this starter's dependencies: no Redis on its class path, and
 * the ZooKeeper store selected without {@code distlock.store}, by Spring Boot's own
 * auto-configuration.
 *
 * @author distlock
 */
class ZooKeeperStarterTests {

	@Test
	void bringsNoRedis() {
		assertThat(ClassUtils.isPresent("dev.distlock.redis.RedisLockStore", null)).isFalse();
		assertThat(ClassUtils.isPresent("org.springframework.data.redis.core.StringRedisTemplate", null)).isFalse();
		assertThat(ClassUtils.isPresent("io.lettuce.core.RedisClient", null)).isFalse();
		assertThat(ClassUtils.isPresent("redis.clients.jedis.Jedis", null)).isFalse();
	}

	@Test
	void selectsTheZooKeeperStoreAloneAndLocks() throws Exception {
		try (TestingServer server = new TestingServer(true);
				ConfigurableApplicationContext context = new SpringApplicationBuilder(StarterApplication.class)
					.web(WebApplicationType.NONE)
					.properties("distlock.zookeeper.connect-string=" + server.getConnectString(),
							"distlock.zookeeper.session-timeout=40s")
					.run()) {
			assertThat(context.getBeansOfType(ZooKeeperLockStore.class)).hasSize(1);
			try (LockHold hold = context.getBean(LockClient.class).acquire("starter", Duration.ofSeconds(10), null)) {
				assertThat(hold.fencingToken()).isPositive();
			}
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class StarterApplication {

	}

}
