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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.DistributedLockException;
import dev.distlock.LockLostException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import dev.distlock.LossReason;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.KillSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Faults of a ZooKeeper ensemble under {@link ZooKeeperLockStore}, on a three-server
 * {@link TestEnsemble} of each test's own: the leader killed while locks are held and
 * waited for, a client's session expired by the server, and the loss of the quorum.
 *
 * @author distlock
 */
class ZooKeeperFaultTests {

	private static final Duration WATCHDOG_LEASE = Duration.ofSeconds(3);

	private TestEnsemble ensemble;

	private final List<DefaultLockClient> clients = new ArrayList<>();

	@BeforeEach
	void startEnsemble() throws Exception {
		this.ensemble = new TestEnsemble();
	}

	@AfterEach
	void stopEnsemble() throws Exception {
		this.clients.forEach(DefaultLockClient::close);
		this.ensemble.close();
	}

	@Test
	void killingTheLeaderDuringHoldsAndWaitsLetsNoTwoHoldersOverlap() throws Exception {
		String key = "leader-killed";
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger completed = new AtomicInteger();
		AtomicInteger toldLost = new AtomicInteger();
		AtomicInteger afterKill = new AtomicInteger();
		AtomicBoolean killed = new AtomicBoolean();
		AtomicBoolean stop = new AtomicBoolean();
		ExecutorService threads = Executors.newFixedThreadPool(6);
		List<Future<?>> workers = new ArrayList<>();
		for (int c = 0; c < 3; c++) {
			DefaultLockClient client = newClient();
			for (int t = 0; t < 2; t++) {
				workers.add(threads.submit(() -> {
					while (!stop.get()) {
						LockHold hold;
						try {
							hold = client.acquire(key, Duration.ofSeconds(20), null);
						}
						catch (DistributedLockException ex) {
							continue;
						}
						if (inside.incrementAndGet() > 1) {
							overlaps.incrementAndGet();
						}
						// Stays inside a while so that an overlap, which must not happen,
						// would be seen
						sleepQuietly(20);
						inside.decrementAndGet();
						try {
							hold.release();
							completed.incrementAndGet();
							if (killed.get()) {
								afterKill.incrementAndGet();
							}
						}
						catch (LockLostException ex) {
							toldLost.incrementAndGet();
						}
						catch (DistributedLockException ex) {
							// the release failed in the store: retried in the background
						}
					}
					return null;
				}));
			}
		}
		await().atMost(Duration.ofSeconds(30)).until(() -> completed.get() >= 20);
		InstanceSpec leader = this.ensemble.leader();
		assertThat(this.ensemble.cluster().killServer(leader)).isTrue();
		killed.set(true);
		await().atMost(Duration.ofSeconds(60)).until(() -> afterKill.get() >= 20);
		stop.set(true);
		for (Future<?> worker : workers) {
			worker.get(60, TimeUnit.SECONDS);
		}
		threads.shutdown();
		assertThat(overlaps).hasValue(0);
		assertThat(afterKill.get()).isGreaterThanOrEqualTo(20);
		assertThat(completed.get() + toldLost.get()).isGreaterThan(40);
	}

	@Test
	void killingTheLeaderDuringFairAndReadWriteHoldsLetsNoWriterOverlapAnotherHolder() throws Exception {
		String key = "leader-killed-read-write";
		AtomicInteger readers = new AtomicInteger();
		AtomicInteger writers = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger writes = new AtomicInteger();
		AtomicInteger afterKill = new AtomicInteger();
		AtomicBoolean killed = new AtomicBoolean();
		AtomicBoolean stop = new AtomicBoolean();
		ExecutorService threads = Executors.newFixedThreadPool(9);
		List<Future<?>> workers = new ArrayList<>();
		for (int c = 0; c < 3; c++) {
			DefaultLockClient client = newClient();
			// A fair writer, a plain writer and a reader per instance
			List<LockClient> kinds = List.of(client.fair(), client, client.readLocks());
			for (int k = 0; k < kinds.size(); k++) {
				LockClient locks = kinds.get(k);
				boolean reads = k == 2;
				workers.add(threads.submit(() -> {
					while (!stop.get()) {
						LockHold hold;
						try {
							hold = locks.acquire(key, Duration.ofSeconds(20), null);
						}
						catch (DistributedLockException ex) {
							continue;
						}
						if (reads) {
							readers.incrementAndGet();
							if (writers.get() > 0) {
								overlaps.incrementAndGet();
							}
						}
						else if (writers.incrementAndGet() > 1 || readers.get() > 0) {
							overlaps.incrementAndGet();
						}
						// Stays inside a while so that an overlap, which must not happen,
						// would be seen
						sleepQuietly(20);
						(reads ? readers : writers).decrementAndGet();
						try {
							hold.release();
							if (!reads) {
								writes.incrementAndGet();
								if (killed.get()) {
									afterKill.incrementAndGet();
								}
							}
						}
						catch (DistributedLockException ex) {
							// lost with the connection, or the release is retried in the
							// background
						}
					}
					return null;
				}));
			}
		}
		await().atMost(Duration.ofSeconds(60)).until(() -> writes.get() >= 10);
		InstanceSpec leader = this.ensemble.leader();
		assertThat(this.ensemble.cluster().killServer(leader)).isTrue();
		killed.set(true);
		await().atMost(Duration.ofSeconds(90)).until(() -> afterKill.get() >= 10);
		stop.set(true);
		for (Future<?> worker : workers) {
			worker.get(60, TimeUnit.SECONDS);
		}
		threads.shutdown();
		assertThat(overlaps).hasValue(0);
	}

	@Test
	void anExpiredSessionTellsItsHoldersAndTheNextWaiterGetsTheLock() throws Exception {
		CuratorFramework holderCurator = this.ensemble.newClient();
		DefaultLockClient holder = newClient(new ZooKeeperLockStore(holderCurator, TestEnsemble.SESSION_TIMEOUT));
		DefaultLockClient waiter = newClient();
		LockHold hold = holder.acquire("session", Duration.ZERO, null);
		CompletableFuture<LossReason> lost = hold.whenLost().toCompletableFuture();
		CompletableFuture<LockHold> next = waiter.acquireAsync("session", Duration.ofSeconds(30), null)
			.toCompletableFuture();
		await().atMost(Duration.ofSeconds(10)).until(() -> waiter.waitingCount("session") > 0);
		KillSession.kill(holderCurator.getZookeeperClient().getZooKeeper(), this.ensemble.cluster().getConnectString());
		LockHold taken = next.get(30, TimeUnit.SECONDS);
		assertThat(taken.fencingToken()).isGreaterThan(hold.fencingToken());
		await().atMost(Duration.ofSeconds(30)).until(() -> !hold.isValid());
		assertThat(lost).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(LossReason.SESSION_EXPIRED);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release)
			.withMessageContaining("session expired");
		assertThat(taken.isValid()).isTrue();
		taken.release();
	}

	@Test
	void anEnsembleWithoutQuorumFailsAcquireClosedWithinTheWaitPlusTheConnectionTimeout() throws Exception {
		DefaultLockClient client = newClient();
		client.acquire("quorum-warm-up", Duration.ZERO, null).release();
		List<InstanceSpec> instances = new ArrayList<>(this.ensemble.cluster().getInstances());
		this.ensemble.cluster().killServer(instances.get(0));
		this.ensemble.cluster().killServer(instances.get(1));
		Duration wait = Duration.ofSeconds(2);
		long started = System.nanoTime();
		assertThatExceptionOfType(DistributedLockException.class)
			.isThrownBy(() -> client.acquire("quorum", wait, null).release());
		Duration took = Duration.ofNanos(System.nanoTime() - started);
		// the bound the documentation gives, with a second for scheduling on a busy
		// machine
		assertThat(took).isLessThan(wait.plus(TestEnsemble.CONNECTION_TIMEOUT).plusSeconds(1));
		assertThat(client.heldCount()).isZero();
	}

	private DefaultLockClient newClient() {
		return newClient(this.ensemble.newStore());
	}

	private DefaultLockClient newClient(ZooKeeperLockStore store) {
		DefaultLockClient client = new DefaultLockClient(store,
				LockClientSettings.defaults().withWatchdogLease(WATCHDOG_LEASE));
		this.clients.add(client);
		return client;
	}

	private static void sleepQuietly(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
