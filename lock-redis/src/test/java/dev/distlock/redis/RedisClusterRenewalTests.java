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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientListener;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import dev.distlock.core.RecordingLockClientListener;
import dev.distlock.core.RenewalBatch;
import dev.distlock.store.InspectionExtension.KeyState;
import dev.distlock.testing.redis.RedisClusterHandle;
import dev.distlock.testing.redis.RedisEndpoint;
import dev.distlock.testing.redis.TestRedis;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Renewal at Cluster scale: the leases of 10,000 locks spread over a three-master Cluster
 * are renewed with one script per hash slot, sent at once so that each node's scripts
 * travel pipelined over its connection, and none is lost over three lease periods; a
 * master that stops answering for longer than the lease delays no other master's
 * renewals.
 *
 * @author distlock
 */
class RedisClusterRenewalTests {

	private static final int LOCKS = 10_000;

	private static final Duration LEASE = Duration.ofSeconds(3);

	private static RedisClusterHandle cluster;

	private static LettuceConnectionFactory connectionFactory;

	@BeforeAll
	static void startCluster() {
		cluster = TestRedis.startCluster(3);
		connectionFactory = TestRedis.connectionFactory(cluster, Duration.ofSeconds(2));
	}

	@AfterAll
	static void stopCluster() {
		connectionFactory.destroy();
		cluster.close();
	}

	@Test
	@Tag("slow")
	void tenThousandLocksSurviveThreeLeasePeriodsRenewedOneScriptPerSlotOnEveryNode() throws Exception {
		StringRedisTemplate redis = TestRedis.template(connectionFactory);
		RedisLockStore store = new RedisLockStore(redis);
		// The default batch size: the watchdog sends the 20 batches of a round together,
		// and the store one script per slot of each batch at once
		try (DefaultLockClient client = new DefaultLockClient(store,
				LockClientSettings.defaults().withWatchdogLease(LEASE))) {
			List<String> keys = new ArrayList<>(LOCKS);
			for (int i = 0; i < LOCKS; i++) {
				keys.add("renewed-at-scale:" + i);
			}
			List<LockHold> holds = new ArrayList<>(LOCKS);
			for (int from = 0; from < LOCKS; from += 500) {
				List<CompletableFuture<LockHold>> chunk = new ArrayList<>();
				for (String key : keys.subList(from, from + 500)) {
					chunk.add(client.acquireAsync(key, Duration.ZERO, null).toCompletableFuture());
				}
				chunk.forEach((hold) -> holds.add(hold.join()));
			}
			Map<RedisEndpoint, Long> scriptsBefore = scriptsPerNode();
			// Nothing may be lost meanwhile: three lease periods, the watchdog renewing
			Thread.sleep(LEASE.toMillis() * 3 + 500);
			Map<RedisEndpoint, Long> scriptsAfter = scriptsPerNode();
			assertThat(holds).allSatisfy((hold) -> assertThat(hold.isValid()).isTrue());
			// A call answered later than the renewal interval (a loaded machine) is
			// reported
			// failed until its answer comes; none stays failing
			Awaitility.await("no lease left failing").atMost(LEASE).until(() -> !client.watchdogStatus().failing());
			try (RedisLockStore inspector = new RedisLockStore(redis)) {
				// 500 at a time, as the locks were taken: the watchdog keeps renewing
				// meanwhile
				for (int from = 0; from < LOCKS; from += 500) {
					List<CompletableFuture<KeyState>> states = keys.subList(from, from + 500)
						.stream()
						.map((key) -> inspector.inspect(key).toCompletableFuture())
						.toList();
					assertThat(states).allSatisfy((state) -> assertThat(state.join().held()).isTrue());
				}
			}
			Map<Integer, Set<Integer>> slotsPerNode = slotsPerNode(keys);
			List<RedisEndpoint> nodes = cluster.endpoints();
			for (int node = 0; node < nodes.size(); node++) {
				long scripts = scriptsAfter.get(nodes.get(node)) - scriptsBefore.get(nodes.get(node));
				int slots = slotsPerNode.get(node).size();
				System.out.println("node " + nodes.get(node) + ": " + scripts + " scripts for " + slots
						+ " slots in three lease periods; last renewal batch " + client.watchdogStatus().lastBatch());
				assertThat(scripts).as("scripts node %s ran", node).isGreaterThanOrEqualTo(3L * slots);
			}
			holds.forEach(LockHold::release);
		}
	}

	@Test
	void aMasterPausedLongerThanTheLeaseLosesNoLockOnTheOtherMasters() throws Exception {
		// A command timeout longer than the lease, like Lettuce's default: renewal
		// requests
		// must be bounded by the renewal interval, not by it
		LettuceConnectionFactory slowFactory = TestRedis.connectionFactory(cluster, Duration.ofSeconds(10));
		RecordingLockClientListener listener = new RecordingLockClientListener();
		try (DefaultLockClient client = new DefaultLockClient(new RedisLockStore(TestRedis.template(slowFactory)),
				LockClientSettings.defaults().withWatchdogLease(LEASE), listener)) {
			Map<String, LockHold> paused = new HashMap<>();
			Map<String, LockHold> healthy = new HashMap<>();
			for (int i = 0; i < 300; i++) {
				String key = "paused-master:" + i;
				LockHold hold = client.acquire("renewed", key, Duration.ZERO, null);
				(nodeOf(key) == 0 ? paused : healthy).put(key, hold);
			}
			assertThat(paused).isNotEmpty();
			assertThat(healthy).isNotEmpty();
			Duration pause = LEASE.multipliedBy(8).dividedBy(3);
			clientPause(cluster.endpoints().get(0), pause);
			// Nothing may be lost on the other masters meanwhile: the whole pause
			Thread.sleep(pause.toMillis() + 500);
			assertThat(healthy.values()).allSatisfy((hold) -> assertThat(hold.isValid()).isTrue());
			assertThat(paused.values()).allSatisfy((hold) -> assertThat(hold.isValid()).isFalse());
			try (RedisLockStore inspector = new RedisLockStore(TestRedis.template(connectionFactory))) {
				assertThat(healthy.keySet()).allSatisfy(
						(key) -> assertThat(inspector.inspect(key).toCompletableFuture().join().held()).isTrue());
			}
			Awaitility.await("the paused master's holders told they lost their locks")
				.atMost(Duration.ofSeconds(15))
				.until(() -> lostKeys(listener).containsAll(paused.keySet()));
			assertThat(lostKeys(listener)).doesNotContainAnyElementsOf(healthy.keySet());
			healthy.values().forEach(LockHold::release);
		}
		finally {
			slowFactory.destroy();
		}
	}

	private static Set<String> lostKeys(RecordingLockClientListener listener) {
		Set<String> lost = new HashSet<>();
		listener.events()
			.stream()
			.filter((event) -> event.startsWith("renewed ") && event.contains(" lost "))
			.forEach((event) -> lost.add(event.split(" ")[1]));
		return lost;
	}

	private static int nodeOf(String key) {
		int perNode = ClusterSlotHashUtil.SLOT_COUNT / cluster.endpoints().size();
		int slot = ClusterSlotHashUtil.calculateSlot(LockKeys.of(RedisLockStore.DEFAULT_KEY_PREFIX, key).lockKey());
		return Math.min(slot / perNode, cluster.endpoints().size() - 1);
	}

	/**
	 * Make one node stop answering every client for {@code pause}, without closing any
	 * connection ({@code CLIENT PAUSE ... ALL}); the cluster bus goes on, so the Cluster
	 * stays up.
	 */
	private static void clientPause(RedisEndpoint node, Duration pause) {
		LettuceConnectionFactory factory = TestRedis.connectionFactory(node, Duration.ofSeconds(2));
		try {
			TestRedis.template(factory)
				.execute((RedisCallback<Object>) (connection) -> execute(connection, "CLIENT", "PAUSE",
						Long.toString(pause.toMillis()), "ALL"));
		}
		finally {
			factory.destroy();
		}
	}

	private static Object execute(RedisConnection connection, String command, String... args) {
		byte[][] bytes = new byte[args.length][];
		for (int i = 0; i < args.length; i++) {
			bytes[i] = args[i].getBytes(StandardCharsets.UTF_8);
		}
		return connection.execute(command, bytes);
	}

	/**
	 * Which hash slots of {@code keys} each master serves (the harness gives each master
	 * an equal range of slots, in order).
	 */
	/**
	 * Issue 38: the renewal of a round is one script per hash slot of its locks, however
	 * many locks share a slot, so that a round costs each node its slots, never its
	 * leases: 600 locks in 30 slots (10 per master, fewer locks per master than a batch)
	 * cost 30 scripts a round.
	 */
	@Test
	void aRoundRenewsTheLocksOfOneSlotWithOneScript() throws Exception {
		int slotsPerMaster = 10;
		int locksPerSlot = 20;
		int perNode = ClusterSlotHashUtil.SLOT_COUNT / cluster.endpoints().size();
		Set<Integer> slots = new HashSet<>();
		for (int node = 0; node < cluster.endpoints().size(); node++) {
			for (int i = 0; i < slotsPerMaster; i++) {
				slots.add(node * perNode + 100 + i);
			}
		}
		List<String> keys = keysIn(slots, locksPerSlot);
		AtomicLong renewed = new AtomicLong();
		LockClientListener listener = new LockClientListener() {

			@Override
			public void renewalBatchFinished(RenewalBatch batch) {
				renewed.addAndGet(batch.leases());
			}

		};
		try (DefaultLockClient client = new DefaultLockClient(new RedisLockStore(TestRedis.template(connectionFactory)),
				LockClientSettings.defaults().withWatchdogLease(LEASE), listener)) {
			List<LockHold> holds = new ArrayList<>();
			for (String key : keys) {
				holds.add(client.acquire(key, Duration.ZERO, null));
			}
			long acquired = renewed.get();
			Awaitility.await("two renewal rounds of every lock")
				.atMost(Duration.ofSeconds(30))
				.until(() -> renewed.get() >= acquired + 2L * keys.size());
			long scriptsBefore = scriptsPerNode().values().stream().mapToLong(Long::longValue).sum();
			long renewedBefore = renewed.get();
			Awaitility.await("four more renewal rounds")
				.atMost(Duration.ofSeconds(30))
				.until(() -> renewed.get() >= renewedBefore + 4L * keys.size());
			long scripts = scriptsPerNode().values().stream().mapToLong(Long::longValue).sum() - scriptsBefore;
			double rounds = (renewed.get() - renewedBefore) / (double) keys.size();
			assertThat(rounds).as("renewal rounds in the window").isGreaterThanOrEqualTo(3);
			// A round may straddle either end of the window: one round of slack each side
			assertThat(scripts).as("scripts for %s rounds of %s locks in %s slots", rounds, keys.size(), slots.size())
				.isBetween(Math.round((rounds - 1) * slots.size()), Math.round((rounds + 1) * slots.size()));
			holds.forEach(LockHold::release);
		}
	}

	/**
	 * Return {@code perSlot} lock names whose lock keys hash to each of {@code slots}.
	 */
	private static List<String> keysIn(Set<Integer> slots, int perSlot) {
		Map<Integer, Integer> found = new HashMap<>();
		List<String> keys = new ArrayList<>();
		for (int candidate = 0; keys.size() < slots.size() * perSlot; candidate++) {
			String key = "slotted:" + candidate;
			int slot = ClusterSlotHashUtil.calculateSlot(LockKeys.of(RedisLockStore.DEFAULT_KEY_PREFIX, key).lockKey());
			if (slots.contains(slot) && found.merge(slot, 1, Integer::sum) <= perSlot) {
				keys.add(key);
			}
		}
		return keys;
	}

	private static Map<Integer, Set<Integer>> slotsPerNode(List<String> keys) {
		int perNode = ClusterSlotHashUtil.SLOT_COUNT / cluster.endpoints().size();
		Map<Integer, Set<Integer>> slots = new HashMap<>();
		for (String key : keys) {
			int slot = ClusterSlotHashUtil.calculateSlot(LockKeys.of(RedisLockStore.DEFAULT_KEY_PREFIX, key).lockKey());
			int node = Math.min(slot / perNode, cluster.endpoints().size() - 1);
			slots.computeIfAbsent(node, (n) -> new HashSet<>()).add(slot);
		}
		return slots;
	}

	private static Map<RedisEndpoint, Long> scriptsPerNode() {
		Map<RedisEndpoint, Long> scripts = new HashMap<>();
		for (RedisEndpoint node : cluster.endpoints()) {
			LettuceConnectionFactory factory = TestRedis.connectionFactory(node, Duration.ofSeconds(2));
			try {
				Properties stats = TestRedis.template(factory)
					.execute((RedisCallback<Properties>) (c) -> c.serverCommands().info("commandstats"));
				scripts.put(node, calls(stats, "cmdstat_evalsha") + calls(stats, "cmdstat_eval"));
			}
			finally {
				factory.destroy();
			}
		}
		return scripts;
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
