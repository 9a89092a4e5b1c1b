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

import dev.distlock.memory.InMemoryLockStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.waitAtMost;

/**
 * The timer tasks of an acquisition (its deadline and its re-checks) live only as long as
 * the acquisition: whether it is granted, cancelled or times out, its tasks are cancelled
 * and leave the client's one timer, and a caller that waits without a bound schedules no
 * deadline at all. Counts of the timer's queue, not timings.
 *
 * @author distlock
 */
class AcquisitionTimerTests {

	private static final int CALLERS = 300;

	private static final Duration LONG_WAIT = Duration.ofSeconds(60);

	private final InMemoryLockStore store = new InMemoryLockStore();

	private final DefaultLockClient holder = new DefaultLockClient(this.store);

	private final DefaultLockClient client = new DefaultLockClient(this.store);

	@AfterEach
	void close() {
		this.client.close();
		this.holder.close();
	}

	@Test
	void theTimerTasksOfGrantedCancelledAndTimedOutAcquisitionsLeaveTheTimer() throws Exception {
		int idle = this.client.scheduledCount();
		List<String> keys = keys("ends", 3 * CALLERS);
		List<LockHold> held = new ArrayList<>();
		keys.forEach(
				(key) -> held.add(this.holder.acquireAsync(key, Duration.ZERO, null).toCompletableFuture().join()));
		List<CompletableFuture<LockHold>> waiting = new ArrayList<>();
		for (int i = 0; i < keys.size(); i++) {
			Duration wait = (i < 2 * CALLERS) ? LONG_WAIT : Duration.ofMillis(200);
			waiting.add(this.client.acquireAsync(keys.get(i), wait, null).toCompletableFuture());
		}
		waitAtMost(Duration.ofSeconds(10)).until(
				() -> keys.subList(0, 2 * CALLERS).stream().mapToInt(this.client::waitingCount).sum() == 2 * CALLERS);
		assertThat(this.client.scheduledCount()).as("a deadline per bounded waiter")
			.isGreaterThanOrEqualTo(idle + 2 * CALLERS);
		// The first third gives up, the second third is granted, the last third times out
		waiting.subList(0, CALLERS).forEach((acquisition) -> acquisition.cancel(false));
		held.subList(CALLERS, 2 * CALLERS).forEach(LockHold::release);
		CompletableFuture.allOf(waiting.subList(CALLERS, 2 * CALLERS).toArray(CompletableFuture[]::new))
			.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS);
		waiting.subList(CALLERS, 2 * CALLERS).forEach((acquisition) -> acquisition.join().release());
		waitAtMost(Duration.ofSeconds(10)).until(() -> waiting.stream().allMatch(CompletableFuture::isDone));
		assertThat(waiting.subList(2 * CALLERS, 3 * CALLERS)).allMatch(CompletableFuture::isCompletedExceptionally);
		waitAtMost(Duration.ofSeconds(5)).until(() -> this.client.acquiringCount() == 0);
		assertThat(this.client.scheduledCount()).as("timer tasks once every acquisition ended").isEqualTo(idle);
		assertThat(this.client.heldCount()).isZero();
	}

	@Test
	void aCallerThatWaitsWithoutABoundSchedulesNoDeadline() {
		int idle = this.client.scheduledCount();
		List<String> keys = keys("forever", CALLERS);
		List<LockHold> held = new ArrayList<>();
		keys.forEach(
				(key) -> held.add(this.holder.acquireAsync(key, Duration.ZERO, null).toCompletableFuture().join()));
		List<CompletableFuture<LockHold>> waiting = keys.stream()
			.map((key) -> this.client.acquireAsync(key, Duration.ofNanos(Long.MAX_VALUE), null).toCompletableFuture())
			.toList();
		waitAtMost(Duration.ofSeconds(10))
			.until(() -> keys.stream().mapToInt(this.client::waitingCount).sum() == CALLERS);
		// At most one re-check per waiter, and no deadline beside it
		assertThat(this.client.scheduledCount() - idle).isLessThanOrEqualTo(CALLERS);
		waiting.forEach((acquisition) -> acquisition.cancel(false));
		waitAtMost(Duration.ofSeconds(5)).until(() -> this.client.acquiringCount() == 0);
		assertThat(this.client.scheduledCount()).isEqualTo(idle);
		held.forEach(LockHold::release);
	}

	private static List<String> keys(String prefix, int count) {
		List<String> keys = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			keys.add(prefix + ":" + i);
		}
		return keys;
	}

}
