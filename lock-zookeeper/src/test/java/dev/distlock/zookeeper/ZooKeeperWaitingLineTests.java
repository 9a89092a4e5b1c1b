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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockHold;
import dev.distlock.testing.TcpProxy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.InstanceSpec;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The waiting line of a key on a three-server ensemble: a waiting client whose session
 * ends loses its place and leaves no node, cancelled waiters leave no queue node behind,
 * fair callers of several instances are granted in arrival order, and a claim keeps the
 * key reserved for the next fair caller.
 *
 * @author distlock
 */
class ZooKeeperWaitingLineTests {

	private static final Duration LEASE = Duration.ofSeconds(3);

	private static final Duration TTL = Duration.ofSeconds(30);

	private static TestEnsemble ensemble;

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
		ensemble.closeClients();
	}

	@Test
	void aWaitingClientWhoseSessionEndsLosesItsPlaceAndTheNextOneMovesUp() throws Exception {
		String key = "line:1";
		ZooKeeperLockStore holder = ensemble.newStore();
		CuratorFramework lostClient = ensemble.newClient();
		ZooKeeperLockStore lost = new ZooKeeperLockStore(lostClient, TestEnsemble.SESSION_TIMEOUT);
		ZooKeeperLockStore next = ensemble.newStore();
		AtomicInteger nextWoken = new AtomicInteger();
		next.onRelease(key, "next", nextWoken::incrementAndGet);
		assertThat(join(holder.tryAcquire(key, "h", LEASE)).acquired()).isTrue();
		assertThat(join(lost.tryAcquire(key, "l", LEASE, "lost", TTL)).acquired()).isFalse();
		assertThat(join(next.tryAcquire(key, "n", LEASE, "next", TTL)).acquired()).isFalse();
		assertThat(queueNodes(key)).hasSize(2);
		ensemble.endSession(lostClient);
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			assertThat(queueNodes(key)).singleElement().satisfies((name) -> assertThat(name).startsWith("q-next-"));
			assertThat(lost.line().placeOf(key, "lost")).as("the lost session's place is forgotten").isNull();
		});
		assertThat(join(holder.release(key, "h"))).isTrue();
		await().atMost(Duration.ofSeconds(10)).until(() -> nextWoken.get() > 0);
		assertThat(join(next.tryAcquire(key, "n", LEASE, "next", TTL)).acquired()).isTrue();
		assertThat(join(next.release(key, "n"))).isTrue();
		assertThat(ensemble.children(key)).as("nothing orphaned").isEmpty();
	}

	@Test
	void twoHundredWaitersCancelledAtRandomInstantsLeaveNoQueueNode() throws Exception {
		String key = "line:2";
		ZooKeeperLockStore holder = ensemble.newStore();
		assertThat(join(holder.tryAcquire(key, "h", LEASE)).acquired()).isTrue();
		DefaultLockClient client = new DefaultLockClient(ensemble.newStore());
		for (int i = 0; i < 200; i++) {
			CompletableFuture<LockHold> waiting = client.acquireAsync(key, Duration.ofSeconds(30), null)
				.toCompletableFuture();
			// A random instant: before, during or after the refused attempt
			LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(TimeUnit.MILLISECONDS.toNanos(20)));
			assertThat(waiting.cancel(false)).as("waiter %d was still waiting", i).isTrue();
		}
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(queueNodes(key)).isEmpty());
		assertThat(join(holder.release(key, "h"))).isTrue();
		try (LockHold hold = client.acquire(key, Duration.ofSeconds(10), null)) {
			assertThat(hold.fencingToken()).isPositive();
		}
		client.close();
		assertThat(ensemble.children(key)).isEmpty();
	}

	@Test
	void fairCallersOfThreeInstancesAreGrantedInArrivalOrderAndNobodyBargesIn() throws Exception {
		String key = "line:3";
		ZooKeeperLockStore holder = ensemble.newStore();
		ZooKeeperLockStore newcomer = ensemble.newStore();
		List<ZooKeeperLockStore> fair = List.of(ensemble.newStore(), ensemble.newStore(), ensemble.newStore());
		long fence = join(holder.tryAcquire(key, "h", LEASE)).fencingToken();
		for (int i = 0; i < 3; i++) {
			assertThat(join(fair.get(i).tryAcquireFair(key, "f" + i, LEASE, TTL)).acquired()).isFalse();
		}
		assertThat(join(holder.release(key, "h"))).isTrue();
		assertThat(join(newcomer.tryAcquire(key, "n", LEASE)).acquired()).as("a newcomer barges in").isFalse();
		for (int i = 0; i < 3; i++) {
			int turn = i;
			long granted = await().atMost(Duration.ofSeconds(10))
				.until(() -> join(fair.get(turn).tryAcquireFair(key, "f" + turn, LEASE, TTL)), (a) -> a.acquired())
				.fencingToken();
			assertThat(granted).isGreaterThan(fence);
			fence = granted;
			for (int later = turn + 1; later < 3; later++) {
				assertThat(join(fair.get(later).tryAcquireFair(key, "f" + later, LEASE, TTL)).acquired())
					.as("f%d before f%d", later, turn)
					.isFalse();
			}
			if (turn < 2) {
				// The claim kept the key reserved for the next caller in line
				await().atMost(Duration.ofSeconds(10)).until(() -> ensemble.children(key).contains(LockPaths.NEXT));
			}
			assertThat(join(fair.get(turn).release(key, "f" + turn))).isTrue();
			if (turn < 2) {
				assertThat(join(newcomer.tryAcquire(key, "n" + turn, LEASE)).acquired()).as("a newcomer barges in")
					.isFalse();
			}
		}
		assertThat(join(newcomer.tryAcquire(key, "n", LEASE)).acquired()).isTrue();
		assertThat(join(newcomer.release(key, "n"))).isTrue();
		assertThat(ensemble.children(key)).isEmpty();
	}

	@Test
	void aClaimKeepsTheKeyReservedForTheNextFairCallerSoNoNewcomerTakesItMeanwhile() throws Exception {
		String key = "line:4";
		CuratorFramework admin = ensemble.newClient();
		ZooKeeperLockStore holder = ensemble.newStore();
		ZooKeeperLockStore newcomer = ensemble.newStore();
		ZooKeeperLockStore first = ensemble.newStore();
		InstanceSpec server = ensemble.cluster().getInstances().iterator().next();
		try (TcpProxy proxy = TcpProxy.start("127.0.0.1", server.getPort())) {
			CuratorFramework frozenClient = CuratorFrameworkFactory.builder()
				.connectString(proxy.address())
				.sessionTimeoutMs((int) TestEnsemble.SESSION_TIMEOUT.toMillis())
				.connectionTimeoutMs((int) TestEnsemble.CONNECTION_TIMEOUT.toMillis())
				.retryPolicy(new RetryNTimes(3, 100))
				.build();
			frozenClient.start();
			assertThat(frozenClient.blockUntilConnected(30, TimeUnit.SECONDS)).isTrue();
			ensemble.adopt(frozenClient);
			ZooKeeperLockStore second = new ZooKeeperLockStore(frozenClient, TestEnsemble.SESSION_TIMEOUT);
			assertThat(join(holder.tryAcquire(key, "h", LEASE)).acquired()).isTrue();
			assertThat(join(first.tryAcquireFair(key, "f0", LEASE, TTL)).acquired()).isFalse();
			assertThat(join(second.tryAcquireFair(key, "f1", LEASE, TTL)).acquired()).isFalse();
			await().atMost(Duration.ofSeconds(10)).until(() -> "f0".equals(reservation(admin, key)));
			// The second fair caller hears nothing and sends nothing from now on: it
			// cannot reserve the key itself
			proxy.freeze();
			try {
				assertThat(join(holder.release(key, "h"))).isTrue();
				await().atMost(Duration.ofSeconds(10))
					.until(() -> join(first.tryAcquireFair(key, "f0", LEASE, TTL)).acquired());
				assertThat(reservation(admin, key)).as("the reservation after the claim").isEqualTo("f1");
				assertThat(join(first.release(key, "f0"))).isTrue();
				assertThat(join(newcomer.tryAcquire(key, "n", LEASE)).acquired()).as("a newcomer barges in").isFalse();
			}
			finally {
				proxy.thaw();
			}
			await().atMost(Duration.ofSeconds(20))
				.until(() -> join(second.tryAcquireFair(key, "f1", LEASE, TTL)).acquired());
			assertThat(join(second.release(key, "f1"))).isTrue();
		}
		assertThat(join(newcomer.tryAcquire(key, "n", LEASE)).acquired()).isTrue();
		assertThat(join(newcomer.release(key, "n"))).isTrue();
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(ensemble.children(key)).isEmpty());
	}

	@Test
	void aReservationKeptForACallerNoLongerInLineIsCleared() throws Exception {
		String key = "line:5";
		CuratorFramework admin = ensemble.newClient();
		ZooKeeperLockStore holder = ensemble.newStore();
		CuratorFramework goneClient = ensemble.newClient();
		ZooKeeperLockStore gone = new ZooKeeperLockStore(goneClient, TestEnsemble.SESSION_TIMEOUT);
		ZooKeeperLockStore first = ensemble.newStore();
		ZooKeeperLockStore newcomer = ensemble.newStore();
		assertThat(join(holder.tryAcquire(key, "h", LEASE)).acquired()).isTrue();
		assertThat(join(first.tryAcquireFair(key, "f0", LEASE, TTL)).acquired()).isFalse();
		assertThat(join(gone.tryAcquireFair(key, "f1", LEASE, TTL)).acquired()).isFalse();
		await().atMost(Duration.ofSeconds(10)).until(() -> "f0".equals(reservation(admin, key)));
		assertThat(join(holder.release(key, "h"))).isTrue();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> join(first.tryAcquireFair(key, "f0", LEASE, TTL)).acquired());
		assertThat(reservation(admin, key)).isEqualTo("f1");
		// The caller the key is reserved for goes with its session; its reservation stays
		ensemble.endSession(goneClient);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(ensemble.children(key)).noneMatch((name) -> name.startsWith("qf-")));
		assertThat(join(first.release(key, "f0"))).isTrue();
		DefaultLockClient client = new DefaultLockClient(newcomer);
		try (LockHold hold = client.acquire(key, Duration.ofSeconds(10), null)) {
			assertThat(hold.fencingToken()).isPositive();
		}
		client.close();
		assertThat(reservation(admin, key)).isNull();
	}

	private static @Nullable String reservation(CuratorFramework admin, String key) {
		try {
			// One session answers in order: the read follows the sync
			admin.sync().inBackground().forPath(TestEnsemble.keyPath(key));
			return new String(admin.getData().forPath(TestEnsemble.keyPath(key) + "/" + LockPaths.NEXT),
					StandardCharsets.UTF_8);
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static List<String> queueNodes(String key) {
		return ensemble.children(key).stream().filter((name) -> name.startsWith("q-")).toList();
	}

	private static <T> T join(CompletionStage<T> stage) throws Exception {
		return stage.toCompletableFuture().get(20, TimeUnit.SECONDS);
	}

}
