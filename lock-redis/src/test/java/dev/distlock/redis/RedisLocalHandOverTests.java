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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import dev.distlock.store.LocalHandOverExtension;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.support.Stages;
import dev.distlock.testing.redis.RedisServerHandle;
import dev.distlock.testing.redis.TestRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Hand-over without a request on Redis ({@link LocalHandOverExtension}): every fencing
 * token a grant gets is a multiple of the store's room and above every earlier one of the
 * key, whatever the fence key holds, and a client passes a lock among its own callers
 * without a Redis command. Counted with {@code INFO commandstats} on a server of this
 * class alone, never timed.
 *
 * @author distlock
 */
class RedisLocalHandOverTests {

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static RedisServerHandle server;

	private static LettuceConnectionFactory connectionFactory;

	private static StringRedisTemplate redis;

	private RedisLockStore store;

	@BeforeAll
	static void startServer() {
		server = TestRedis.startServer();
		connectionFactory = TestRedis.connectionFactory(server.endpoint(), Duration.ofSeconds(5));
		redis = TestRedis.template(connectionFactory);
	}

	@AfterAll
	static void stopServer() {
		if (connectionFactory != null) {
			connectionFactory.destroy();
		}
		if (server != null) {
			server.close();
		}
	}

	@BeforeEach
	void createStore() {
		this.store = new RedisLockStore(redis);
	}

	@AfterEach
	void closeStore() {
		this.store.close();
	}

	@Test
	void theStoreLeavesRoomForTheClientsRunOfHandOversWithoutARequest() {
		assertThat(this.store.extension(LocalHandOverExtension.class)).isSameAs(this.store);
		// The client passes a lock at most 7 times in a row without a request, each with
		// the fencing token plus one: all of them below the next multiple of the room
		assertThat(this.store.fenceRoom()).isEqualTo(LuaHelpers.FENCE_ROOM).isGreaterThanOrEqualTo(8);
	}

	@Test
	void fencingTokensAreMultiplesOfTheRoomAndRiseWhateverTheFenceKeyHolds() {
		long room = this.store.fenceRoom();
		String key = "fences:" + UUID.randomUUID();
		String fenceKey = LockKeys.of(RedisLockStore.DEFAULT_KEY_PREFIX, key).fenceKey();
		List<Long> fences = new ArrayList<>();
		fences.add(acquireAndRelease(key));
		fences.add(acquireAndRelease(key));

		// The fence key dropped, as its expiry or an eviction would: the clock rule
		redis.delete(fenceKey);
		fences.add(acquireAndRelease(key));

		// A last token of a version that did not space them, ahead of the clock
		long unspaced = fences.get(fences.size() - 1) + 1_000_000 * room + 5;
		redis.opsForValue().set(fenceKey, Long.toString(unspaced), LEASE);
		long afterUnspaced = acquireAndRelease(key);
		assertThat(afterUnspaced).as("the next multiple above an unspaced last token").isEqualTo(unspaced - 5 + room);
		fences.add(afterUnspaced);

		// A clock behind the last token: the next multiple above it, by a hand-over
		long ahead = afterUnspaced + 2_000_000 * room;
		redis.opsForValue().set(fenceKey, Long.toString(ahead), LEASE);
		Attempt attempt = Stages.join(this.store.tryAcquire(key, "holder", LEASE));
		assertThat(attempt.acquired()).isTrue();
		long acquired = attempt.fencingToken();
		assertThat(acquired).as("a grant while the clock is behind").isEqualTo(ahead + room);
		fences.add(acquired);
		Attempt handedOver = Stages.join(this.store.handOver(key, "holder", "next", LEASE));
		assertThat(handedOver).isNotNull();
		assertThat(handedOver.fencingToken()).as("a hand-over through the store").isEqualTo(acquired + room);
		fences.add(handedOver.fencingToken());
		assertThat(Stages.join(this.store.release(key, "next"))).isTrue();

		// Several keys in one step, one of them the key above
		List<Attempt> all = Stages
			.join(this.store.tryAcquireAll(List.of(key, "fences:" + UUID.randomUUID()), "all", LEASE));
		assertThat(all).isNotNull().hasSize(2);
		fences.add(all.get(0).fencingToken());
		assertThat(all.get(1).fencingToken() % room).as("several keys: the other key's token").isZero();

		for (int i = 0; i < fences.size(); i++) {
			assertThat(fences.get(i) % room).as("fencing token %s (%s) is a multiple of %s", i, fences.get(i), room)
				.isZero();
			if (i > 0) {
				assertThat(fences.get(i)).as("fencing token %s after %s", i, i - 1).isGreaterThan(fences.get(i - 1));
			}
		}
	}

	@Test
	void handOversAmongCallersOfOneClientSendNoRedisCommand() throws Exception {
		// A lease long enough that no renewal falls into a count
		DefaultLockClient client = new DefaultLockClient(this.store,
				LockClientSettings.defaults().withWatchdogLease(Duration.ofMinutes(10)));
		try {
			passAmong(client, 1);
			Passed one = passAmong(client, 1);
			Passed seven = passAmong(client, 7);
			assertThat(seven.commands())
				.as("Redis commands to hand the lock to 7 callers, as to 1: the first hand-over goes through the "
						+ "store, the 6 more without a request")
				.isEqualTo(one.commands())
				.isPositive();
			List<Long> fences = seven.fences();
			assertThat(fences).hasSize(8);
			assertThat(fences.get(1) % this.store.fenceRoom()).as("the hand-over through the store").isZero();
			for (int i = 2; i < fences.size(); i++) {
				assertThat(fences.get(i)).as("fencing token of hand-over %s, without a request", i)
					.isEqualTo(fences.get(i - 1) + 1);
			}
		}
		finally {
			client.close();
		}
	}

	private long acquireAndRelease(String key) {
		Attempt attempt = Stages.join(this.store.tryAcquire(key, "owner", LEASE));
		assertThat(attempt.acquired()).isTrue();
		assertThat(Stages.join(this.store.release(key, "owner"))).isTrue();
		return attempt.fencingToken();
	}

	/**
	 * Hold a new key, queue {@code waiters} callers of {@code client}, release: return
	 * the Redis commands from that release until the last caller released the key, and
	 * the fencing tokens of all holders in order.
	 */
	private static Passed passAmong(DefaultLockClient client, int waiters) throws Exception {
		String key = "count:" + UUID.randomUUID();
		List<Long> fences = new ArrayList<>();
		LockHold holder = client.acquire(key, Duration.ZERO, null);
		fences.add(holder.fencingToken());
		List<CompletableFuture<Void>> served = new ArrayList<>();
		for (int i = 0; i < waiters; i++) {
			served.add(client.acquireAsync(key, WAIT, null).thenCompose((hold) -> {
				synchronized (fences) {
					fences.add(hold.fencingToken());
				}
				return hold.releaseAsync();
			}).toCompletableFuture());
			int queued = i + 1;
			await().atMost(WAIT).until(() -> client.waitingCount(key) == queued);
		}
		long before = commands();
		holder.release();
		CompletableFuture.allOf(served.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
		long commands = commands() - before;
		synchronized (fences) {
			return new Passed(commands, List.copyOf(fences));
		}
	}

	/**
	 * Return how many commands Redis ran so far, but {@code INFO}: the scripts and what
	 * runs outside them.
	 */
	private static long commands() {
		Properties stats = redis.execute((RedisCallback<Properties>) RedisLocalHandOverTests::commandStats);
		assertThat(stats).isNotNull();
		long commands = 0;
		for (String name : stats.stringPropertyNames()) {
			if (!name.startsWith("cmdstat_info")) {
				String calls = stats.getProperty(name).split(",")[0];
				commands += Long.parseLong(calls.substring("calls=".length()));
			}
		}
		return commands;
	}

	private static Properties commandStats(RedisConnection connection) {
		return connection.serverCommands().info("commandstats");
	}

	private record Passed(long commands, List<Long> fences) {

	}

}
