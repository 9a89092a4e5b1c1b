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
import java.util.concurrent.TimeUnit;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The watchdog's renewals keep the fence key alive with the lock: a hold many leases long
 * never shows a last fencing token of 0, and the next grant's token is larger.
 *
 * @author distlock
 */
class RedisFenceRenewalTests extends RedisStoreTestSupport {

	private static final Duration LEASE = Duration.ofMillis(600);

	@Test
	void theFenceKeyFollowsTheRenewalsOfAHoldLongerThanManyLeases() throws Exception {
		DefaultLockClient client = newClient(LockClientSettings.defaults().withWatchdogLease(LEASE));
		String key = uniqueKey("long-hold");
		String fenceKey = LockKeys.of(RedisLockStore.DEFAULT_KEY_PREFIX, key).fenceKey();
		LockHold hold = client.acquire(key, Duration.ZERO, null);
		Awaitility.await("the fence key alive with the hold, for five leases")
			.during(LEASE.multipliedBy(5))
			.atMost(LEASE.multipliedBy(7))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> redis.getExpire(fenceKey, TimeUnit.MILLISECONDS) > 0
					&& client.inspect(key).lastFencingToken() == hold.fencingToken());
		hold.release();
		LockHold next = client.acquire(key, Duration.ZERO, null);
		assertThat(next.fencingToken()).isGreaterThan(hold.fencingToken());
		next.release();
	}

}
