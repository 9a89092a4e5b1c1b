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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

import dev.distlock.LockAcquisitionException;
import dev.distlock.LockLostException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;
import dev.distlock.store.FairQueueExtension;
import dev.distlock.store.ReadLockExtension;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * When a fixed lease runs out, the key is free for the same client as for every other:
 * its local turn passes on with the key, while the old holder learns of the loss at its
 * release and never disturbs the new holder.
 */
abstract class LeaseEndContract extends ContractGroup {

	private static final Duration SECOND = Duration.ofSeconds(1);

	LeaseEndContract(LockStoreContractTests suite) {
		super(suite);
	}

	/**
	 * Every case of this group takes fixed leases.
	 */
	@BeforeEach
	void requireFixedLeases() {
		assumeFixedLeases();
	}

	@Test
	void anExpiredFixedLeaseFreesTheKeyForTheSameClientAtOnce() throws Exception {
		DefaultLockClient client = newClient();
		String key = uniqueKey("fixed-lease");
		LockHold first = client.acquire(key, Duration.ZERO, Duration.ofMillis(50));
		waitAtMost(SECOND).pollDelay(Duration.ofMillis(100)).until(() -> !isLocked(key));
		LockHold second = client.acquire(key, Duration.ZERO, null);
		assertThat(first.isValid()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(first::release);
		assertThat(second.isValid()).isTrue();
		assertThat(isLocked(key)).isTrue();
		second.release();
	}

	@Test
	void anExpiredFixedFairLeaseFreesTheKeyForTheSameClientAtOnce() throws Exception {
		assumeSupports(FairQueueExtension.class);
		LockClient client = newClient().fair();
		String key = uniqueKey("fixed-fair-lease");
		LockHold first = client.acquire(key, Duration.ZERO, Duration.ofMillis(50));
		waitAtMost(SECOND).pollDelay(Duration.ofMillis(100)).until(() -> !isLocked(key));
		LockHold second = client.acquire(key, Duration.ZERO, null);
		assertThat(first.isValid()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(first::release);
		assertThat(second.isValid()).isTrue();
		second.release();
	}

	@Test
	void anExpiredFixedReadLeaseFreesTheKeyForAWriterOfTheSameClient() throws Exception {
		assumeSupports(ReadLockExtension.class);
		DefaultLockClient client = newClient();
		String key = uniqueKey("fixed-read-lease");
		LockHold reader = client.readLocks().acquire(key, Duration.ZERO, Duration.ofMillis(50));
		waitAtMost(SECOND).pollDelay(Duration.ofMillis(100)).until(() -> !isLocked(key));
		LockHold writer = client.acquire(key, Duration.ZERO, null);
		assertThat(reader.isValid()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(reader::release);
		assertThat(writer.isValid()).isTrue();
		writer.release();
	}

	@Test
	void anExpiredFixedLeaseOfAHandleFreesTheKeyForAnotherThreadAndIsNotReentered() throws Exception {
		DefaultLockClient client = newClient();
		String key = uniqueKey("fixed-lease-handle");
		ExecutorService first = Executors.newSingleThreadExecutor();
		ExecutorService second = Executors.newSingleThreadExecutor();
		try {
			LockHandle firstHandle = client.obtain(key);
			assertThat(first.submit(() -> firstHandle.tryLock(Duration.ZERO, Duration.ofMillis(50))).get()).isTrue();
			// Free in the store, and in the client once its timer ran (late on a loaded
			// machine)
			waitAtMost(SECOND).pollDelay(Duration.ofMillis(100)).until(() -> !isLocked(key) && client.heldCount() == 0);
			LockHandle secondHandle = client.obtain(key);
			assertThat(second.submit(() -> secondHandle.tryLock(Duration.ZERO)).get()).isTrue();
			assertThat(first.submit(() -> thrownBy(() -> firstHandle.tryLock(Duration.ZERO))).get())
				.as("re-entry of the expired hold")
				.isInstanceOf(LockLostException.class);
			assertThat(first.submit(() -> thrownBy(firstHandle::unlock)).get()).as("release of the expired hold")
				.isInstanceOf(LockLostException.class);
			assertThat(second.submit(secondHandle::isHeldByCurrentThread).get()).isTrue();
			second.submit((Runnable) secondHandle::unlock).get();
			assertThat(isLocked(key)).isFalse();
		}
		finally {
			first.shutdownNow();
			second.shutdownNow();
		}
	}

	@Test
	void eightThreadsOnTwoNamesWithShortFixedLeasesLoseNoUpdate() throws Exception {
		DefaultLockClient client = newClient();
		List<String> names = List.of(uniqueKey("fuzz-a"), uniqueKey("fuzz-b"));
		long[] counters = new long[2];
		AtomicLongArray grants = new AtomicLongArray(2);
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> workers = new ArrayList<>();
			for (int t = 0; t < 8; t++) {
				workers.add(threads.submit(() -> {
					for (int i = 0; i < 100; i++) {
						int n = ThreadLocalRandom.current().nextInt(2);
						try (LockHold hold = client.acquire(names.get(n), Duration.ZERO, Duration.ofSeconds(1))) {
							grants.incrementAndGet(n);
							long seen = counters[n];
							Thread.yield();
							counters[n] = seen + 1;
						}
						catch (LockAcquisitionException busy) {
							// Another thread holds it: try again
						}
					}
					return null;
				}));
			}
			for (Future<?> worker : workers) {
				worker.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}
		// Every grant counted atomically; a lost update of the plain counter shows as
		// fewer
		assertThat(counters).containsExactly(grants.get(0), grants.get(1));
		assertThat(grants.get(0) + grants.get(1)).isPositive();
	}

	@Test
	void expiredFixedLeaseHoldsAreForgottenAndReportedLostOnlyWhenReleased() throws Exception {
		DefaultLockClient client = newClient();
		List<LockHold> holds = new ArrayList<>();
		for (int i = 0; i < 200; i++) {
			holds.add(client.acquire(uniqueKey("forgotten"), Duration.ZERO, Duration.ofSeconds(1)));
		}
		assertThat(client.heldCount()).isPositive();
		waitAtMost(Duration.ofSeconds(10)).until(() -> client.heldCount() == 0);
		assertThat(client.heldLocks()).isEmpty();
		// The local view ends a drift margin before the store's lease
		waitAtMost(SECOND).until(() -> holds.stream().noneMatch((hold) -> isLocked(hold.key())));
		assertThatExceptionOfType(LockLostException.class).isThrownBy(holds.get(0)::release);
	}

	private static @Nullable Throwable thrownBy(Action action) {
		try {
			action.run();
			return null;
		}
		catch (Throwable ex) {
			return ex;
		}
	}

	@FunctionalInterface
	private interface Action {

		void run() throws Exception;

	}

}
