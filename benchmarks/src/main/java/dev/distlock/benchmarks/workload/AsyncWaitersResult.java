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

/**
 * Outcome of the {@link AsyncWaitersWorkload asynchronous-waiters workload}. Thread
 * counts are live platform threads of the JVM ({@code ThreadMXBean}); heap figures are
 * used heap after a garbage collection hint, so they are approximate.
 *
 * @param waiters how many asynchronous acquisitions waited at once, one per busy key
 * @param threadsBefore live threads before the waiters started (after a warm-up wait of
 * the same client)
 * @param threadsWhileWaiting live threads once every waiter was waiting
 * @param peakThreadsStarting most threads alive at once while the waiters started
 * @param peakThreadsGranting most threads alive at once from the holder's first release
 * until every waiter was granted
 * @param heapBefore used heap before the waiters started, bytes
 * @param heapWhileWaiting used heap once every waiter was waiting, bytes
 * @param startNanos time from the first {@code acquireAsync} call until every waiter was
 * waiting
 * @param releaseNanos time the holder took to release every key (its release stages
 * completed)
 * @param allGrantedNanos time from the holder's first release until the last waiter's
 * future completed
 * @param grant time from the holder's first release until each waiter's future completed
 * @param failed futures completed exceptionally (timed out, failed) instead of granted
 * @param heldAfter locks the waiting client still held after every grant was released
 * @param lockKeysLeft lock keys of the workload left in Redis after every release
 * @param newThreads threads alive once every waiter was granted that were not alive
 * before the waiters started, by name without its trailing number, the clients' ids
 * replaced by {@code holder} and {@code waiter}
 * @author distlock
 * @since 0.1.0
 */
public record AsyncWaitersResult(int waiters, int threadsBefore, int threadsWhileWaiting, int peakThreadsStarting,
		int peakThreadsGranting, long heapBefore, long heapWhileWaiting, long startNanos, long releaseNanos,
		long allGrantedNanos, Latency grant, long failed, int heldAfter, long lockKeysLeft,
		Map<String, Integer> newThreads) {

	/**
	 * Return the threads alive while every waiter waited beyond those alive before.
	 * @return the threads added while waiting
	 */
	public int threadsAddedWhileWaiting() {
		return this.threadsWhileWaiting - this.threadsBefore;
	}

	/**
	 * Return the threads the waiters added while they started and while they all waited:
	 * the larger of the peak while starting and the count while all waited, beyond those
	 * alive before. The holder's releases and the grants come after.
	 * @return the threads added by the waiting waiters
	 */
	public int waitingThreadsAdded() {
		return Math.max(this.threadsWhileWaiting, this.peakThreadsStarting) - this.threadsBefore;
	}

	/**
	 * Return the most threads alive at once at any moment of the run (starting, waiting,
	 * being granted) beyond those alive before.
	 * @return the peak of added threads
	 */
	public int peakThreadsAdded() {
		int peak = Math.max(this.threadsWhileWaiting, Math.max(this.peakThreadsStarting, this.peakThreadsGranting));
		return peak - this.threadsBefore;
	}

	/**
	 * Return the heap the waiters retain, in bytes: used heap while waiting minus before,
	 * never negative. Approximate (a collection hint, not a heap dump).
	 * @return the retained heap
	 */
	public long heapAddedBytes() {
		return Math.max(0, this.heapWhileWaiting - this.heapBefore);
	}

	/**
	 * Return the heap the waiters retain per waiter, in bytes. Approximate.
	 * @return bytes per waiter, zero without waiters
	 */
	public double heapBytesPerWaiter() {
		return (this.waiters > 0) ? heapAddedBytes() / (double) this.waiters : 0;
	}

	/**
	 * Return whether every waiter was granted and nothing was left behind: no failed
	 * future, no lock held by the client, no lock key in Redis.
	 * @return whether the run ended clean
	 */
	public boolean allGrantedAndCleanedUp() {
		return this.failed == 0 && this.heldAfter == 0 && this.lockKeysLeft == 0;
	}

}
