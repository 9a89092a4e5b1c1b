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
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHandle;
import dev.distlock.testing.redis.TestRedis;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Base class of the tests on the shared test Redis (the store's and the engine's): one
 * connection to the shared test Redis, clients that are closed after each test, and
 * unique keys so tests never see each other's locks.
 *
 * @author distlock
 */
public abstract class RedisStoreTestSupport {

	protected static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

	protected static LettuceConnectionFactory connectionFactory;

	protected static StringRedisTemplate redis;

	private final List<LockClient> clients = new ArrayList<>();

	private final List<RedisLockStore> stores = new ArrayList<>();

	@BeforeAll
	static void connect() {
		connectionFactory = TestRedis.connectionFactory(TestRedis.endpoint(), COMMAND_TIMEOUT);
		redis = TestRedis.template(connectionFactory);
	}

	@AfterAll
	static void disconnect() {
		connectionFactory.destroy();
	}

	@AfterEach
	void closeClientsAndStores() {
		this.clients.forEach(LockClient::close);
		this.stores.forEach(RedisLockStore::close);
	}

	/**
	 * A store on the shared test Redis, for tests that call its methods directly; closed
	 * after the test.
	 */
	protected RedisLockStore newStore() {
		RedisLockStore store = new RedisLockStore(redis);
		this.stores.add(store);
		return store;
	}

	protected DefaultLockClient newClient() {
		return newClient(LockClientSettings.defaults());
	}

	protected DefaultLockClient newClient(LockClientSettings settings) {
		return register(new DefaultLockClient(new RedisLockStore(redis), settings));
	}

	protected <C extends LockClient> C register(C client) {
		this.clients.add(client);
		return client;
	}

	/**
	 * Acquire {@code key} with a client of its own, as another instance would hold it.
	 */
	protected LockHandle heldByAnotherClient(String key) throws InterruptedException {
		LockHandle holder = newClient().obtain(key);
		assertThat(holder.tryLock(Duration.ZERO)).as("%s acquired", key).isTrue();
		return holder;
	}

	/**
	 * Wait until {@code client} has a caller waiting for {@code key}.
	 */
	protected static void awaitWaiting(DefaultLockClient client, String key) {
		Awaitility.await("somebody waits for " + key)
			.atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(5))
			.until(() -> client.waitingCount(key) > 0);
	}

	protected static String uniqueKey(String name) {
		return name + ":" + UUID.randomUUID();
	}

	protected static String lockKey(String key) {
		return RedisLockStore.DEFAULT_KEY_PREFIX + "{" + key + "}";
	}

	/**
	 * Return how many scripts Redis has run so far (EVAL and EVALSHA calls).
	 */
	protected static long scriptCalls() {
		Properties stats = redis.execute((RedisCallback<Properties>) (c) -> c.serverCommands().info("commandstats"));
		return calls(stats, "cmdstat_evalsha") + calls(stats, "cmdstat_eval");
	}

	private static long calls(Properties stats, String command) {
		String value = stats.getProperty(command);
		if (value == null) {
			return 0;
		}
		String calls = value.split(",")[0];
		return Long.parseLong(calls.substring(calls.indexOf('=') + 1));
	}

}
