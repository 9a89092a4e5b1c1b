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
package dev.distlock.autoconfigure;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.distlock.LockBackendException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import dev.distlock.memory.InMemoryLockStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.willReturn;
import static org.mockito.Mockito.spy;

/**
 * The health of a lock client: a failed renewal round is described by the type of its
 * error, never by the error's message (which names keys and hosts).
 *
 * @author distlock
 */
class LockHealthTests {

	private final InMemoryLockStore store = spy(new InMemoryLockStore());

	@Test
	void describesAFailedRenewalByItsErrorsTypeNotItsMessage() throws Exception {
		try (DefaultLockClient client = new DefaultLockClient(this.store,
				LockClientSettings.defaults().withWatchdogLease(Duration.ofMillis(600)))) {
			LockHold hold = client.acquire("user:4711", Duration.ZERO, null);
			willReturn(CompletableFuture.failedFuture(new LockBackendException("user:4711", "renew",
					new IllegalStateException("connection to redis.internal:6379 lost"))))
				.given(this.store)
				.renew(any(), any());
			LockHealth health = new LockHealth(client);
			await().atMost(Duration.ofSeconds(5)).until(() -> health.state().down());
			assertThat(health.state().details().get("lastRenewalError")).asString()
				.endsWith(": dev.distlock.LockBackendException")
				.doesNotContain("user:4711")
				.doesNotContain("redis.internal");
			hold.release();
		}
	}

}
