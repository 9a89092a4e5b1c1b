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
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.ForcedRelease;
import dev.distlock.core.LockHold;
import dev.distlock.core.LockState;
import dev.distlock.LockLostException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The operator's view of Redis locks: {@link RedisLockStore#inspect(String)} and
 * {@link RedisLockStore#forceRelease(String)} through {@link DefaultLockClient}, on the
 * test Redis.
 *
 * @author distlock
 */
class RedisLockInspectionTests extends RedisStoreTestSupport {

	@Test
	void inspectShowsTheHolderTheTimeToLiveAndTheLastFencingToken() throws Exception {
		DefaultLockClient holder = newClient();
		DefaultLockClient operator = newClient();
		String key = uniqueKey("inspect{tagged}");
		LockHold hold = holder.acquire("orders", key, Duration.ZERO, Duration.ofSeconds(20));
		LockState state = operator.inspect(key);
		assertThat(state.held()).isTrue();
		assertThat(state.heldByThisClient()).isFalse();
		assertThat(state.holderClientId()).isEqualTo(holder.clientId());
		assertThat(state.ttl()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(20));
		assertThat(state.lastFencingToken()).isEqualTo(hold.fencingToken());
		LockState own = holder.inspect(key);
		assertThat(own.heldByThisClient()).isTrue();
		assertThat(own.local()).isNotNull();
		assertThat(own.local().name()).isEqualTo("orders");
		hold.release();
		LockState free = operator.inspect(key);
		assertThat(free.held()).isFalse();
		assertThat(free.ttl()).isNull();
		assertThat(free.lastFencingToken()).isEqualTo(hold.fencingToken());
		assertThat(operator.inspect(uniqueKey("never")).lastFencingToken()).isZero();
	}

	@Test
	void forceReleaseDeletesAnotherClientsLockAndWakesItsWaiters() throws Exception {
		DefaultLockClient holder = newClient();
		DefaultLockClient operator = newClient();
		String key = uniqueKey("stuck");
		LockHold hold = holder.acquire("orders", key, Duration.ZERO, null);
		CompletionStage<LockHold> waiter = operator.acquireAsync(key, Duration.ofSeconds(20), null);
		awaitWaiting(operator, key);
		long started = System.nanoTime();
		ForcedRelease released = operator.forceRelease(key);
		assertThat(released.released()).isTrue();
		assertThat(released.holderClientId()).isEqualTo(holder.clientId());
		assertThat(released.heldByThisClient()).isFalse();
		LockHold taken = waiter.toCompletableFuture().get(10, TimeUnit.SECONDS);
		// woken by the release message, not by the re-check at the holder's lease end (30
		// s)
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
		assertThat(redis.opsForValue().get(lockKey(key))).startsWith(operator.clientId());
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release);
		taken.release();
		assertThat(operator.forceRelease(key).released()).isFalse();
	}

}
