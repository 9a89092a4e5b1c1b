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

import dev.distlock.redis.RedisStoreTestSupport;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of the client's local queue on Redis: callers of one client waiting for one key
 * queue locally, so only one of them waits in Redis.
 *
 * @author distlock
 */
class RedisLocalQueueTests extends RedisStoreTestSupport {

	@Test
	void waitersOfOneClientQueueLocallySoOnlyOneWaitsInRedis() throws Exception {
		String key = uniqueKey("queue");
		LockHandle holder = heldByAnotherClient(key);
		DefaultLockClient waitingClient = newClient();
		int threads = 8;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		List<Future<Boolean>> waiters = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			waiters.add(pool.submit(() -> {
				LockHandle lock = waitingClient.obtain(key);
				boolean acquired = lock.tryLock(Duration.ofSeconds(30));
				if (acquired) {
					lock.unlock();
				}
				return acquired;
			}));
		}
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (waitingClient.waitingCount(key) < threads && System.nanoTime() - deadline < 0) {
			Thread.sleep(5);
		}
		assertThat(waitingClient.waitingCount(key)).isEqualTo(threads);
		long scriptsBefore = scriptCalls();
		Thread.sleep(500);
		assertThat(waitingClient.storeWaiterCount()).isEqualTo(1);
		// The one waiter in Redis re-checks at most once a second without a release; its
		// attempt right after subscribing and the re-check its subscription's
		// confirmation
		// triggers may fall in the window. Eight waiters in Redis would make eight or
		// more.
		assertThat(scriptCalls() - scriptsBefore).isLessThanOrEqualTo(2);
		holder.unlock();
		for (Future<Boolean> waiter : waiters) {
			assertThat(waiter.get(30, TimeUnit.SECONDS)).isTrue();
		}
		pool.shutdown();
		assertThat(waitingClient.waitingCount(key)).isZero();
	}

}
