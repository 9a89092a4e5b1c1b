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
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHandle;
import dev.distlock.testing.redis.RedisClusterHandle;
import dev.distlock.testing.redis.RedisEndpoint;
import dev.distlock.testing.redis.TestRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The engine on a three-master Redis Cluster: scripts touch keys of one slot only,
 * waiters are woken across nodes and the watchdog renews leases spread over slots.
 *
 * @author distlock
 */
class RedisClusterLockTests {

	private static RedisClusterHandle cluster;

	private static LettuceConnectionFactory connectionFactory;

	private final List<DefaultLockClient> clients = new ArrayList<>();

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

	@AfterEach
	void closeClients() {
		this.clients.forEach(DefaultLockClient::close);
	}

	@Test
	void locksOnKeysAllOverTheClusterExcludeAndWakeEachOther() throws Exception {
		DefaultLockClient first = newClient(LockClientSettings.defaults());
		DefaultLockClient second = newClient(LockClientSettings.defaults());
		List<String> keys = IntStream.range(0, 12).mapToObj((i) -> "cluster:order:" + i).toList();
		assertThat(slotsOf(keys)).hasSizeGreaterThan(6);
		for (String key : keys) {
			LockHandle holder = first.obtain(key);
			assertThat(holder.tryLock(Duration.ZERO)).isTrue();
			long holderFence = holder.fencingToken();
			LockHandle waiter = second.obtain(key);
			assertThat(waiter.tryLock(Duration.ZERO)).isFalse();
			CompletableFuture<Long> waited = CompletableFuture.supplyAsync(() -> {
				try {
					assertThat(waiter.tryLock(Duration.ofSeconds(10))).isTrue();
					long fence = waiter.fencingToken();
					waiter.unlock();
					return fence;
				}
				catch (InterruptedException ex) {
					throw new IllegalStateException(ex);
				}
			});
			Thread.sleep(50);
			holder.unlock();
			assertThat(waited.get(10, TimeUnit.SECONDS)).isGreaterThan(holderFence);
		}
	}

	@Test
	void watchdogRenewsLeasesSpreadOverSlots() throws Exception {
		Duration lease = Duration.ofSeconds(1);
		DefaultLockClient holderClient = newClient(LockClientSettings.defaults().withWatchdogLease(lease));
		DefaultLockClient other = newClient(LockClientSettings.defaults());
		List<String> keys = IntStream.range(0, 60).mapToObj((i) -> "cluster:renewed:" + i).toList();
		List<LockHandle> held = new ArrayList<>();
		for (String key : keys) {
			LockHandle lock = holderClient.obtain(key);
			assertThat(lock.tryLock(Duration.ZERO)).isTrue();
			held.add(lock);
		}
		Thread.sleep(lease.toMillis() * 3 + 500);
		for (int i = 0; i < keys.size(); i++) {
			assertThat(held.get(i).isHeldByCurrentThread()).as(keys.get(i)).isTrue();
			assertThat(other.obtain(keys.get(i)).tryLock(Duration.ZERO)).as(keys.get(i)).isFalse();
		}
		held.forEach(LockHandle::unlock);
		assertThat(other.obtain(keys.get(0)).tryLock(Duration.ZERO)).isTrue();
		other.obtain(keys.get(0)).unlock();
	}

	@Test
	void releasesTravelOverShardedPubSubAndWakeTheWaiter() throws Exception {
		String key = "cluster:sharded";
		LockHandle holder = newClient(LockClientSettings.defaults()).obtain(key);
		DefaultLockClient waitingClient = newClient(LockClientSettings.defaults());
		LockHandle waiter = waitingClient.obtain(key);
		long publishBefore = commandCalls("publish");
		long shardPublishBefore = commandCalls("spublish");
		List<Long> wakeUpMillis = new ArrayList<>();
		for (int round = 0; round < 5; round++) {
			assertThat(holder.tryLock(Duration.ZERO)).isTrue();
			CompletableFuture<Long> acquiredAt = CompletableFuture.supplyAsync(() -> {
				try {
					assertThat(waiter.tryLock(Duration.ofSeconds(30))).isTrue();
					long at = System.nanoTime();
					waiter.unlock();
					return at;
				}
				catch (InterruptedException ex) {
					throw new IllegalStateException(ex);
				}
			});
			RedisStoreTestSupport.awaitWaiting(waitingClient, key);
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (commandCalls("ssubscribe") == 0 && System.nanoTime() - deadline < 0) {
				Thread.sleep(10);
			}
			Thread.sleep(100);
			long releasedAt = System.nanoTime();
			holder.unlock();
			wakeUpMillis.add(TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(30, TimeUnit.SECONDS) - releasedAt));
		}
		wakeUpMillis.sort(null);
		System.out.println("sharded pub/sub wake-ups on the Cluster (ms): " + wakeUpMillis);
		assertThat(commandCalls("ssubscribe")).isPositive();
		// The holder's release publishes to the waiter; the waiter's own release, that
		// nobody waits for, publishes nothing
		assertThat(commandCalls("spublish") - shardPublishBefore).isGreaterThanOrEqualTo(5);
		assertThat(commandCalls("publish")).isEqualTo(publishBefore);
		// Without a notification the waiter re-checks once a second: a median well below
		// that shows the wake-up came over the shard channel.
		assertThat(wakeUpMillis.get(wakeUpMillis.size() / 2)).isLessThan(300);
	}

	/**
	 * Return how often the cluster's nodes ran {@code command}, scripts included.
	 */
	private static long commandCalls(String command) {
		long calls = 0;
		for (RedisEndpoint node : cluster.endpoints()) {
			LettuceConnectionFactory nodeConnection = TestRedis.connectionFactory(node, Duration.ofSeconds(2));
			try {
				Properties stats = TestRedis.template(nodeConnection)
					.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands()
						.info("commandstats"));
				String value = (stats != null) ? stats.getProperty("cmdstat_" + command) : null;
				if (value != null) {
					String count = value.split(",")[0];
					calls += Long.parseLong(count.substring(count.indexOf('=') + 1));
				}
			}
			finally {
				nodeConnection.destroy();
			}
		}
		return calls;
	}

	private DefaultLockClient newClient(LockClientSettings settings) {
		DefaultLockClient client = new DefaultLockClient(new RedisLockStore(TestRedis.template(connectionFactory)),
				settings);
		this.clients.add(client);
		return client;
	}

	private static Set<Integer> slotsOf(List<String> keys) {
		return keys.stream()
			.map((key) -> ClusterSlotHashUtil.calculateSlot(LockKeys.of("lock:", key).lockKey()))
			.collect(Collectors.toSet());
	}

}
