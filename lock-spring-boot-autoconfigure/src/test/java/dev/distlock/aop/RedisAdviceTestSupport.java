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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import dev.distlock.autoconfigure.LockAspectAutoConfiguration;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.redis.RedisLockStore;
import dev.distlock.testing.redis.TestRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Base class of the advice tests: a connection to the shared test Redis, a context runner
 * with the distlock auto-configuration on that Redis, a key prefix unique to each test,
 * and a second lock client that plays another instance of the application.
 *
 * @author distlock
 */
abstract class RedisAdviceTestSupport {

	static LettuceConnectionFactory connectionFactory;

	static StringRedisTemplate redis;

	final String prefix = "advice-" + UUID.randomUUID() + ":";

	private final List<DefaultLockClient> otherClients = new ArrayList<>();

	@BeforeAll
	static void connect() {
		// Generous: a first script on a cold JVM, under BlockHound's instrumentation on a
		// loaded CI machine, took over 2 s; the outage tests set their own short timeout
		connectionFactory = TestRedis.connectionFactory(TestRedis.endpoint(), Duration.ofSeconds(10));
		redis = TestRedis.template(connectionFactory);
	}

	@AfterAll
	static void disconnect() {
		connectionFactory.destroy();
	}

	@AfterEach
	void closeOtherClients() {
		this.otherClients.forEach(DefaultLockClient::close);
	}

	ApplicationContextRunner contextRunner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class))
			.withBean(StringRedisTemplate.class, () -> redis)
			.withPropertyValues("distlock.key-prefix=" + this.prefix);
	}

	/**
	 * Return a lock client on the same Redis and prefix, standing for another instance of
	 * the application.
	 */
	DefaultLockClient otherInstance() {
		DefaultLockClient client = new DefaultLockClient(new RedisLockStore(redis, this.prefix),
				LockClientSettings.defaults());
		this.otherClients.add(client);
		return client;
	}

	/**
	 * Return the lock keys that exist in Redis under this test's prefix, as the
	 * application named them.
	 */
	Set<String> lockedKeys() {
		return lockedKeys(this.prefix);
	}

	static Set<String> lockedKeys(String prefix) {
		return redis.keys(prefix + "*")
			.stream()
			.filter((key) -> key.endsWith("}"))
			.map((key) -> key.substring(prefix.length() + 1, key.length() - 1))
			.collect(Collectors.toSet());
	}

	static String redisKey(String prefix, String key) {
		return prefix + "{" + key + "}";
	}

}
