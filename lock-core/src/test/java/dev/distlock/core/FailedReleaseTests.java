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
import java.util.concurrent.TimeUnit;

import dev.distlock.LockBackendException;
import dev.distlock.memory.ControllableInMemoryLockStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.then;
import static org.mockito.BDDMockito.willReturn;
import static org.mockito.Mockito.spy;
import static org.mockito.Mockito.times;

/**
 * A release the application asked for that the store failed is sent again in the
 * background, as a background release is, while the caller is still told of the failure;
 * a failed cohort hand-over releases the holder's own token too; closing the client waits
 * for those releases. The in-memory store answers, with failed requests stubbed in.
 *
 * @author distlock
 */
class FailedReleaseTests {

	private final ControllableInMemoryLockStore store = spy(new ControllableInMemoryLockStore());

	private final DefaultLockClient client = new DefaultLockClient(this.store);

	@AfterEach
	void close() {
		this.client.close();
	}

	@Test
	void aReleaseTheStoreFailedIsSentAgainAndTheCallerIsToldOfTheFailure() throws Exception {
		LockHold hold = this.client.acquire("failed-release", Duration.ZERO, null);
		willReturn(failed("failed-release", "release")).willCallRealMethod()
			.given(this.store)
			.release(anyString(), anyString());
		assertThatExceptionOfType(LockBackendException.class).isThrownBy(hold::release);
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.store.isLocked("failed-release"));
		then(this.store).should(times(2)).release(eq("failed-release"), anyString());
		assertThat(this.client.heldCount()).isZero();
	}

	@Test
	void aMinimumHoldTheStoreFailedToSetIsReleasedOnceItEnds() throws Exception {
		LockHold hold = this.client.acquire("failed-keep", Duration.ZERO, null);
		willReturn(failed("failed-keep", "expire")).given(this.store).expireAfter(anyString(), anyString(), any());
		assertThatExceptionOfType(LockBackendException.class).isThrownBy(() -> hold.release(Duration.ofSeconds(2)));
		// The release waits for the minimum hold time, at least a second away
		assertThat(this.store.isLocked("failed-keep")).isTrue();
		await().atMost(Duration.ofSeconds(10)).until(() -> !this.store.isLocked("failed-keep"));
		then(this.store).should().release(eq("failed-keep"), anyString());
	}

	@Test
	void aFailedHandOverReleasesTheHoldersOwnTokenSoTheNextCallerGetsTheLock() throws Exception {
		LockHold holder = this.client.acquire("failed-hand-over", Duration.ZERO, null);
		CompletableFuture<LockHold> next = this.client.acquireAsync("failed-hand-over", Duration.ofSeconds(20), null)
			.toCompletableFuture();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.client.waitingCount("failed-hand-over") == 1);
		willReturn(failed("failed-hand-over", "hand over")).given(this.store)
			.handOver(anyString(), anyString(), anyString(), any());
		assertThatExceptionOfType(LockBackendException.class).isThrownBy(holder::release);
		// Well within the holder's 30-second lease, which nothing renews any more
		LockHold taken = next.get(5, TimeUnit.SECONDS);
		assertThat(taken.isValid()).isTrue();
		then(this.store).should().handOver(eq("failed-hand-over"), anyString(), anyString(), any());
		then(this.store).should(times(2)).release(eq("failed-hand-over"), anyString());
		taken.release();
		assertThat(this.store.isLocked("failed-hand-over")).isFalse();
	}

	@Test
	void closingWaitsForAReleaseSentAgain() throws Exception {
		LockHold hold = this.client.acquire("close-after-failure", Duration.ZERO, null);
		willReturn(failed("close-after-failure", "release")).willCallRealMethod()
			.given(this.store)
			.release(anyString(), anyString());
		assertThatExceptionOfType(LockBackendException.class).isThrownBy(hold::release);
		this.client.close();
		assertThat(this.store.isLocked("close-after-failure")).isFalse();
		then(this.store).should(times(2)).release(eq("close-after-failure"), anyString());
	}

	@Test
	void closingSendsAReleaseWaitingForItsRetryAtOnce() throws Exception {
		LockHold hold = this.client.acquire("close-sends-now", Duration.ZERO, null);
		willReturn(failed("close-sends-now", "expire")).given(this.store).expireAfter(anyString(), anyString(), any());
		// The release would wait for the minimum hold time of a minute; the close cannot
		assertThatExceptionOfType(LockBackendException.class).isThrownBy(() -> hold.release(Duration.ofMinutes(1)));
		this.client.close();
		assertThat(this.store.isLocked("close-sends-now")).isFalse();
		then(this.store).should().release(eq("close-sends-now"), anyString());
	}

	private static <T> CompletableFuture<T> failed(String key, String operation) {
		return CompletableFuture
			.failedFuture(new LockBackendException(key, operation, new IllegalStateException("store did not answer")));
	}

}
