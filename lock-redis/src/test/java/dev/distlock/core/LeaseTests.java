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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.distlock.redis.RedisLockStore;
import dev.distlock.LockLostException;
import dev.distlock.testing.redis.TestRedis;
import dev.distlock.redis.RedisStoreTestSupport;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Leases on Redis: the watchdog renews many leases with few scripts, and a crashed
 * client's lock is free within one lease. The backend-neutral lease semantics are in
 * {@code dev.distlock.store.test.LockStoreContractTests}.
 *
 * @author distlock
 */
class LeaseTests extends RedisStoreTestSupport {

	private static final Duration SHORT_LEASE = Duration.ofMillis(900);

	@Test
	void watchdogRenewsManyLocksInBatches() throws Exception {
		DefaultLockClient client = newClient(
				LockClientSettings.defaults().withWatchdogLease(Duration.ofSeconds(3)).withRenewalBatchSize(500));
		int count = 1200;
		List<LockHandle> locks = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			LockHandle lock = client.obtain(uniqueKey("batch-" + i));
			assertThat(lock.tryLock(Duration.ZERO)).isTrue();
			locks.add(lock);
		}
		assertThat(client.renewedLeaseCount()).isEqualTo(count);
		long scriptsBefore = scriptCalls();
		long started = System.nanoTime();
		Thread.sleep(1500);
		long rounds = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started) / 1000;
		long scripts = scriptCalls() - scriptsBefore;
		System.out.printf("%d leases renewed with %d scripts in about %d round(s)%n", count, scripts, rounds);
		assertThat(scripts).isBetween(3L, 3L * (rounds + 1));
		Thread.sleep(2000);
		for (LockHandle lock : locks) {
			assertThat(lock.isHeldByCurrentThread()).isTrue();
			lock.unlock();
		}
		assertThat(client.renewedLeaseCount()).isZero();
	}

	@Test
	void aCrashedClientsLockIsFreeWithinOneLease() throws Exception {
		String key = uniqueKey("crashed");
		LettuceConnectionFactory doomedConnection = TestRedis.connectionFactory(TestRedis.endpoint(), COMMAND_TIMEOUT);
		DefaultLockClient doomed = new DefaultLockClient(new RedisLockStore(TestRedis.template(doomedConnection)),
				LockClientSettings.defaults().withWatchdogLease(Duration.ofSeconds(1)));
		assertThat(doomed.obtain(key).tryLock(Duration.ZERO)).isTrue();
		long acquiredAt = System.nanoTime();
		doomedConnection.destroy();
		doomed.close();
		assertThat(redis.hasKey(lockKey(key))).isTrue();
		LockHandle survivor = newClient().obtain(key);
		assertThat(survivor.tryLock(Duration.ofSeconds(5))).isTrue();
		long freedAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - acquiredAt);
		System.out.println("lock of a crashed client was free after " + freedAfterMillis + " ms (lease 1000 ms)");
		assertThat(freedAfterMillis).isLessThan(1000 + 1000);
		survivor.unlock();
	}

}
