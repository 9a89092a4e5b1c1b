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

import dev.distlock.LockLostException;
import dev.distlock.memory.ControllableInMemoryLockStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A fixed-lease hold that runs out unreleased is forgotten by its client: it no longer
 * counts as held, shows to operators or keeps its key's local state, and it is reported
 * lost only if its holder releases it later. On the in-memory store.
 *
 * @author distlock
 */
class ExpiredFixedLeaseTests {

	private static final Duration LEASE = Duration.ofMillis(300);

	private final ControllableInMemoryLockStore store = new ControllableInMemoryLockStore();

	private final RecordingLockClientListener listener = new RecordingLockClientListener();

	private final DefaultLockClient client = new DefaultLockClient(this.store, LockClientSettings.defaults(),
			this.listener);

	@AfterEach
	void close() {
		this.client.close();
	}

	@Test
	void oneHundredThousandExpiredHoldsLeaveNoneHeld() {
		DefaultLockClient plain = new DefaultLockClient(this.store);
		try {
			int tasksBefore = plain.scheduledCount();
			List<CompletableFuture<LockHold>> holds = new ArrayList<>();
			for (int i = 0; i < 100_000; i++) {
				holds.add(plain.acquireAsync("expiring:" + i, Duration.ZERO, Duration.ofSeconds(2))
					.toCompletableFuture());
			}
			CompletableFuture.allOf(holds.toArray(CompletableFuture[]::new)).join();
			assertThat(plain.heldCount()).isPositive();
			await().atMost(Duration.ofSeconds(60)).until(() -> plain.heldCount() == 0);
			assertThat(plain.heldLocks()).isEmpty();
			assertThat(plain.renewedLeaseCount()).isZero();
			assertThat(plain.scheduledCount()).as("expiry tasks left on the timer").isEqualTo(tasksBefore);
			LockHold last = holds.get(holds.size() - 1).join();
			assertThat(last.isValid()).isFalse();
			// The store's lease of a request it ran late (a loaded machine) ends after
			// the
			// client's, which counts from the request's start: released before that, the
			// lock would still be the caller's
			await().atMost(Duration.ofSeconds(10))
				.until(() -> !this.store.inspect(last.key()).toCompletableFuture().join().held());
			assertThatExceptionOfType(LockLostException.class).isThrownBy(last::release);
		}
		finally {
			plain.close();
		}
	}

	@Test
	void anExpiredHoldIsReportedLostOnlyWhenReleased() throws Exception {
		LockHold hold = this.client.acquire("report", Duration.ZERO, LEASE);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.client.heldCount() == 0);
		assertThat(this.client.heldLocks()).isEmpty();
		assertThat(this.listener.events()).containsExactly("unnamed report started", "unnamed report acquired");
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release).withMessageContaining("report");
		assertThat(this.listener.events()).containsExactly("unnamed report started", "unnamed report acquired",
				"unnamed report lost expired", "unnamed report released with LockLostException");
	}

	@Test
	void theNextLocalCallerTakesTheKeyOfAnExpiredHoldAndKeepsItsTurn() throws Exception {
		LockHold expired = this.client.acquire("turn", Duration.ZERO, LEASE);
		LockHold next = this.client.acquire("turn", Duration.ofSeconds(5), null);
		assertThat(this.client.heldCount()).isOne();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(expired::release);
		// The late release of the expired hold leaves the next caller's turn and lock
		// alone
		assertThat(next.isValid()).isTrue();
		assertThat(this.store.isLocked("turn")).isTrue();
		CompletableFuture<LockHold> third = this.client.acquireAsync("turn", Duration.ofSeconds(5), null)
			.toCompletableFuture();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.client.waitingCount("turn") == 1);
		next.release();
		third.join().release();
		assertThat(this.client.heldCount()).isZero();
		assertThat(this.store.isLocked("turn")).isFalse();
	}

}
