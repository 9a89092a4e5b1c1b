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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;
import dev.distlock.LockAcquisitionException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What the Redis store adds to the lock contract
 * ({@code dev.distlock.store.test.LockStoreContractTests}): how many round trips things
 * take, the fence key, and the clock-drift margin.
 *
 * @author distlock
 */
class RedisLockStoreTests extends RedisStoreTestSupport {

	@Test
	void reentryNeverTalksToRedis() throws Exception {
		DefaultLockClient client = newClient();
		LockHandle lock = client.obtain(uniqueKey("reentrant"));
		assertThat(lock.tryLock(Duration.ZERO)).isTrue();
		long scriptsAfterFirst = scriptCalls();
		assertThat(client.obtain(lock.key()).tryLock(Duration.ZERO)).isTrue();
		assertThat(lock.tryLock(Duration.ofSeconds(1), Duration.ofSeconds(5))).isTrue();
		assertThat(scriptCalls()).isEqualTo(scriptsAfterFirst);
		lock.unlock();
		lock.unlock();
		lock.unlock();
		assertThat(redis.hasKey(lockKey(lock.key()))).isFalse();
	}

	@Test
	void severalKeysAreTakenWithOneScriptAndAreAllOrNothing() throws Exception {
		DefaultLockClient client = newClient();
		List<String> keys = List.of(uniqueKey("one-script-a"), uniqueKey("one-script-b"), uniqueKey("one-script-c"));
		// Load the script first: its first use is an EVALSHA that Redis refuses, then an
		// EVAL.
		client.acquireAll(List.of(uniqueKey("warm-up-a"), uniqueKey("warm-up-b")), Duration.ZERO, null)
			.forEach(LockHold::release);
		long scriptsBefore = scriptCalls();
		List<LockHold> holds = client.acquireAll(keys, Duration.ZERO, null);
		assertThat(scriptCalls() - scriptsBefore).isEqualTo(1);
		assertThat(holds).allSatisfy((hold) -> assertThat(redis.hasKey(lockKey(hold.key()))).isTrue());
		List<Long> firstFences = holds.stream().map(LockHold::fencingToken).toList();
		holds.forEach(LockHold::release);
		List<LockHold> again = client.acquireAll(keys, Duration.ZERO, null);
		for (int i = 0; i < keys.size(); i++) {
			assertThat(again.get(i).fencingToken()).as("fencing token of %s", keys.get(i))
				.isGreaterThan(firstFences.get(i));
		}
		again.forEach(LockHold::release);
		LockHandle busy = heldByAnotherClient(keys.get(2));
		assertThat(client.obtain(keys.get(0)).tryLock(Duration.ZERO)).isTrue();
		client.obtain(keys.get(0)).unlock();
		scriptsBefore = scriptCalls();
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> client.acquireAll(keys, Duration.ZERO, null))
			.satisfies((ex) -> {
				assertThat(ex.getKey()).isEqualTo(keys.get(2));
				assertThat(ex.getHolderLeaseRemaining()).isPresent();
			});
		assertThat(scriptCalls() - scriptsBefore).isEqualTo(1);
		assertThat(redis.hasKey(lockKey(keys.get(0)))).as("nothing taken when one key is busy").isFalse();
		busy.unlock();
	}

	@Test
	void fencingTokensKeepIncreasingAfterTheFenceKeyExpired() throws Exception {
		LockHandle lock = newClient().obtain(uniqueKey("fence-expiry"));
		assertThat(lock.tryLock(Duration.ZERO, Duration.ofMillis(50))).isTrue();
		long first = lock.fencingToken();
		lock.unlock();
		Thread.sleep(150);
		assertThat(redis.hasKey(lockKey(lock.key()) + ":fence")).isFalse();
		assertThat(lock.tryLock(Duration.ZERO, Duration.ofMillis(50))).isTrue();
		assertThat(lock.fencingToken()).isGreaterThan(first);
		lock.unlock();
	}

	@Test
	void aHolderStopsBelievingItHoldsTheLockAClockDriftMarginBeforeRedisLetsItGo() throws Exception {
		// The margin is 1% of the lease plus 2 ms: 32 ms for 3 s. The moment the holder
		// stops believing is known only to within the window between its last valid and
		// its first invalid look plus the PTTL round trip, so Redis's remaining time is
		// at least the margin less that window; a loaded machine that makes the window
		// wide gets another try.
		Duration lease = Duration.ofSeconds(3);
		long marginMillis = 32;
		for (int attempt = 1;; attempt++) {
			LockHold hold = newClient().acquire(uniqueKey("drift"), Duration.ZERO, lease);
			long lastValid = System.nanoTime();
			while (hold.isValid()) {
				lastValid = System.nanoTime();
				Thread.sleep(1);
			}
			Long remainingInRedis = redis.getExpire(lockKey(hold.key()), TimeUnit.MILLISECONDS);
			long windowMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastValid) + 1;
			hold.close();
			if (windowMillis > 12 && attempt < 4) {
				continue;
			}
			System.out.println("the holder stopped believing with " + remainingInRedis
					+ " ms left in Redis, seen within " + windowMillis + " ms");
			assertThat(windowMillis).as("a look window narrow enough to tell, in %d tries", attempt)
				.isLessThanOrEqualTo(12);
			// minus 2 ms for the millisecond rounding of the lease in Redis
			assertThat(remainingInRedis).isGreaterThanOrEqualTo(marginMillis - 2 - windowMillis);
			return;
		}
	}

}
