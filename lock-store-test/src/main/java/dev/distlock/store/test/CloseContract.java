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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.distlock.LockLostException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;
import dev.distlock.store.SessionLeaseExtension;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Closing a client: it releases what it holds, refuses new requests and fails its
 * waiters.
 *
 * @author distlock
 */
abstract class CloseContract extends ContractGroup {

	private static final Duration SECOND = Duration.ofSeconds(1);

	CloseContract(LockStoreContractTests suite) {
		super(suite);
	}

	@Test
	void closingReleasesHeldLocksAndRefusesNewOnes() throws Exception {
		String key = uniqueKey("closed");
		DefaultLockClient client = newClient();
		LockHandle lock = client.obtain(key);
		assertThat(lock.tryLock(Duration.ZERO)).isTrue();
		LockHold hold = client.acquire(key + ":hold", Duration.ZERO, null);
		client.close();
		assertThat(newClient().obtain(key).tryLock(Duration.ZERO)).isTrue();
		assertThat(isLocked(key + ":hold")).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock).withMessageContaining("closed");
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release).withMessageContaining("closed");
		assertThatIllegalStateException().isThrownBy(() -> client.obtain(uniqueKey("after")).tryLock(Duration.ZERO))
			.withMessageContaining("closed");
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> client.acquireAsync(uniqueKey("after"), Duration.ZERO, null)
				.toCompletableFuture()
				.get(5, TimeUnit.SECONDS))
			.withCauseInstanceOf(IllegalStateException.class);
	}

	@Test
	void closingWaitsForARequestInFlightAndLeavesNoLockBehind() throws Exception {
		PausedRepliesLockStore store = new PausedRepliesLockStore(newStore());
		DefaultLockClient client = newClient(store,
				LockClientSettings.defaults().withCloseTimeout(Duration.ofSeconds(10)));
		String key = uniqueKey("close-in-flight");
		store.pause();
		// The decorator keeps a session-lease store's refusal of a fixed lease: there
		// the watchdog keeps the lock
		@Nullable Duration leaseTime = supports(SessionLeaseExtension.class) ? null : Duration.ofMinutes(10);
		CompletableFuture<LockHold> acquisition = client.acquireAsync(key, Duration.ZERO, leaseTime)
			.toCompletableFuture();
		waitAtMost(SECOND).until(() -> store.requests() == 1);
		// The store has granted the lock; the reply is on its way
		waitAtMost(SECOND).until(() -> isLocked(key));
		Future<Void> closing = inNewThread(() -> {
			client.close();
			return null;
		});
		// Nothing happens: the fixed wait is what this asserts (close waits for the
		// reply)
		waitAtMost(SECOND).during(Duration.ofMillis(300)).until(() -> !closing.isDone());
		store.resume();
		closing.get(10, TimeUnit.SECONDS);
		assertThat(isLocked(key)).isFalse();
		assertThat(client.heldCount()).isZero();
		waitAtMost(SECOND).until(acquisition::isCompletedExceptionally);
	}

	@Test
	void closingWakesWaitersWhichThenFail() throws Exception {
		String key = uniqueKey("close-waiter");
		LockHandle holder = heldByAnotherClient(key);
		DefaultLockClient client = newClient();
		CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
			try {
				return client.obtain(key).tryLock(Duration.ofSeconds(30));
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		awaitWaiting(client, key);
		client.close();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> waiter.get(5, TimeUnit.SECONDS))
			.withRootCauseInstanceOf(IllegalStateException.class);
		holder.unlock();
	}

}
