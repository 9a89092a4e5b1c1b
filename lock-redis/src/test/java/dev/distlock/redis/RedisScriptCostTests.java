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
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.store.FairQueueLimits;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;
import dev.distlock.store.LockStore.Renewal;
import dev.distlock.store.LockStore.RenewalOutcome;
import dev.distlock.store.LockStore.Subscription;
import dev.distlock.store.support.Stages;
import dev.distlock.testing.redis.RedisServerHandle;
import dev.distlock.testing.redis.TestRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scripts' cost does not grow with the number of readers of a key or with the number
 * of waiters that left or disappeared from a fair queue: measured as the commands Redis
 * ran inside the scripts ({@code INFO commandstats}, call counts only, on a server of
 * this class alone), never as time.
 *
 * @author distlock
 */
class RedisScriptCostTests {

	private static final Duration LEASE = Duration.ofSeconds(60);

	/**
	 * Commands whose cost is O(1) or O(log n) plus what they remove; a script that reads
	 * a whole collection (HGETALL, HKEYS, LRANGE...) would use others. {@code scripts}
	 * counts the scripts run.
	 */
	private static final List<String> BOUNDED_COMMANDS = List.of("time", "type", "get", "set", "del", "exists", "pttl",
			"pexpire", "pexpireat", "zadd", "zrem", "zscore", "zcard", "zrange", "zremrangebyscore", "hget", "hset",
			"hdel", "publish", "spublish", "scripts");

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
	void renewingReadLocksCostsTheSameWith50Or5000ReadersAndPrunesOncePerKey() {
		Map<String, Long> few = renewalOfReaders("few", 50);
		Map<String, Long> many = renewalOfReaders("many", 5_000);
		assertThat(many).isEqualTo(few);
		assertThat(many).containsEntry("zremrangebyscore", 1L).containsEntry("zadd", 500L);
		assertThat(many.keySet()).isSubsetOf(BOUNDED_COMMANDS);
	}

	@Test
	void acquiringAndReleasingAReadLockCostsTheSameWith50Or5000Readers() {
		assertThat(readerComesAndGoes("many", 5_000)).isEqualTo(readerComesAndGoes("few", 50))
			.doesNotContainKeys("hgetall", "hkeys", "zrangebyscore")
			.containsEntry("zremrangebyscore", 2L);
	}

	/**
	 * Issue 38: the read-write benchmark's readers after the module split. Through the
	 * client, a reader's acquire and release are one script each, with the same commands
	 * as the store's own calls before the split plus the released-by marker (one SET), no
	 * subscription and nothing published while nobody waits; readers of one client that
	 * overlap are never refused and never ask twice.
	 */
	@Test
	void aReaderOfTheClientRunsOneScriptToAcquireAndOneToReleaseAlsoWhenReadersOverlap() throws Exception {
		int operations = 20;
		try (DefaultLockClient client = new DefaultLockClient(new RedisLockStore(redis))) {
			readOnce(client, "read-path");
			Map<String, Long> one = measure(() -> {
				for (int i = 0; i < operations; i++) {
					readOnce(client, "read-path");
				}
			});
			assertThat(one)
				.as("per reader: acquire (TYPE, the writer-waiting EXISTS, TIME, ZADD, the readers' "
						+ "pruning and expiry) and release (GET, ZSCORE, ZREM, the pruning, the released-by SET)")
				.isEqualTo(times(operations,
						Map.ofEntries(Map.entry("scripts", 2L), Map.entry("type", 1L), Map.entry("exists", 1L),
								Map.entry("time", 2L), Map.entry("zadd", 1L), Map.entry("zremrangebyscore", 2L),
								Map.entry("zcard", 1L), Map.entry("zrange", 3L), Map.entry("pexpireat", 1L),
								Map.entry("get", 2L), Map.entry("zscore", 1L), Map.entry("zrem", 1L),
								Map.entry("set", 1L))));
			int threads = 8;
			Map<String, Long> overlapping = measure(() -> {
				List<CompletableFuture<Void>> readers = new ArrayList<>();
				for (int thread = 0; thread < threads; thread++) {
					readers.add(CompletableFuture.runAsync(() -> {
						for (int i = 0; i < operations; i++) {
							readOnce(client, "read-path");
						}
					}));
				}
				readers.forEach(CompletableFuture::join);
			});
			assertThat(overlapping.get("scripts")).as("one script to acquire and one to release, never refused")
				.isEqualTo(2L * threads * operations);
			assertThat(overlapping).doesNotContainKeys("publish", "spublish", "psubscribe", "subscribe");
		}
	}

	/**
	 * Take and give back the read lock of {@code key} through the client's read locks.
	 */
	private static void readOnce(DefaultLockClient client, String key) {
		LockHandle reader = client.readLocks().obtain(key);
		try {
			assertThat(reader.tryLock(Duration.ofSeconds(10))).isTrue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		reader.unlock();
	}

	private static Map<String, Long> times(int count, Map<String, Long> perOperation) {
		Map<String, Long> total = new TreeMap<>();
		perOperation.forEach((command, calls) -> total.put(command, calls * count));
		return total;
	}

	@Test
	void waitersThatLeftAFairQueueLeaveNothingBehind() {
		String key = "left";
		assertThat(Stages.join(this.store.tryAcquireFair(key, "holder", LEASE, null)).acquired()).isTrue();
		joinAll(20_000, (i) -> this.store.tryAcquireFair(key, "waiter-" + i, LEASE, LEASE).toCompletableFuture());
		LockKeys keys = LockKeys.of(this.store.keyPrefix(), key);
		assertThat(redis.opsForZSet().zCard(keys.queueKey())).isEqualTo(20_000);
		joinAll(20_000, (i) -> this.store.leave(key, "waiter-" + i).toCompletableFuture());
		assertThat(redis.hasKey(keys.queueKey())).isFalse();
		assertThat(redis.hasKey(keys.aliveKey())).isFalse();
		assertThat(redis.hasKey(keys.grantsKey())).isFalse();
		assertThat(Stages.join(this.store.release("warm-up", "nobody"))).as("loads the script").isFalse();
		Map<String, Long> release = measure(() -> Stages.join(this.store.release(key, "holder")));
		assertThat(Stages.join(this.store.tryAcquireFair("empty", "holder", LEASE, null)).acquired()).isTrue();
		assertThat(release).isEqualTo(measure(() -> Stages.join(this.store.release("empty", "holder"))));
	}

	@Test
	void aReleaseDropsABoundedNumberOfGoneWaitersHoweverManyThereAre() {
		int budget = FairQueueLimits.GONE_WAITERS_PER_STEP;
		Map<String, Long> few = releaseBehindGoneWaiters("gone-few", 2 * budget);
		Map<String, Long> many = releaseBehindGoneWaiters("gone-many", 20_000);
		assertThat(many).isEqualTo(few);
		assertThat(many.keySet()).isSubsetOf(BOUNDED_COMMANDS);
		LockKeys keys = LockKeys.of(this.store.keyPrefix(), "gone-many");
		assertThat(redis.opsForZSet().zCard(keys.queueKey())).as("the live waiter and the gone ones not yet dropped")
			.isEqualTo(20_000 - budget + 1);
	}

	@Test
	void anUncontendedAcquireAndReleaseRunOneScriptEachWithoutWaitingBookkeeping() {
		assertThat(Stages.join(this.store.tryAcquire("warm-up", "owner", LEASE)).acquired()).isTrue();
		assertThat(Stages.join(this.store.release("warm-up", "owner"))).isTrue();
		Map<String, Long> acquire = measure(
				() -> assertThat(Stages.join(this.store.tryAcquire("fast", "owner", LEASE)).acquired()).isTrue());
		assertThat(acquire).as("SET NX PX and the fence (TIME, SET GET)")
			.isEqualTo(Map.of("scripts", 1L, "set", 2L, "time", 1L));
		Map<String, Long> release = measure(
				() -> assertThat(Stages.join(this.store.release("fast", "owner"))).isTrue());
		// The released-by marker (one SET) is the one command added to the fast path: a
		// release re-sent after a reconnect must answer "released" as the first run did
		assertThat(release)
			.as("owner check (one GET), DEL, the released-by marker (one SET), one EXISTS for waiters, "
					+ "and nothing published")
			.isEqualTo(Map.of("scripts", 1L, "get", 1L, "del", 1L, "set", 1L, "exists", 1L));
	}

	@Test
	void aRefusedCallerThatListensToEveryReleaseRegistersSoThatTheReleasePublishes() {
		LockKeys keys = LockKeys.of(this.store.keyPrefix(), "listened");
		assertThat(Stages.join(this.store.tryAcquire("listened", "owner", LEASE)).acquired()).isTrue();
		assertThat(Stages.join(this.store.tryAcquire("listened", "once", LEASE)).acquired()).isFalse();
		assertThat(redis.hasKey(keys.waitersKey())).as("a caller that does not wait leaves nothing behind").isFalse();
		try (Subscription listening = this.store.onRelease("listened", () -> {
		})) {
			assertThat(Stages.join(this.store.tryAcquire("listened", "other", LEASE)).acquired()).isFalse();
			assertThat(redis.opsForZSet().range(keys.waitersKey(), 0, -1)).containsExactly(LuaHelpers.EVERY_RELEASE);
			assertThat(redis.getExpire(keys.waitersKey())).isPositive();
			Map<String, Long> release = measure(
					() -> assertThat(Stages.join(this.store.release("listened", "owner"))).isTrue());
			assertThat(release).containsEntry("publish", 1L);
			assertThat(redis.opsForZSet().range(keys.waitersKey(), 0, -1))
				.as("listeners of every release stay registered until their time runs out")
				.containsExactly(LuaHelpers.EVERY_RELEASE);
		}
		assertThat(this.store.listensToEveryRelease("listened")).isFalse();
	}

	@Test
	void refusedReadersAndCallersOfSeveralKeysThatListenRegister() {
		assertThat(Stages.join(this.store.tryAcquire("written", "writer", LEASE)).acquired()).isTrue();
		assertThat(Stages.join(this.store.tryAcquire("several:b", "holder", LEASE)).acquired()).isTrue();
		try (Subscription reader = this.store.onRelease("written", () -> {
		}); Subscription several = this.store.onRelease("several:b", () -> {
		})) {
			assertThat(Stages.join(this.store.tryAcquireRead("written", "reader", LEASE)).acquired()).isFalse();
			assertThat(redis.opsForZSet().range(LockKeys.of(this.store.keyPrefix(), "written").waitersKey(), 0, -1))
				.containsExactly(LuaHelpers.EVERY_RELEASE);
			List<?> attempts = Stages.join(this.store.tryAcquireAll(List.of("several:a", "several:b"), "both", LEASE));
			assertThat(attempts).isNotNull().hasSize(2);
			assertThat(redis.hasKey(LockKeys.of(this.store.keyPrefix(), "several:a").waitersKey()))
				.as("only busy locks are listened to")
				.isFalse();
			assertThat(redis.opsForZSet().range(LockKeys.of(this.store.keyPrefix(), "several:b").waitersKey(), 0, -1))
				.containsExactly(LuaHelpers.EVERY_RELEASE);
			assertThat(measure(() -> Stages.join(this.store.release("several:b", "holder")))).containsEntry("publish",
					1L);
		}
	}

	@Test
	void theReleaseAWaitingReaderOfAnotherClientWaitsForIsPublished() throws Exception {
		String key = "read-waited";
		try (DefaultLockClient writers = new DefaultLockClient(new RedisLockStore(redis));
				DefaultLockClient readers = new DefaultLockClient(this.store)) {
			LockHold writer = writers.acquire(key, Duration.ZERO, null);
			CompletableFuture<LockHold> reader = readers.readLocks()
				.acquireAsync(key, Duration.ofSeconds(30), null)
				.toCompletableFuture();
			String waitersKey = LockKeys.of(this.store.keyPrefix(), key).waitersKey();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> Boolean.TRUE.equals(redis.hasKey(waitersKey)) && readers.waitingCount(key) == 1);
			assertThat(measure(writer::release)).containsEntry("publish", 1L);
			reader.get(10, TimeUnit.SECONDS).release();
		}
	}

	@Test
	void theKeysOfALockAreBuiltOnceAndLeasesInWholeSecondsAreNotFormattedPerCall() {
		LockKeys keys = this.store.keys("order:1");
		assertThat(this.store.keys("order:1")).isSameAs(keys);
		assertThat(this.store.keys("order:2")).isNotSameAs(keys).isEqualTo(LockKeys.of("lock:", "order:2"));
		assertThat(RedisLockCommands.millis(Duration.ofSeconds(30))).isEqualTo("30000")
			.isSameAs(RedisLockCommands.millis(Duration.ofSeconds(30)));
		assertThat(RedisLockCommands.millis(Duration.ofMillis(1500))).isEqualTo("1500");
		assertThat(RedisLockCommands.millis(Duration.ofMinutes(5))).isEqualTo("300000");
	}

	@Test
	void aReleaseDoesTheWaitingBookkeepingOnlyWhenAWaiterRegistered() {
		assertThat(Stages.join(this.store.tryAcquire("waited", "owner", LEASE)).acquired()).isTrue();
		assertThat(Stages.join(this.store.tryAcquire("waited", "other", LEASE, "client-2", LEASE)).acquired())
			.isFalse();
		Map<String, Long> release = measure(
				() -> assertThat(Stages.join(this.store.release("waited", "owner"))).isTrue());
		assertThat(release).containsEntry("zrem", 1L).containsEntry("publish", 1L).containsKey("zremrangebyscore");
		assertThat(redis.hasKey(LockKeys.of(this.store.keyPrefix(), "waited").waitersKey())).isFalse();
	}

	/**
	 * Hold a fair lock, queue {@code gone} waiters that stop attempting and one live one
	 * behind them, wait until the gone ones count as gone, and measure the release.
	 */
	private Map<String, Long> releaseBehindGoneWaiters(String key, int gone) {
		assertThat(Stages.join(this.store.tryAcquireFair(key, "holder", LEASE, null)).acquired()).isTrue();
		Duration shortGrant = Duration.ofMillis(500);
		joinAll(gone, (i) -> this.store.tryAcquireFair(key, "gone-" + i, LEASE, shortGrant).toCompletableFuture());
		assertThat(Stages.join(this.store.tryAcquireFair(key, "live", LEASE, LEASE)).acquired()).isFalse();
		long goneAt = serverMillis() + shortGrant.toMillis();
		await().atMost(Duration.ofSeconds(10)).until(() -> serverMillis() > goneAt);
		Map<String, Long> release = measure(() -> assertThat(Stages.join(this.store.release(key, "holder"))).isTrue());
		LockKeys keys = LockKeys.of(this.store.keyPrefix(), key);
		assertThat(release).as("dropped exactly the budget of gone waiters")
			.containsEntry("hdel", (long) FairQueueLimits.GONE_WAITERS_PER_STEP);
		assertThat(redis.opsForValue().get(keys.lockKey())).as("no live waiter reached yet: the lock is free").isNull();
		return release;
	}

	private Map<String, Long> renewalOfReaders(String key, int readers) {
		joinAll(readers, (i) -> this.store.tryAcquireRead(key, "reader-" + i, LEASE).toCompletableFuture());
		List<Renewal> batch = IntStream.range(0, 500)
			.mapToObj((i) -> new Renewal(key, "reader-" + (i % readers)))
			.toList();
		Stages.join(this.store.renew(batch, LEASE));
		Map<String, Long> cost = measure(
				() -> assertThat(Stages.join(this.store.renew(batch, LEASE))).containsOnly(RenewalOutcome.RENEWED));
		assertThat(redis.opsForZSet().zCard(LockKeys.of(this.store.keyPrefix(), key).lockKey())).isEqualTo(readers);
		return cost;
	}

	private Map<String, Long> readerComesAndGoes(String key, int readers) {
		joinAll(readers, (i) -> this.store.tryAcquireRead(key, "reader-" + i, LEASE).toCompletableFuture());
		return measure(() -> {
			assertThat(Stages.join(this.store.tryAcquireRead(key, "extra", LEASE)).acquired()).isTrue();
			assertThat(Stages.join(this.store.release(key, "extra"))).isTrue();
		});
	}

	private static void joinAll(int count, IntFunction<CompletableFuture<?>> call) {
		List<CompletableFuture<?>> calls = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			calls.add(call.apply(i));
		}
		CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).join();
	}

	private static long serverMillis() {
		Long millis = redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
		assertThat(millis).isNotNull();
		return millis;
	}

	/**
	 * Run {@code action} and return how often Redis ran each command meanwhile.
	 */
	private static Map<String, Long> measure(Runnable action) {
		redis.execute((RedisCallback<Void>) (connection) -> {
			connection.serverCommands().resetConfigStats();
			return null;
		});
		action.run();
		Map<String, Long> calls = new TreeMap<>();
		Properties stats = redis.execute((RedisCallback<Properties>) (connection) -> commandStats(connection));
		assertThat(stats).isNotNull();
		stats.forEach((name, value) -> {
			String command = name.toString().substring("cmdstat_".length());
			String count = value.toString().split(",")[0].substring("calls=".length());
			calls.put(command, Long.parseLong(count));
		});
		calls.keySet().removeIf((command) -> command.startsWith("config") || command.startsWith("info"));
		long scripts = calls.getOrDefault("eval", 0L) + calls.getOrDefault("evalsha", 0L);
		calls.remove("eval");
		calls.remove("evalsha");
		calls.put("scripts", scripts);
		return calls;
	}

	private static Properties commandStats(RedisConnection connection) {
		return connection.serverCommands().info("commandstats");
	}

}
