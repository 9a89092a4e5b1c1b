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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.LockAcquisitionException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockHold;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.ReadWriteTiming;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.CountingZooKeeper;
import org.apache.zookeeper.CountingZooKeeper.Counts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Read-write locks on a three-server ensemble, each store with a client and session of
 * its own as an application instance has: readers of two instances at once and a writer
 * after them, the writer's mark that keeps new readers out and goes with its grant or
 * soon after the writer gave up, a reader's ended session, the release listeners hearing
 * the last reader leave, and the requests a reader and a waiting writer cost.
 *
 * @author distlock
 */
class ZooKeeperReadWriteTests {

	private static final Duration LEASE = Duration.ofSeconds(3);

	private static TestEnsemble ensemble;

	private final List<DefaultLockClient> clients = new CopyOnWriteArrayList<>();

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
		this.clients.forEach(DefaultLockClient::close);
		this.clients.clear();
		ensemble.closeClients();
	}

	@Test
	void readersOfTwoInstancesHoldAtOnceAndAWaitingWriterGetsInAfterThem() throws Exception {
		String key = "rw:instances";
		DefaultLockClient one = newClient(ensemble.newStore());
		DefaultLockClient other = newClient(ensemble.newStore());
		DefaultLockClient writers = newClient(ensemble.newStore());
		long earlierFence;
		try (LockHold write = writers.acquire(key, Duration.ZERO, null)) {
			earlierFence = write.fencingToken();
		}
		LockHold first = one.readLocks().acquire(key, Duration.ZERO, null);
		LockHold second = other.readLocks().acquire(key, Duration.ZERO, null);
		assertThat(ensemble.readers(key)).as("both readers hold the key at once").hasSize(2);
		CompletableFuture<LockHold> writer = writers.acquireAsync(key, Duration.ofSeconds(30), null)
			.toCompletableFuture();
		await().atMost(Duration.ofSeconds(10)).until(() -> ensemble.children(key).contains(LockPaths.WRITER_WAITING));
		assertThatExceptionOfType(LockAcquisitionException.class).as("a new reader is refused while the writer waits")
			.isThrownBy(() -> one.readLocks().acquire(key, Duration.ZERO, null));
		first.release();
		assertThat(writer).isNotDone();
		second.release();
		LockHold write = writer.get(10, TimeUnit.SECONDS);
		assertThat(write.fencingToken()).isGreaterThan(earlierFence);
		assertThat(ensemble.children(key)).as("the writer's grant took its mark away")
			.doesNotContain(LockPaths.WRITER_WAITING);
		write.release();
		try (LockHold reader = other.readLocks().acquire(key, Duration.ZERO, null)) {
			assertThat(reader.fencingToken()).isZero();
		}
		assertThat(ensemble.children(key)).as("nothing orphaned").isEmpty();
	}

	@Test
	void theLastReaderLeavingWakesTheReleaseListenersOfAnotherInstance() throws Exception {
		String key = "rw:last-reader";
		ZooKeeperLockStore one = ensemble.newStore();
		ZooKeeperLockStore other = ensemble.newStore();
		ZooKeeperLockStore listening = ensemble.newStore();
		AtomicInteger heard = new AtomicInteger();
		assertThat(join(one.tryAcquireRead(key, "r1", LEASE)).acquired()).isTrue();
		assertThat(join(other.tryAcquireRead(key, "r2", LEASE)).acquired()).isTrue();
		listening.onRelease(key, heard::incrementAndGet);
		assertThat(join(one.readGrants().release(key, "r1"))).isTrue();
		// Nothing may wake the listener meanwhile: a reader is still there
		await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> heard.get() == 0);
		assertThat(join(other.readGrants().release(key, "r2"))).isTrue();
		await().atMost(Duration.ofSeconds(10)).until(() -> heard.get() > 0);
		assertThat(ensemble.children(key)).isEmpty();
	}

	@Test
	void aReaderWhoseSessionEndsFreesTheKeyForAWaitingWriter() throws Exception {
		String key = "rw:reader-session";
		CuratorFramework readerClient = ensemble.newClient();
		ZooKeeperLockStore reader = new ZooKeeperLockStore(readerClient, TestEnsemble.SESSION_TIMEOUT);
		assertThat(join(reader.tryAcquireRead(key, "r1", LEASE)).acquired()).isTrue();
		DefaultLockClient writers = newClient(ensemble.newStore());
		CompletableFuture<LockHold> writer = writers.acquireAsync(key, Duration.ofSeconds(30), null)
			.toCompletableFuture();
		await().atMost(Duration.ofSeconds(10)).until(() -> ensemble.children(key).contains(LockPaths.WRITER_WAITING));
		ensemble.endSession(readerClient);
		// The ended session leaves the readers' container empty: the writer clears it
		LockHold write = writer.get(20, TimeUnit.SECONDS);
		assertThat(write.fencingToken()).isPositive();
		write.release();
		assertThat(ensemble.children(key)).isEmpty();
	}

	@Test
	void aWriterWaitingForReadersSendsNoRequestUntilTheLastReaderLeaves() throws Exception {
		String key = "rw:no-polling";
		ZooKeeperLockStore one = ensemble.newStore();
		ZooKeeperLockStore other = ensemble.newStore();
		assertThat(join(one.tryAcquireRead(key, "r1", LEASE)).acquired()).isTrue();
		assertThat(join(other.tryAcquireRead(key, "r2", LEASE)).acquired()).isTrue();
		Counts counts = new Counts();
		DefaultLockClient writers = newClient(
				new ZooKeeperLockStore(countingClient(counts), TestEnsemble.SESSION_TIMEOUT));
		CompletableFuture<LockHold> writer = writers.acquireAsync(key, Duration.ofSeconds(30), null)
			.toCompletableFuture();
		await().atMost(Duration.ofSeconds(10)).until(() -> ensemble.children(key).contains(LockPaths.WRITER_WAITING));
		// Let the writer settle on its watch of one reader's node: no request for a while
		long[] last = { -1 };
		await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(300)).until(() -> {
			long seen = counts.writes() + counts.reads();
			boolean settled = seen == last[0];
			last[0] = seen;
			return settled;
		});
		counts.reset();
		// Nothing may be sent meanwhile, for longer than the writer-waiting mark lives
		await().during(ReadWriteTiming.WRITER_WAITING.plusMillis(500))
			.atMost(Duration.ofSeconds(10))
			.until(() -> counts.writes() + counts.reads() == 0);
		assertThat(join(ensemble.newStore().tryAcquireRead(key, "r3", LEASE)).acquired())
			.as("the mark still keeps new readers out")
			.isFalse();
		assertThat(join(one.readGrants().release(key, "r1"))).isTrue();
		assertThat(writer).isNotDone();
		assertThat(join(other.readGrants().release(key, "r2"))).isTrue();
		writer.get(10, TimeUnit.SECONDS).release();
		assertThat(ensemble.children(key)).isEmpty();
	}

	@Test
	void aMarkOfAWriterThatGaveUpEndsSoon() throws Exception {
		String key = "rw:gave-up";
		ZooKeeperLockStore reader = ensemble.newStore();
		ZooKeeperLockStore writer = ensemble.newStore();
		ZooKeeperLockStore late = ensemble.newStore();
		assertThat(join(reader.tryAcquireRead(key, "r1", LEASE)).acquired()).isTrue();
		Attempt pending = join(writer.tryAcquire(key, "w1", LEASE));
		assertThat(pending.acquired()).isFalse();
		assertThat(pending.holderLeaseRemaining()).as("a first refusal asks the writer to try again soon")
			.isEqualTo(ReadWriteTiming.PENDING_WRITER_RECHECK);
		assertThat(ensemble.children(key)).as("a writer refused once leaves no mark")
			.doesNotContain(LockPaths.WRITER_WAITING);
		assertThat(join(writer.tryAcquire(key, "w1", LEASE)).acquired()).isFalse();
		assertThat(ensemble.children(key)).contains(LockPaths.WRITER_WAITING);
		assertThat(join(late.tryAcquireRead(key, "r2", LEASE)).acquired()).isFalse();
		// The writer gives up: its mark goes once it has not tried for its time to live
		await().atMost(ReadWriteTiming.WRITER_WAITING.plusSeconds(3))
			.until(() -> !ensemble.children(key).contains(LockPaths.WRITER_WAITING));
		assertThat(join(late.tryAcquireRead(key, "r2", LEASE)).acquired()).isTrue();
		assertThat(join(reader.readGrants().release(key, "r1"))).isTrue();
		assertThat(join(late.readGrants().release(key, "r2"))).isTrue();
		assertThat(ensemble.children(key)).isEmpty();
	}

	@Test
	void anUncontendedReadLockIsOneWriteToTakeAndOneToGiveBack() throws Exception {
		Counts counts = new Counts();
		ZooKeeperLockStore store = new ZooKeeperLockStore(countingClient(counts), TestEnsemble.SESSION_TIMEOUT);
		String key = "rw:count";
		// The key's node exists from the first grant on, as on a key in use
		assertThat(join(store.tryAcquireRead(key, "warm-up", LEASE)).acquired()).isTrue();
		assertThat(join(store.readGrants().release(key, "warm-up"))).isTrue();
		counts.reset();
		for (int i = 0; i < 10; i++) {
			assertThat(join(store.tryAcquireRead(key, "r" + i, LEASE)).acquired()).isTrue();
			assertThat(join(store.readGrants().release(key, "r" + i))).isTrue();
		}
		assertThat(counts.writes()).as("writes of 10 read grants and releases: %s", counts).isEqualTo(20);
		assertThat(counts.reads()).as("reads of 10 read grants and releases: %s", counts).isZero();
	}

	private DefaultLockClient newClient(ZooKeeperLockStore store) {
		DefaultLockClient client = new DefaultLockClient(store);
		this.clients.add(client);
		return client;
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
		ensemble.adopt(client);
		return client;
	}

	private static <T> T join(CompletionStage<T> stage) throws Exception {
		return stage.toCompletableFuture().get(20, TimeUnit.SECONDS);
	}

}
