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

package dev.distlock.redis;

import java.time.Duration;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockHandle;
import dev.distlock.store.support.StageTimeouts;
import dev.distlock.store.support.Stages;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The uncontended path's cost, counted: the scripts an acquire and a release of a client
 * run, the client threads a blocking acquire and release pass through, and the timeout
 * mechanisms a request on a ready connection uses (Lettuce's own timer, which the test
 * connection's default client options enable, and no bound of the store's besides).
 *
 * @author distlock
 */
class RedisUncontendedPathTests extends RedisStoreTestSupport {

	private static final Duration LEASE = Duration.ofSeconds(30);

	@Test
	void anUncontendedAcquireAndReleaseOfAClientRunOneScriptEach() throws InterruptedException {
		DefaultLockClient client = newClient();
		await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
			client.acquire(uniqueKey("warm-up"), Duration.ZERO, null).release();
			return true;
		});
		String key = uniqueKey("uncontended");
		long before = scriptCalls();
		client.acquire(key, Duration.ZERO, null).release();
		assertThat(scriptCalls() - before).as("scripts per uncontended acquire+release").isEqualTo(2);
	}

	@Test
	void anUncontendedBlockingAcquireAndReleaseHandNoWorkToTheClientsCallbackThreads() throws InterruptedException {
		DefaultLockClient client = newClient();
		await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
			client.acquire(uniqueKey("warm-up"), Duration.ZERO, null).release();
			return true;
		});
		LockHandle handle = client.obtain(uniqueKey("uncontended-handle"));
		for (int i = 0; i < 200; i++) {
			// As the benchmark's callers take it: waiting, so the request registers the
			// client as a waiter if refused
			assertThat(handle.tryLock(Duration.ofSeconds(5))).isTrue();
			handle.unlock();
		}
		// The callback pool starts a thread for its first task: a grant or a release that
		// went through it would have left one
		String callbackThreads = "distlock-" + client.clientId().substring(0, 8) + "-callback-";
		assertThat(Thread.getAllStackTraces().keySet()).map(Thread::getName)
			.as("threads of the client's callback pool")
			.noneMatch((name) -> name.startsWith(callbackThreads));
	}

	@Test
	void aRequestOnAReadyConnectionIsBoundedByTheClientsTimerAloneWhenItHasOne() {
		RedisLockStore store = newStore();
		await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
			String key = uniqueKey("warm-up");
			return Stages.join(store.tryAcquire(key, "owner", LEASE)).acquired()
					&& Stages.join(store.release(key, "owner"));
		});
		await().atMost(Duration.ofSeconds(10)).until(() -> StageTimeouts.pendingAndScheduled()[0] == 0);
		int boundsSeen = 0;
		for (int i = 0; i < 50; i++) {
			String key = uniqueKey("bounded");
			assertThat(Stages.join(store.tryAcquire(key, "owner", LEASE)).acquired()).isTrue();
			boundsSeen += StageTimeouts.pendingAndScheduled()[0];
			assertThat(Stages.join(store.release(key, "owner"))).isTrue();
			boundsSeen += StageTimeouts.pendingAndScheduled()[0];
		}
		assertThat(boundsSeen).as("requests bounded by the store's own timer as well").isZero();
	}

}
