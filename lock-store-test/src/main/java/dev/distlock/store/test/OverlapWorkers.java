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
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.core.LockClient;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The worker of the overlap cases: threads of several clients take one key in turn, half
 * of them with call-owned holds, half with thread-bound handles, and count, inside the
 * lock, overlaps and fencing tokens that do not increase, while incrementing a counter
 * that is not atomic (so that an overlap can lose an increment).
 *
 * @author distlock
 */
final class OverlapWorkers {

	private final AtomicInteger inside = new AtomicInteger();

	private final AtomicInteger overlaps = new AtomicInteger();

	private final AtomicInteger regressions = new AtomicInteger();

	private long lastFence;

	private int counter;

	private OverlapWorkers() {
	}

	/**
	 * Run {@code threadsPerClient} threads per client, {@code rounds} times each, on
	 * {@code key}, and assert that no two held it at once, that fencing tokens strictly
	 * increased and that no increment was lost.
	 * @param key the lock key
	 * @param clients the clients (or views) to lock with
	 * @param threadsPerClient the threads of each client
	 * @param rounds how many times each thread takes the lock
	 * @throws Exception if a worker failed
	 */
	static void assertNeverOverlap(String key, List<? extends LockClient> clients, int threadsPerClient, int rounds)
			throws Exception {
		OverlapWorkers run = new OverlapWorkers();
		List<Future<?>> workers = new ArrayList<>();
		for (LockClient client : clients) {
			for (int t = 0; t < threadsPerClient; t++) {
				boolean callOwned = t % 2 == 0;
				workers.add(ContractGroup.inNewThread(() -> {
					for (int i = 0; i < rounds; i++) {
						run.round(client, key, callOwned);
					}
					return null;
				}));
			}
		}
		for (Future<?> worker : workers) {
			worker.get(3, TimeUnit.MINUTES);
		}
		assertThat(run.overlaps).hasValue(0);
		assertThat(run.regressions).hasValue(0);
		assertThat(run.counter).isEqualTo(clients.size() * threadsPerClient * rounds);
	}

	private void round(LockClient client, String key, boolean callOwned) throws Exception {
		if (callOwned) {
			LockHold hold = client.acquireAsync(key, Duration.ofSeconds(60), null)
				.toCompletableFuture()
				.get(60, TimeUnit.SECONDS);
			try {
				criticalSection(hold.fencingToken());
			}
			finally {
				hold.release();
			}
		}
		else {
			LockHandle lock = client.obtain(key);
			assertThat(lock.tryLock(Duration.ofSeconds(60))).isTrue();
			try {
				criticalSection(lock.fencingToken());
			}
			finally {
				lock.unlock();
			}
		}
	}

	private void criticalSection(long fence) {
		if (this.inside.incrementAndGet() > 1) {
			this.overlaps.incrementAndGet();
		}
		int read = this.counter;
		Thread.onSpinWait();
		this.counter = read + 1;
		if (fence <= this.lastFence) {
			this.regressions.incrementAndGet();
		}
		this.lastFence = fence;
		this.inside.decrementAndGet();
	}

}
