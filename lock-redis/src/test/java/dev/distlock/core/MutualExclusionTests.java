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

package dev.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.redis.RedisStoreTestSupport;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two clients (as two application instances would) hammer one key from many threads; a
 * counter that is not thread-safe proves that no two holds ever overlapped.
 *
 * @author distlock
 */
class MutualExclusionTests extends RedisStoreTestSupport {

	private static final int CLIENTS = 2;

	private static final int THREADS_PER_CLIENT = 8;

	private static final int OPS_PER_THREAD = 500;

	private int counter;

	private long lastFence;

	private int fenceRegressions;

	@Test
	void twoClientsNeverHoldOneKeyAtTheSameTime() throws Exception {
		String key = uniqueKey("counter");
		List<DefaultLockClient> clients = List.of(newClient(), newClient());
		assertThat(clients.get(0).clientId()).isNotEqualTo(clients.get(1).clientId());
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger acquisitions = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(CLIENTS * THREADS_PER_CLIENT);
		List<Future<?>> workers = new ArrayList<>();
		for (DefaultLockClient client : clients) {
			for (int t = 0; t < THREADS_PER_CLIENT; t++) {
				workers.add(pool.submit(() -> {
					LockHandle lock = client.obtain(key);
					for (int i = 0; i < OPS_PER_THREAD; i++) {
						if (!lock.tryLock(Duration.ofSeconds(60))) {
							throw new IllegalStateException("Not acquired within 60 s");
						}
						try {
							if (inside.incrementAndGet() > 1) {
								overlaps.incrementAndGet();
							}
							acquisitions.incrementAndGet();
							this.counter = this.counter + 1;
							long fence = lock.fencingToken();
							if (fence <= this.lastFence) {
								this.fenceRegressions++;
							}
							this.lastFence = fence;
							inside.decrementAndGet();
						}
						finally {
							lock.unlock();
						}
					}
					return null;
				}));
			}
		}
		for (Future<?> worker : workers) {
			worker.get(5, TimeUnit.MINUTES);
		}
		pool.shutdown();
		int expected = CLIENTS * THREADS_PER_CLIENT * OPS_PER_THREAD;
		assertThat(acquisitions).hasValue(expected);
		assertThat(this.counter).isEqualTo(expected);
		assertThat(overlaps).hasValue(0);
		assertThat(this.fenceRegressions).isZero();
		assertThat(redis.hasKey(lockKey(key))).isFalse();
	}

}
