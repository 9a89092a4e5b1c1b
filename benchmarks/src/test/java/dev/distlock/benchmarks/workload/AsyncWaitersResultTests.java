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

package dev.distlock.benchmarks.workload;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AsyncWaitersResult}: the threads, heap and clean-up figures derived
 * from the raw measurements.
 *
 * @author distlock
 * @since 0.1.0
 */
class AsyncWaitersResultTests {

	@Test
	void countsThreadsAddedWhileWaitingAgainstTheBaseline() {
		assertThat(result(40, 43, 43, 43).threadsAddedWhileWaiting()).isEqualTo(3);
	}

	@Test
	void countsTheWaitersThreadsWhileStartingAndWaitingButNotWhileBeingGranted() {
		assertThat(result(40, 42, 44, 49).waitingThreadsAdded()).isEqualTo(4);
		assertThat(result(40, 43, 41, 49).waitingThreadsAdded()).isEqualTo(3);
	}

	@Test
	void takesThePeakOfStartingWaitingAndBeingGranted() {
		assertThat(result(40, 42, 41, 40).peakThreadsAdded()).isEqualTo(2);
		assertThat(result(40, 41, 45, 40).peakThreadsAdded()).isEqualTo(5);
		assertThat(result(40, 41, 41, 47).peakThreadsAdded()).isEqualTo(7);
	}

	@Test
	void dividesTheAddedHeapByTheWaiters() {
		AsyncWaitersResult result = withHeap(10_000, 100_000_000L, 104_500_000L);
		assertThat(result.heapAddedBytes()).isEqualTo(4_500_000L);
		assertThat(result.heapBytesPerWaiter()).isEqualTo(450.0);
	}

	@Test
	void neverReportsNegativeHeapWhenACollectionFreedMoreThanTheWaitersTook() {
		AsyncWaitersResult result = withHeap(1_000, 100_000_000L, 90_000_000L);
		assertThat(result.heapAddedBytes()).isZero();
		assertThat(result.heapBytesPerWaiter()).isZero();
	}

	@Test
	void reportsNoHeapPerWaiterWithoutWaiters() {
		assertThat(withHeap(0, 100, 200).heapBytesPerWaiter()).isZero();
	}

	@Test
	void isCleanOnlyWithoutFailuresHeldLocksOrKeysLeft() {
		assertThat(cleanUp(0, 0, 0).allGrantedAndCleanedUp()).isTrue();
		assertThat(cleanUp(1, 0, 0).allGrantedAndCleanedUp()).isFalse();
		assertThat(cleanUp(0, 1, 0).allGrantedAndCleanedUp()).isFalse();
		assertThat(cleanUp(0, 0, 1).allGrantedAndCleanedUp()).isFalse();
	}

	private static AsyncWaitersResult result(int before, int whileWaiting, int peakStarting, int peakGranting) {
		return new AsyncWaitersResult(1_000, before, whileWaiting, peakStarting, peakGranting, 0, 0, 0, 0, 0,
				new Latency(0, 0, 0), 0, 0, 0, Map.of());
	}

	private static AsyncWaitersResult withHeap(int waiters, long before, long whileWaiting) {
		return new AsyncWaitersResult(waiters, 40, 40, 40, 40, before, whileWaiting, 0, 0, 0, new Latency(0, 0, 0), 0,
				0, 0, Map.of());
	}

	private static AsyncWaitersResult cleanUp(long failed, int heldAfter, long lockKeysLeft) {
		return new AsyncWaitersResult(1_000, 40, 40, 40, 40, 0, 0, 0, 0, 0, new Latency(0, 0, 0), failed, heldAfter,
				lockKeysLeft, Map.of());
	}

}
