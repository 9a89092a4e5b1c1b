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
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.LockAcquisitionException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockHold;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Several keys: all or nothing, and no deadlock nor overlap between callers whose key
 * sets overlap.
 *
 * @author distlock
 */
abstract class SeveralKeysContract extends ContractGroup {

	SeveralKeysContract(LockStoreContractTests suite) {
		super(suite);
	}

	@Test
	void severalKeysAreLockedAllOrNothingAndDuplicatesCountOnce() throws Exception {
		String a = uniqueKey("all-a");
		String b = uniqueKey("all-b");
		String c = uniqueKey("all-c");
		DefaultLockClient client = newClient();
		List<LockHold> holds = client.acquireAll(List.of(b, a, b), Duration.ZERO, null);
		assertThat(holds).extracting(LockHold::key).containsExactlyInAnyOrder(a, b).isSorted();
		assertThat(isLocked(a) && isLocked(b)).isTrue();
		try (LockHold other = newClient().acquire(c, Duration.ZERO, null)) {
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> newClient().acquireAll(List.of(b, c), Duration.ofMillis(100), null))
				.withMessageContaining(b);
			assertThat(other.isValid()).isTrue();
		}
		holds.forEach(LockHold::release);
		DefaultLockClient another = newClient();
		try (LockHold held = another.acquire(c, Duration.ZERO, null)) {
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> client.acquireAll(List.of(a, c), Duration.ofMillis(100), null));
			// a key taken before the refusal, on a store that takes them one by one, is
			// given back in the background as the refusal is reported
			await("nothing held after a refusal").atMost(Duration.ofSeconds(1)).until(() -> !isLocked(a));
			assertThat(held.fencingToken()).isPositive();
		}
		assertThatIllegalArgumentException().isThrownBy(() -> client.acquireAll(List.of(), Duration.ZERO, null))
			.withMessageContaining("must not be empty");
		assertThatIllegalArgumentException().isThrownBy(() -> client.acquireAll(List.of(a, " "), Duration.ZERO, null))
			.withMessageContaining("blank");
	}

	@Test
	void callersWithOverlappingKeySetsNeverDeadlockNorOverlap() throws Exception {
		String a = uniqueKey("set-a");
		String b = uniqueKey("set-b");
		String c = uniqueKey("set-c");
		List<List<String>> sets = List.of(List.of(a, b), List.of(b, a), List.of(b, c), List.of(c, a));
		List<DefaultLockClient> pair = List.of(newClient(), newClient());
		Map<String, AtomicInteger> inside = new ConcurrentHashMap<>();
		AtomicInteger overlaps = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(sets.size() * pair.size());
		List<Future<?>> workers = new ArrayList<>();
		for (DefaultLockClient client : pair) {
			for (List<String> set : sets) {
				workers.add(pool.submit(() -> {
					for (int i = 0; i < 25; i++) {
						List<LockHold> holds = (i % 2 == 0) ? client.acquireAll(set, Duration.ofSeconds(60), null)
								: client.acquireAllAsync(set, Duration.ofSeconds(60), null)
									.toCompletableFuture()
									.get(60, TimeUnit.SECONDS);
						for (String key : set) {
							if (inside.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet() > 1) {
								overlaps.incrementAndGet();
							}
						}
						Thread.onSpinWait();
						set.forEach((key) -> Objects.requireNonNull(inside.get(key)).decrementAndGet());
						holds.forEach(LockHold::release);
					}
					return null;
				}));
			}
		}
		for (Future<?> worker : workers) {
			worker.get(2, TimeUnit.MINUTES);
		}
		pool.shutdown();
		assertThat(overlaps).hasValue(0);
		assertThat(isLocked(a) || isLocked(b) || isLocked(c)).isFalse();
	}

}
