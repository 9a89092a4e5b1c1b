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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

import dev.distlock.LockAcquisitionException;
import dev.distlock.NoSegmentAvailableException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientListener;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import dev.distlock.core.LockTracker;
import dev.distlock.core.SegmentHold;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * One of several keys ({@code acquireAny}, the segments of one hot item): every free key
 * serves a caller at once, a caller waits only when every key it may take is busy and
 * gets the first one released, a filter skips keys, a call whose filter rejects every key
 * fails at once, a caller that gives up at any instant leaves nothing held, and each
 * key's fencing tokens increase.
 *
 * @author distlock
 */
abstract class AcquireAnyContract extends ContractGroup {

	private static final Duration SECOND = Duration.ofSeconds(1);

	AcquireAnyContract(LockStoreContractTests suite) {
		super(suite);
	}

	@Test
	void eightHoldersOfEightKeysRunAtOnceAndTheNinthGetsTheFirstReleasedKey() throws Exception {
		List<String> keys = segmentKeys("any-eight", 8);
		List<DefaultLockClient> clients = List.of(newClient(), newClient());
		CountDownLatch allInside = new CountDownLatch(8);
		CountDownLatch leave = new CountDownLatch(1);
		Map<Integer, CountDownLatch> releaseOne = new ConcurrentHashMap<>();
		ExecutorService holders = Executors.newFixedThreadPool(8);
		List<Future<Integer>> segments = new ArrayList<>();
		try {
			for (int i = 0; i < 8; i++) {
				DefaultLockClient client = clients.get(i % 2);
				segments.add(holders.submit(() -> {
					SegmentHold hold = client.acquireAny("any", keys, Duration.ofSeconds(10), null);
					assertThat(hold.key()).isEqualTo(keys.get(hold.segment()));
					CountDownLatch mine = new CountDownLatch(1);
					releaseOne.put(hold.segment(), mine);
					allInside.countDown();
					// Every holder is inside before any leaves: eight bodies at once
					assertThat(allInside.await(10, TimeUnit.SECONDS)).isTrue();
					while (!mine.await(5, TimeUnit.MILLISECONDS) && leave.getCount() > 0) {
						Thread.onSpinWait();
					}
					hold.release();
					return hold.segment();
				}));
			}
			assertThat(allInside.await(20, TimeUnit.SECONDS)).as("eight holders inside at once").isTrue();
			assertThat(keys).allMatch(this::isLocked);
			DefaultLockClient ninthClient = newClient();
			CompletableFuture<SegmentHold> ninth = ninthClient
				.acquireAnyAsync("any", keys, Duration.ofSeconds(10), null)
				.toCompletableFuture();
			// The ninth waits while every key is held: the fixed wait is what this
			// asserts
			waitAtMost(SECOND).during(Duration.ofMillis(300)).until(() -> !ninth.isDone());
			int released = ThreadLocalRandom.current().nextInt(8);
			waitAtMost(SECOND).until(() -> releaseOne.size() == 8);
			CountDownLatch holderOfReleased = releaseOne.get(released);
			assertThat(holderOfReleased).as("the holder of segment %d", released).isNotNull();
			Objects.requireNonNull(holderOfReleased).countDown();
			SegmentHold taken = ninth.get(10, TimeUnit.SECONDS);
			assertThat(taken.segment()).isEqualTo(released);
			assertThat(taken.key()).isEqualTo(keys.get(released));
			assertThat(isLocked(keys.get(released))).isTrue();
			leave.countDown();
			Set<Integer> held = new HashSet<>();
			for (Future<Integer> segment : segments) {
				held.add(segment.get(10, TimeUnit.SECONDS));
			}
			assertThat(held).as("each holder had a segment of its own").hasSize(8);
			taken.release();
			waitAtMost(SECOND).until(() -> keys.stream().noneMatch(this::isLocked));
			assertThat(ninthClient.heldCount()).isZero();
		}
		finally {
			leave.countDown();
			holders.shutdownNow();
		}
	}

	@Test
	void theFilterSkipsRejectedKeysOnTheCallersThreadAndAllAcceptedBusyIsBusy() throws Exception {
		List<String> keys = segmentKeys("any-filter", 6);
		DefaultLockClient client = newClient();
		Set<Thread> filterThreads = ConcurrentHashMap.newKeySet();
		List<SegmentHold> holds = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			holds.add(client.acquireAny("any", keys, (segment) -> {
				filterThreads.add(Thread.currentThread());
				return segment % 2 == 1;
			}, Duration.ZERO, null));
		}
		assertThat(holds).extracting(SegmentHold::segment).containsExactlyInAnyOrder(1, 3, 5);
		assertThat(filterThreads).containsExactly(Thread.currentThread());
		assertThat(isLocked(keys.get(0)) || isLocked(keys.get(2)) || isLocked(keys.get(4))).isFalse();
		assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(
				() -> newClient().acquireAny("any", keys, (segment) -> segment % 2 == 1, Duration.ofMillis(50), null))
			.withMessageContaining(keys.get(1))
			.isNotInstanceOf(NoSegmentAvailableException.class);
		SegmentHold even = newClient().acquireAny("any", keys, Duration.ZERO, null);
		assertThat(even.segment() % 2).isZero();
		even.release();
		holds.forEach(LockHold::release);
		assertThat(keys).noneMatch(this::isLocked);
	}

	@Test
	void anAsynchronousFilterRunsOnTheGivenExecutorNeverOnTheClientsThreads() throws Exception {
		List<String> keys = segmentKeys("any-executor", 4);
		DefaultLockClient client = newClient();
		ExecutorService filters = Executors.newSingleThreadExecutor((task) -> new Thread(task, "segment-filter"));
		try {
			Set<String> threads = ConcurrentHashMap.newKeySet();
			SegmentHold hold = client.acquireAnyAsync("any", keys, (segment) -> {
				threads.add(Thread.currentThread().getName());
				return segment == 2;
			}, filters, Duration.ZERO, null).toCompletableFuture().get(10, TimeUnit.SECONDS);
			assertThat(hold.segment()).isEqualTo(2);
			assertThat(threads).containsExactly("segment-filter");
			hold.releaseAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);
			assertThat(isLocked(keys.get(2))).isFalse();
		}
		finally {
			filters.shutdown();
		}
	}

	@Test
	void aFilterThatRejectsEveryKeyFailsAtOnceWithoutAskingTheStore() throws Exception {
		List<String> keys = segmentKeys("any-rejected", 4);
		PausedRepliesLockStore store = new PausedRepliesLockStore(newStore());
		DefaultLockClient client = newClient(store, LockClientSettings.defaults());
		assertThatExceptionOfType(NoSegmentAvailableException.class)
			.isThrownBy(() -> client.acquireAny("any", keys, (segment) -> false, Duration.ofSeconds(10), null))
			.withMessageContaining(keys.get(0))
			.satisfies((ex) -> assertThat(ex.getSegments()).isEqualTo(4));
		CompletableFuture<SegmentHold> async = client
			.acquireAnyAsync("any", keys, (segment) -> false, Runnable::run, Duration.ofSeconds(10), null)
			.toCompletableFuture();
		assertThat(async).isCompletedExceptionally();
		assertThatExceptionOfType(Exception.class).isThrownBy(async::join)
			.havingRootCause()
			.isInstanceOf(NoSegmentAvailableException.class);
		assertThat(store.requests()).isZero();
		assertThat(client.acquiringCount()).isZero();
		assertThat(keys).noneMatch(this::isLocked);
	}

	@Test
	void argumentsAndViewsWithoutSegmentsAreRefusedNamingTheProblem() {
		List<String> keys = segmentKeys("any-refused", 2);
		DefaultLockClient client = newClient();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> client.acquireAny("any", List.of(keys.get(0), keys.get(0)), Duration.ZERO, null))
			.withMessageContaining("distinct");
		assertThatIllegalArgumentException().isThrownBy(() -> client.acquireAny("any", List.of(), Duration.ZERO, null))
			.withMessageContaining("must not be empty");
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> client.fair().acquireAny("any", keys, Duration.ZERO, null))
			.withMessageContaining("fair = true");
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> client.readLocks().acquireAny("any", keys, Duration.ZERO, null))
			.withMessageContaining("mode = READ");
		assertThat(keys).noneMatch(this::isLocked);
	}

	@Test
	void oneCallIsReportedAsOneAcquisition() throws Exception {
		List<String> keys = segmentKeys("any-reported", 4);
		List<String> started = new CopyOnWriteArrayList<>();
		LockClientListener listener = new LockClientListener() {

			@Override
			public LockTracker acquisitionStarted(String name, String key) {
				started.add(name);
				return LockTracker.NONE;
			}

		};
		DefaultLockClient client = newClient(newStore(), LockClientSettings.defaults(), listener);
		try (LockHold other = newClient().acquire(keys.get(0), Duration.ZERO, null)) {
			client.acquireAny("stock", keys, Duration.ZERO, null).release();
			assertThat(other.isValid()).isTrue();
		}
		assertThat(started).containsExactly("stock");
	}

	@Test
	void twoHundredCancelsAtRandomInstantsLeaveNothingHeld() throws Exception {
		List<String> keys = segmentKeys("any-cancel", 4);
		DefaultLockClient holder = newClient();
		// Two keys busy, so that some callers wait and some are cancelled while waiting
		List<LockHold> busy = List.of(holder.acquire(keys.get(0), Duration.ZERO, null),
				holder.acquire(keys.get(1), Duration.ZERO, null));
		DefaultLockClient client = newClient();
		ExecutorService filters = Executors.newFixedThreadPool(2);
		AtomicInteger granted = new AtomicInteger();
		try {
			for (int i = 0; i < 200; i++) {
				CompletableFuture<SegmentHold> acquisition = client
					.acquireAnyAsync("any", keys, (segment) -> true, (i % 3 == 0) ? filters : Runnable::run,
							(i % 2 == 0) ? Duration.ZERO : Duration.ofSeconds(5), null)
					.toCompletableFuture();
				LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(TimeUnit.MILLISECONDS.toNanos(2) + 1));
				if (!acquisition.cancel(false)) {
					try {
						acquisition.join().release();
						granted.incrementAndGet();
					}
					catch (RuntimeException busyOrCancelled) {
						assertThat(busyOrCancelled).hasRootCauseInstanceOf(LockAcquisitionException.class);
					}
				}
			}
			waitAtMost(SECOND.multipliedBy(3)).untilAsserted(() -> {
				assertThat(keys.subList(2, 4)).noneMatch(this::isLocked);
				assertThat(client.heldCount()).isZero();
				assertThat(client.acquiringCount()).isZero();
			});
			// And still none a second later: no grant arrives late for a caller that gave
			// up
			waitAtMost(SECOND.multipliedBy(3)).during(SECOND)
				.until(() -> keys.subList(2, 4).stream().noneMatch(this::isLocked) && client.heldCount() == 0);
			busy.forEach(LockHold::release);
			assertThat(keys).noneMatch(this::isLocked);
		}
		finally {
			filters.shutdown();
		}
	}

	@Test
	void aCallerThatCancelsWhileItsRequestIsInFlightLeavesNoLock() {
		List<String> keys = segmentKeys("any-in-flight", 3);
		PausedRepliesLockStore store = new PausedRepliesLockStore(newStore());
		DefaultLockClient client = newClient(store, LockClientSettings.defaults());
		store.pause();
		CompletableFuture<SegmentHold> acquisition = client.acquireAnyAsync("any", keys, Duration.ZERO, null)
			.toCompletableFuture();
		waitAtMost(SECOND).until(() -> store.requests() == 1);
		// The store has granted one key; the reply is on its way
		waitAtMost(SECOND).until(() -> keys.stream().anyMatch(this::isLocked));
		assertThat(acquisition.cancel(false)).isTrue();
		store.resume();
		waitAtMost(SECOND).until(() -> keys.stream().noneMatch(this::isLocked));
		assertThat(client.heldCount()).isZero();
		assertThat(client.renewedLeaseCount()).isZero();
	}

	@Test
	void eachKeysFencingTokensIncrease() throws Exception {
		List<String> keys = segmentKeys("any-fencing", 4);
		List<DefaultLockClient> clients = List.of(newClient(), newClient());
		Map<Integer, List<Long>> tokens = new ConcurrentHashMap<>();
		for (int i = 0; i < 40; i++) {
			SegmentHold hold = clients.get(i % 2).acquireAny("any", keys, Duration.ofSeconds(5), null);
			assertThat(hold.key()).isEqualTo(keys.get(hold.segment()));
			tokens.computeIfAbsent(hold.segment(), (segment) -> new ArrayList<>()).add(hold.fencingToken());
			hold.release();
		}
		assertThat(tokens.keySet()).as("a random start spreads callers over the keys").hasSizeGreaterThan(1);
		tokens.values().forEach((perKey) -> assertThat(perKey).isSorted().doesNotHaveDuplicates());
		assertThat(tokens.values().stream().flatMap(List::stream)).allMatch((token) -> token > 0);
	}

	private static List<String> segmentKeys(String name, int segments) {
		String item = uniqueKey(name);
		return IntStream.range(0, segments).mapToObj((segment) -> item + ":" + segment).toList();
	}

}
