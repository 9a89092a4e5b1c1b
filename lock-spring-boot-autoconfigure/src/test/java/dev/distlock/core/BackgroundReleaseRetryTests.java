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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.LockBackendException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A grant given back in the background (a caller that gave up while its request was in
 * flight) is released again when the store failed the first release, as after a hang, so
 * that the lock does not stay taken for its whole lease; the retries are bounded.
 *
 * @author distlock
 */
class BackgroundReleaseRetryTests {

	private final InMemoryLockStore memory = new InMemoryLockStore();

	private final FailingReleases store = new FailingReleases(this.memory);

	private final LockEngine engine = new LockEngine(this.store, LockClientSettings.defaults(),
			LockClientListener.NONE);

	@AfterEach
	void close() {
		this.engine.close();
		this.engine.shutdownThreads();
	}

	@Test
	void aGrantGivenBackIsReleasedAgainAfterTheStoreFailedTheRelease() {
		this.store.failures.set(1);
		this.engine.releaseInBackground("given-back", grant("given-back"));
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.memory.isLocked("given-back"));
		assertThat(this.store.releases).hasValue(2);
	}

	@Test
	void givesUpAfterTheLastRetryAndTheLockExpiresWithItsLease() {
		this.store.failures.set(Integer.MAX_VALUE);
		CompletableFuture<Boolean> release = this.engine.releaseInBackground("stuck", grant("stuck"))
			.toCompletableFuture();
		await().atMost(Duration.ofSeconds(15)).until(release::isDone);
		assertThat(release).isCompletedExceptionally();
		assertThat(this.store.releases).hasValue(1 + LockEngine.BACKGROUND_RELEASE_RETRIES.size());
		assertThat(this.memory.isLocked("stuck")).isTrue();
	}

	private String grant(String key) {
		String token = "token-" + key;
		assertThat(this.memory.tryAcquire(key, token, Duration.ofSeconds(60)).toCompletableFuture().join().acquired())
			.isTrue();
		return token;
	}

	/**
	 * The in-memory store, failing as many releases as asked.
	 */
	private static final class FailingReleases implements LockStore {

		private final InMemoryLockStore store;

		private final AtomicInteger failures = new AtomicInteger();

		private final AtomicInteger releases = new AtomicInteger();

		FailingReleases(InMemoryLockStore store) {
			this.store = store;
		}

		@Override
		public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
			return this.store.tryAcquire(key, token, lease);
		}

		@Override
		public CompletionStage<Boolean> release(String key, String token) {
			this.releases.incrementAndGet();
			if (this.failures.getAndUpdate((left) -> Math.max(0, left - 1)) > 0) {
				return CompletableFuture.failedFuture(
						new LockBackendException(key, "release", new IllegalStateException("store did not answer")));
			}
			return this.store.release(key, token);
		}

		@Override
		public CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
			return this.store.expireAfter(key, token, remaining);
		}

		@Override
		public CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
			return this.store.renew(renewals, lease);
		}

		@Override
		public CompletionStage<Boolean> isOwner(String key, String token) {
			return this.store.isOwner(key, token);
		}

		@Override
		public Subscription onRelease(String key, Runnable listener) {
			return this.store.onRelease(key, listener);
		}

	}

}
