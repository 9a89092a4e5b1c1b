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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.core.LockHold;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.store.LockStore.Attempt;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.CountingZooKeeper;
import org.apache.zookeeper.CountingZooKeeper.Counts;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The requests the store sends to a three-server ensemble, counted by each client
 * ({@link CountingZooKeeper}): what a grant and a hand-off cost (Curator's
 * {@code InterProcessMutex} costs 2 writes and 3 reads per hand-off), and how many
 * waiting clients, each with a session of its own as an application instance has, a
 * release wakes.
 *
 * @author distlock
 */
class ZooKeeperRequestCountTests {

	private static final Duration LEASE = Duration.ofSeconds(3);

	private static final Duration TTL = Duration.ofSeconds(30);

	private static TestEnsemble ensemble;

	private final List<CuratorFramework> clients = new CopyOnWriteArrayList<>();

	@BeforeAll
	static void startEnsemble() throws Exception {
		ensemble = new TestEnsemble();
	}

	@AfterAll
	static void stopEnsemble() throws Exception {
		ensemble.close();
	}

	@AfterEach
	void closeClients() {
		this.clients.forEach(CuratorFramework::close);
		this.clients.clear();
	}

	@Test
	void anUncontendedAcquireAndReleaseIsOneWriteEachAndNoRead() throws Exception {
		Counts counts = new Counts();
		ZooKeeperLockStore store = new ZooKeeperLockStore(countingClient(counts), TestEnsemble.SESSION_TIMEOUT);
		// The key's node exists from the first grant on, as on a key in use
		assertThat(join(store.tryAcquire("count:1", "warm-up", Duration.ofSeconds(3))).acquired()).isTrue();
		assertThat(join(store.release("count:1", "warm-up"))).isTrue();
		counts.reset();
		for (int i = 0; i < 10; i++) {
			Attempt attempt = join(store.tryAcquire("count:1", "t" + i, Duration.ofSeconds(3)));
			assertThat(attempt.acquired()).isTrue();
			assertThat(join(store.release("count:1", "t" + i))).isTrue();
		}
		assertThat(counts.writes()).as("writes of 10 grants and releases: %s", counts).isEqualTo(20);
		assertThat(counts.reads()).as("reads of 10 grants and releases: %s", counts).isZero();
	}

	@Test
	void anUncontendedLockOfTheClientIsOneWriteToTakeAndOneToGiveBack() throws Exception {
		Counts counts = new Counts();
		ZooKeeperLockStore store = new ZooKeeperLockStore(countingClient(counts), TestEnsemble.SESSION_TIMEOUT);
		DefaultLockClient client = new DefaultLockClient(store);
		try (LockHold hold = client.acquire("count:2", Duration.ZERO, null)) {
			assertThat(hold.fencingToken()).isPositive();
		}
		counts.reset();
		for (int i = 0; i < 10; i++) {
			try (LockHold hold = client.acquire("count:2", Duration.ZERO, null)) {
				assertThat(hold.fencingToken()).isPositive();
			}
		}
		assertThat(counts.writes()).as("writes of 10 locks: %s", counts).isEqualTo(20);
		assertThat(counts.reads()).as("reads of 10 locks: %s", counts).isZero();
		client.close();
	}

	@Test
	void fencingTokensIncreaseAcrossSessionsAndDeletedKeyNodes() throws Exception {
		CuratorFramework first = countingClient(new Counts());
		ZooKeeperLockStore one = new ZooKeeperLockStore(first, TestEnsemble.SESSION_TIMEOUT);
		ZooKeeperLockStore other = new ZooKeeperLockStore(countingClient(new Counts()), TestEnsemble.SESSION_TIMEOUT);
		long fence = join(one.tryAcquire("count:3", "a", Duration.ofSeconds(3))).fencingToken();
		assertThat(join(one.release("count:3", "a"))).isTrue();
		long next = join(other.tryAcquire("count:3", "b", Duration.ofSeconds(3))).fencingToken();
		assertThat(next).isGreaterThan(fence);
		// The holder's session ends, and the key's node goes with everything under it
		other.close();
		this.clients.get(1).close();
		ensemble.newClient().delete().deletingChildrenIfNeeded().forPath(TestEnsemble.keyPath("count:3"));
		long last = join(one.tryAcquire("count:3", "c", Duration.ofSeconds(3))).fencingToken();
		assertThat(last).isGreaterThan(next);
		assertThat(join(one.release("count:3", "c"))).isTrue();
	}

	@Test
	void aContendedHandOffWakesOneWaitingClientAndCostsTwoWrites() throws Exception {
		Counts counts = new Counts();
		String key = "count:4";
		ZooKeeperLockStore holder = new ZooKeeperLockStore(countingClient(counts), TestEnsemble.SESSION_TIMEOUT);
		List<ZooKeeperLockStore> waiters = new ArrayList<>();
		List<AtomicInteger> woken = new ArrayList<>();
		assertThat(join(holder.tryAcquire(key, "holder", LEASE)).acquired()).isTrue();
		for (int i = 0; i < 4; i++) {
			ZooKeeperLockStore waiter = new ZooKeeperLockStore(countingClient(counts), TestEnsemble.SESSION_TIMEOUT);
			AtomicInteger wakeUps = new AtomicInteger();
			waiter.onRelease(key, "client-" + i, wakeUps::incrementAndGet);
			assertThat(join(waiter.tryAcquire(key, "w" + i, LEASE, "client-" + i, TTL)).acquired()).isFalse();
			waiters.add(waiter);
			woken.add(wakeUps);
		}
		// A refused attempt of a waiting client that keeps its place writes nothing
		counts.reset();
		assertThat(join(waiters.get(3).tryAcquire(key, "w3", LEASE, "client-3", TTL)).acquired()).isFalse();
		assertThat(counts.writes()).as("writes of a refused attempt in line: %s", counts).isZero();
		String previous = "holder";
		ZooKeeperLockStore releasing = holder;
		for (int i = 0; i < 4; i++) {
			counts.reset();
			assertThat(join(releasing.release(key, previous))).isTrue();
			int next = i;
			await().atMost(Duration.ofSeconds(10)).until(() -> woken.get(next).get() > 0);
			assertThat(join(waiters.get(i).tryAcquire(key, "w" + i, LEASE, "client-" + i, TTL)).acquired()).isTrue();
			// The next waiter moves its watch to the holder node: reads, not a wake-up
			await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> {
				for (int j = 0; j < 4; j++) {
					if (j != next && woken.get(j).get() > 0) {
						return false;
					}
				}
				return true;
			});
			assertThat(counts.writes()).as("writes of hand-off %d: %s", i, counts).isEqualTo(2);
			assertThat(counts.reads()).as("reads of hand-off %d: %s", i, counts).isLessThanOrEqualTo(3);
			woken.get(i).set(0);
			releasing = waiters.get(i);
			previous = "w" + i;
		}
		assertThat(join(releasing.release(key, previous))).isTrue();
		assertThat(ensemble.children(key)).isEmpty();
	}

	@Test
	void aFairHandOffCostsTwoWritesAndACallerJoiningItsInstancesFairCallersOne() throws Exception {
		Counts counts = new Counts();
		String key = "count:5";
		CuratorFramework admin = ensemble.newClient();
		ZooKeeperLockStore holder = new ZooKeeperLockStore(countingClient(counts), TestEnsemble.SESSION_TIMEOUT);
		ZooKeeperLockStore one = new ZooKeeperLockStore(countingClient(counts), TestEnsemble.SESSION_TIMEOUT);
		ZooKeeperLockStore other = new ZooKeeperLockStore(countingClient(counts), TestEnsemble.SESSION_TIMEOUT);
		assertThat(join(holder.tryAcquire(key, "h", LEASE)).acquired()).isTrue();
		assertThat(join(one.tryAcquireFair(key, "a", LEASE, TTL)).acquired()).isFalse();
		// A fair caller of an instance whose fair callers wait joins the line at once:
		// its queue node is its one write
		counts.reset();
		assertThat(join(one.tryAcquireFair(key, "b", LEASE, TTL)).acquired()).isFalse();
		assertThat(counts.writes()).as("writes of a fair caller joining: %s", counts).isEqualTo(1);
		assertThat(join(other.tryAcquireFair(key, "c", LEASE, TTL)).acquired()).isFalse();
		List<ZooKeeperLockStore> stores = List.of(one, one, other);
		List<String> callers = List.of("a", "b", "c");
		ZooKeeperLockStore releasing = holder;
		String previous = "h";
		for (int i = 0; i < 3; i++) {
			ZooKeeperLockStore store = stores.get(i);
			String caller = callers.get(i);
			counts.reset();
			assertThat(join(releasing.release(key, previous))).isTrue();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> join(store.tryAcquireFair(key, caller, LEASE, TTL)).acquired());
			if (i < 2) {
				// The claim reserved the key for the next caller, which only reads
				String next = callers.get(i + 1);
				await().atMost(Duration.ofSeconds(10)).until(() -> next.equals(reservation(admin, key)));
			}
			await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> true);
			assertThat(counts.writes()).as("writes of fair hand-off %d: %s", i, counts).isEqualTo(2);
			releasing = store;
			previous = caller;
		}
		assertThat(join(releasing.release(key, previous))).isTrue();
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(ensemble.children(key)).isEmpty());
	}

	private static @Nullable String reservation(CuratorFramework admin, String key) throws Exception {
		// One session answers in order: the read follows the sync
		admin.sync().inBackground().forPath(TestEnsemble.keyPath(key));
		try {
			return new String(admin.getData().forPath(TestEnsemble.keyPath(key) + "/" + LockPaths.NEXT),
					StandardCharsets.UTF_8);
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
	}

	private CuratorFramework countingClient(Counts counts) throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(ensemble.cluster().getConnectString())
			.sessionTimeoutMs((int) TestEnsemble.SESSION_TIMEOUT.toMillis())
			.connectionTimeoutMs((int) TestEnsemble.CONNECTION_TIMEOUT.toMillis())
			.retryPolicy(new RetryNTimes(3, 100))
			.zookeeperFactory((connectString, sessionTimeout, watcher, canBeReadOnly) -> CountingZooKeeper
				.create(counts, connectString, sessionTimeout, watcher, canBeReadOnly, null))
			.build();
		client.start();
		assertThat(client.blockUntilConnected(30, TimeUnit.SECONDS)).isTrue();
		this.clients.add(client);
		return client;
	}

	private static <T> T join(java.util.concurrent.CompletionStage<T> stage) throws Exception {
		return stage.toCompletableFuture().get(20, TimeUnit.SECONDS);
	}

}
