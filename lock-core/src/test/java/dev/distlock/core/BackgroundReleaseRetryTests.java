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
import java.util.concurrent.CompletableFuture;

import dev.distlock.LockBackendException;
import dev.distlock.memory.ControllableInMemoryLockStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.BDDMockito.then;
import static org.mockito.BDDMockito.willCallRealMethod;
import static org.mockito.BDDMockito.willReturn;
import static org.mockito.Mockito.spy;
import static org.mockito.Mockito.times;

/**
 * A grant given back in the background (a caller that gave up while its request was in
 * flight) is released again when the store failed the first release, as after a hang, so
 * that the lock does not stay taken for its whole lease; the retries are bounded. The
 * in-memory store answers, with failed releases stubbed in.
 *
 * @author distlock
 */
class BackgroundReleaseRetryTests {

	private final ControllableInMemoryLockStore store = spy(new ControllableInMemoryLockStore());

	private final LockEngine engine = new LockEngine(this.store, LockClientSettings.defaults(),
			LockClientListener.NONE);

	@AfterEach
	void close() {
		this.engine.close();
		this.engine.shutdownThreads();
	}

	@Test
	void aGrantGivenBackIsReleasedAgainAfterTheStoreFailedTheRelease() {
		String token = grant("given-back");
		willReturn(failedRelease("given-back")).willCallRealMethod()
			.given(this.store)
			.release(anyString(), anyString());
		this.engine.releaseInBackground(new LockEntry("given-back", this.engine.writes), token);
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.store.isLocked("given-back"));
		then(this.store).should(times(2)).release("given-back", token);
	}

	@Test
	void givesUpAfterTheLastRetryAndTheLockExpiresWithItsLease() {
		String token = grant("stuck");
		willReturn(failedRelease("stuck")).given(this.store).release(anyString(), anyString());
		CompletableFuture<Boolean> release = this.engine
			.releaseInBackground(new LockEntry("stuck", this.engine.writes), token)
			.toCompletableFuture();
		await().atMost(Duration.ofSeconds(15)).until(release::isDone);
		assertThat(release).isCompletedExceptionally();
		then(this.store).should(times(1 + BackgroundReleases.RETRIES.size())).release("stuck", token);
		assertThat(this.store.isLocked("stuck")).isTrue();
	}

	private String grant(String key) {
		String token = "token-" + key;
		assertThat(this.store.tryAcquire(key, token, Duration.ofSeconds(60)).toCompletableFuture().join().acquired())
			.isTrue();
		return token;
	}

	private static CompletableFuture<Boolean> failedRelease(String key) {
		return CompletableFuture
			.failedFuture(new LockBackendException(key, "release", new IllegalStateException("store did not answer")));
	}

}
