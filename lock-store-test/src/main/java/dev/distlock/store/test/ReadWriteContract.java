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

package dev.distlock.store.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.distlock.LockAcquisitionException;
import dev.distlock.LockLostException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;
import dev.distlock.store.FairQueueExtension;
import dev.distlock.store.ReadLockExtension;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Read-write locks: shared readers, exclusive writers, no writer starvation, reentrancy
 * as in a {@code ReentrantReadWriteLock}, reader leases. Needs a
 * {@link ReadLockExtension}.
 *
 * @author distlock
 */
abstract class ReadWriteContract extends ContractGroup {

	ReadWriteContract(LockStoreContractTests suite) {
		super(suite);
	}

	@BeforeEach
	void requireCapability() {
		assumeSupports(ReadLockExtension.class);
	}

	@Test
	void readersOverlapAcrossClientsAndThreads() throws Exception {
		String key = uniqueKey("readers");
		DefaultLockClient client = newClient();
		List<LockClient> readers = List.of(client.readLocks(), client.readLocks(), newClient().readLocks());
		CountDownLatch allHold = new CountDownLatch(readers.size());
		ExecutorService pool = Executors.newFixedThreadPool(readers.size());
		try {
			List<Future<Boolean>> overlapped = new ArrayList<>();
			for (LockClient reader : readers) {
				overlapped.add(pool.submit(() -> {
					LockHandle lock = reader.obtain(key);
					assertThat(lock.tryLock(Duration.ofSeconds(10))).isTrue();
					try {
						allHold.countDown();
						return allHold.await(10, TimeUnit.SECONDS);
					}
					finally {
						lock.unlock();
					}
				}));
			}
			for (Future<Boolean> reader : overlapped) {
				assertThat(reader.get(30, TimeUnit.SECONDS)).as("every reader held the lock at once").isTrue();
			}
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void readersAndWritersExcludeEachOtherOnANonAtomicCounter() throws Exception {
		String key = uniqueKey("read-write-counter");
		List<DefaultLockClient> pair = List.of(newClient(), newClient());
		int writes = 25;
		int reads = 40;
		int[] counter = new int[1];
		AtomicInteger readersInside = new AtomicInteger();
		AtomicInteger writersInside = new AtomicInteger();
		AtomicInteger violations = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(6);
		List<Future<?>> workers = new ArrayList<>();
		for (DefaultLockClient client : pair) {
			workers.add(pool.submit(() -> {
				for (int i = 0; i < writes; i++) {
					LockHandle lock = client.obtain(key);
					assertThat(lock.tryLock(Duration.ofSeconds(60))).isTrue();
					try {
						if (writersInside.incrementAndGet() > 1 || readersInside.get() > 0) {
							violations.incrementAndGet();
						}
						int read = counter[0];
						// the work done under the lock, not a wait: a window for an
						// overlap
						Thread.sleep(1);
						counter[0] = read + 1;
						writersInside.decrementAndGet();
					}
					finally {
						lock.unlock();
					}
				}
				return null;
			}));
			for (int r = 0; r < 2; r++) {
				boolean callOwned = r == 0;
				workers.add(pool.submit(() -> {
					for (int i = 0; i < reads; i++) {
						Runnable readTwice = () -> {
							readersInside.incrementAndGet();
							int first = counter[0];
							Thread.onSpinWait();
							if (writersInside.get() > 0 || counter[0] != first) {
								violations.incrementAndGet();
							}
							readersInside.decrementAndGet();
						};
						if (callOwned) {
							try (LockHold hold = client.readLocks()
								.acquireAsync(key, Duration.ofSeconds(60), null)
								.toCompletableFuture()
								.get(60, TimeUnit.SECONDS)) {
								readTwice.run();
							}
						}
						else {
							LockHandle lock = client.readLocks().obtain(key);
							assertThat(lock.tryLock(Duration.ofSeconds(60))).isTrue();
							try {
								readTwice.run();
							}
							finally {
								lock.unlock();
							}
						}
					}
					return null;
				}));
			}
		}
		for (Future<?> worker : workers) {
			worker.get(3, TimeUnit.MINUTES);
		}
		pool.shutdown();
		assertThat(violations).hasValue(0);
		assertThat(counter[0]).isEqualTo(pair.size() * writes);
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void aWriterIsNotStarvedByAStreamOfOverlappingReaders() throws Exception {
		String key = uniqueKey("reader-stream");
		LockClient readers = newClient().readLocks();
		AtomicLong acquisitions = new AtomicLong();
		AtomicInteger readersInside = new AtomicInteger();
		AtomicBoolean stop = new AtomicBoolean();
		CountDownLatch streaming = new CountDownLatch(8);
		ExecutorService pool = Executors.newFixedThreadPool(4);
		List<Future<?>> stream = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			stream.add(pool.submit(() -> {
				long streamEnds = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
				while (!stop.get() && System.nanoTime() - streamEnds < 0) {
					LockHandle lock = readers.obtain(key);
					if (!lock.tryLock(Duration.ofSeconds(1))) {
						continue;
					}
					readersInside.incrementAndGet();
					long mine = acquisitions.incrementAndGet();
					streaming.countDown();
					// Leave only once a later reader got in, so that the key is never
					// free while readers flow; or after 300 ms without one (readers
					// refused).
					try {
						await().atMost(Duration.ofMillis(300))
							.pollInterval(Duration.ofMillis(2))
							.until(() -> acquisitions.get() != mine);
					}
					catch (ConditionTimeoutException ex) {
						// no later reader: they are refused while the writer waits
					}
					readersInside.decrementAndGet();
					lock.unlock();
				}
				return null;
			}));
		}
		try {
			assertThat(streaming.await(30, TimeUnit.SECONDS)).isTrue();
			LockHandle writer = newClient().obtain(key);
			assertThat(writer.tryLock(Duration.ofSeconds(15)))
				.as("the writer got in within 15 s of a reader stream lasting 40 s")
				.isTrue();
			try {
				assertThat(readersInside).hasValue(0);
			}
			finally {
				writer.unlock();
			}
		}
		finally {
			stop.set(true);
			for (Future<?> reader : stream) {
				reader.get(30, TimeUnit.SECONDS);
			}
			pool.shutdown();
		}
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void writeAndReadLocksAreReentrantLikeAReentrantReadWriteLock() throws Exception {
		String key = uniqueKey("reentrant-read-write");
		DefaultLockClient client = newClient();
		LockClient otherReaders = newClient().readLocks();
		LockHandle write = client.obtain(key);
		LockHandle read = client.readLocks().obtain(key);
		assertThat(write.tryLock(Duration.ZERO)).isTrue();
		assertThat(write.tryLock(Duration.ZERO)).isTrue();
		assertThat(read.tryLock(Duration.ZERO)).as("the writer takes the read lock").isTrue();
		assertThat(read.fencingToken()).isEqualTo(write.fencingToken()).isPositive();
		write.unlock();
		write.unlock();
		assertThat(onOtherThread(() -> otherReaders.obtain(key).tryLock(Duration.ZERO)))
			.as("a read lock taken under the write lock keeps it exclusive")
			.isFalse();
		read.unlock();
		assertThat(isLocked(key)).isFalse();
		assertThat(read.tryLock(Duration.ZERO)).isTrue();
		assertThat(read.tryLock(Duration.ZERO)).isTrue();
		assertThat(read.getHoldCount()).isEqualTo(2);
		assertThat(read.fencingToken()).isZero();
		read.unlock();
		assertThat(read.isHeldByCurrentThread()).isTrue();
		assertThatIllegalStateException().isThrownBy(() -> write.tryLock(Duration.ofMinutes(5)))
			.withMessageContaining(key)
			.withMessageContaining("cannot be upgraded");
		assertThatIllegalStateException().isThrownBy(() -> client.acquire(key, Duration.ofMinutes(5), null))
			.withMessageContaining("cannot be upgraded");
		assertThat(onOtherThread(() -> client.obtain(key).tryLock(Duration.ZERO))).isFalse();
		read.unlock();
		assertThat(read.isHeldByCurrentThread()).isFalse();
		assertThat(isLocked(key)).isFalse();
		assertThat(onOtherThread(() -> {
			LockHandle other = client.obtain(key);
			boolean locked = other.tryLock(Duration.ZERO);
			other.unlock();
			return locked;
		})).isTrue();
	}

	@Test
	void writersGetIncreasingFencingTokensAcrossReadPhasesAndReadersGetNone() throws Exception {
		String key = uniqueKey("read-fencing");
		DefaultLockClient client = newClient();
		long first;
		try (LockHold write = client.acquire(key, Duration.ZERO, null)) {
			first = write.fencingToken();
		}
		try (LockHold read = client.readLocks().acquire(key, Duration.ZERO, null)) {
			assertThat(read.fencingToken()).isZero();
			read.confirmOwnership();
		}
		try (LockHold write = newClient().acquire(key, Duration.ZERO, null)) {
			assertThat(write.fencingToken()).isGreaterThan(first);
		}
	}

	@Test
	void aDeadReadersLeaseEndsWhileOtherReadersRenewAndKeepTheLock() throws Exception {
		assumeFixedLeases();
		String key = uniqueKey("dead-reader");
		LockClient renewed = newClient(LockClientSettings.defaults().withWatchdogLease(SHORT_LEASE)).readLocks();
		LockClient dead = newClient().readLocks();
		DefaultLockClient writers = newClient();
		LockHold live = renewed.acquire(key, Duration.ZERO, null);
		LockHold stale = dead.acquire(key, Duration.ZERO, SHORT_LEASE);
		// Nothing may happen to the renewed reader for three leases
		await().during(SHORT_LEASE.multipliedBy(3))
			.atMost(SHORT_LEASE.multipliedBy(10))
			.pollInterval(Duration.ofMillis(50))
			.until(live::isValid);
		waitAtMost(Duration.ofSeconds(10)).until(() -> !stale.isValid());
		assertThat(live.isValid()).as("renewal keeps a reader past its lease").isTrue();
		live.confirmOwnership();
		assertThat(stale.isValid()).isFalse();
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> writers.acquire(key, Duration.ZERO, null));
		live.release();
		try (LockHold write = writers.acquire(key, Duration.ZERO, null)) {
			assertThat(write.fencingToken()).as("the dead reader no longer keeps the writer out").isPositive();
		}
		assertThatExceptionOfType(LockLostException.class).isThrownBy(stale::release);
	}

	@Test
	void aWaitingWriterGetsInWhenTheLastReaderLeaves() throws Exception {
		writerGetsInWhenTheLastReaderLeaves(uniqueKey("writer-wakes"), newClient(), false);
	}

	@Test
	void aWaitingFairWriterKeepsNewReadersOutAndGetsInWhenTheLastReaderLeaves() throws Exception {
		assumeSupports(FairQueueExtension.class);
		writerGetsInWhenTheLastReaderLeaves(uniqueKey("fair-writer-wakes"), newClient(), true);
	}

	void writerGetsInWhenTheLastReaderLeaves(String key, DefaultLockClient client, boolean fair) throws Exception {
		LockClient writers = fair ? client.fair() : client;
		LockHold first = newClient().readLocks().acquire(key, Duration.ZERO, null);
		LockHold second = newClient().readLocks().acquire(key, Duration.ZERO, null);
		CompletableFuture<LockHold> writer = writers.acquireAsync(key, Duration.ofSeconds(30), null)
			.toCompletableFuture();
		awaitWaiting(client, key);
		LockClient newReaders = newClient().readLocks();
		waitAtMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
			.alias("a new reader backs off while a writer waits")
			.until(() -> {
				try {
					newReaders.acquire(key, Duration.ZERO, null).release();
					return false;
				}
				catch (LockAcquisitionException ex) {
					return true;
				}
			});
		first.release();
		assertThat(writer).isNotDone();
		second.release();
		writer.get(10, TimeUnit.SECONDS).release();
		// The writer's release leaves no writer-waiting mark: a new reader gets in at
		// once
		try (LockHold reader = newClient().readLocks().acquire(key, Duration.ZERO, null)) {
			assertThat(reader.isValid()).isTrue();
		}
	}

	@Test
	void waitingReadersCountAsWaitingCallersOfTheirClient() throws Exception {
		String key = uniqueKey("waiting-readers");
		LockHold writer = newClient().acquire(key, Duration.ZERO, null);
		DefaultLockClient client = newClient();
		List<CompletableFuture<LockHold>> readers = List.of(
				client.readLocks().acquireAsync(key, Duration.ofSeconds(30), null).toCompletableFuture(),
				client.readLocks().acquireAsync(key, Duration.ofSeconds(30), null).toCompletableFuture());
		waitAtMost(Duration.ofSeconds(10)).until(() -> client.waitingCount(key) == 2);
		assertThat(client.acquiringCount()).isEqualTo(2);
		writer.release();
		for (CompletableFuture<LockHold> reader : readers) {
			reader.get(10, TimeUnit.SECONDS).release();
		}
		assertThat(client.waitingCount(key)).isZero();
	}

	@Test
	void aLostReadLockIsReportedToItsHolder() throws Exception {
		DefaultLockClient client = newClient(LockClientSettings.defaults().withWatchdogLease(SHORT_LEASE));
		LockHandle lock = client.readLocks().obtain(uniqueKey("lost-read"));
		assertThat(lock.tryLock(Duration.ZERO)).isTrue();
		LockHold hold = client.readLocks().acquire(uniqueKey("lost-read-hold"), Duration.ZERO, null);
		takeOver(lock.key());
		takeOver(hold.key());
		await().pollInSameThread()
			.atMost(Duration.ofSeconds(10))
			.until(() -> !lock.isHeldByCurrentThread() && !hold.isValid());
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		assertThat(hold.isValid()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::confirmOwnership);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release);
		assertThat(isLocked(lock.key())).as("the new owner keeps its key").isTrue();
		expire(lock.key());
		expire(hold.key());
	}

	@Test
	void severalReadLocksAreTakenAllOrNothing() throws Exception {
		String a = uniqueKey("read-all-a");
		String b = uniqueKey("read-all-b");
		DefaultLockClient client = newClient();
		List<LockHold> holds = client.readLocks().acquireAll(List.of(b, a, b), Duration.ZERO, null);
		assertThat(holds).extracting(LockHold::key).containsExactly(a, b);
		try (LockHold otherReader = newClient().readLocks().acquire(a, Duration.ZERO, null)) {
			assertThat(otherReader.isValid()).isTrue();
		}
		holds.forEach(LockHold::release);
		LockHandle writer = heldByAnotherClient(b);
		try {
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> client.readLocks().acquireAll(List.of(a, b), Duration.ofMillis(100), null))
				.withMessageContaining(b);
			// given back in the background as the refusal is reported
			await("the read lock of the first key given back").atMost(Duration.ofSeconds(1)).until(() -> !isLocked(a));
		}
		finally {
			writer.unlock();
		}
	}

}
