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

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.distlock.benchmarks.RedisAdmin;
import dev.distlock.benchmarks.RedisEndpoint;
import dev.distlock.benchmarks.contender.Contender;
import dev.distlock.benchmarks.contender.LockContender;
import dev.distlock.benchmarks.contender.LockContender.Held;

/**
 * Many locks held at once by one thread, with a short lease that the library must keep
 * renewing: counts the commands clients send to Redis per renewal interval (from the slow
 * log with a zero threshold, which tells script-internal commands apart), the threads the
 * held locks add and the heap they retain.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class HeldLocksWorkload {

	private static final Duration WAIT = Duration.ofSeconds(5);

	private static final String KEY_PREFIX = "held:";

	/** distlock's fencing-token keys, which are not locks. */
	private static final String FENCE_SUFFIX = ":fence";

	private final Duration lease;

	private final Duration window;

	/**
	 * Create the workload.
	 * @param lease the watchdog lease; renewal runs every third of it
	 * @param window how long to count renewal commands, at least one renewal interval
	 */
	public HeldLocksWorkload(Duration lease, Duration window) {
		this.lease = lease;
		this.window = window;
	}

	/**
	 * Run the workload.
	 * @param contender the library under test, with renewal turned on
	 * @param endpoint the Redis
	 * @param admin a connection to the same Redis
	 * @param count how many locks to hold
	 * @return the result
	 * @throws Exception if a lock cannot be taken or released
	 */
	public HeldLocksResult run(Contender contender, RedisEndpoint endpoint, RedisAdmin admin, int count)
			throws Exception {
		admin.flush();
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		try (LockContender lock = contender.connect(endpoint, this.lease, true)) {
			acquire(lock, "warm-up").unlock();
			long heapBefore = usedHeapAfterGc();
			int threadsBefore = threads.getThreadCount();
			List<Held> held = new ArrayList<>(count);
			for (int i = 0; i < count; i++) {
				held.add(acquire(lock, KEY_PREFIX + i));
			}
			Duration interval = contender.renewalInterval(this.lease);
			Duration window = (interval.compareTo(this.window) > 0) ? interval : this.window;
			Thread.sleep(interval.toMillis());
			int extraThreads = threads.getThreadCount() - threadsBefore;
			admin.startCountingCommands();
			Thread.sleep(window.toMillis());
			Map<String, Long> commands = admin.stopCountingCommands();
			long stillHeld = admin.countKeys("*" + KEY_PREFIX + "*", FENCE_SUFFIX);
			double heapPerLock = (usedHeapAfterGc() - heapBefore) / (double) count;
			extraThreads = Math.max(extraThreads, threads.getThreadCount() - threadsBefore);
			for (Held one : held) {
				one.unlock();
			}
			double rounds = window.toNanos() / (double) interval.toNanos();
			long total = commands.values().stream().mapToLong(Long::longValue).sum();
			return new HeldLocksResult(count, stillHeld, total / rounds, commands, extraThreads, heapPerLock);
		}
	}

	private static Held acquire(LockContender lock, String key) throws InterruptedException {
		Held held = lock.tryLock(key, WAIT);
		if (held == null) {
			throw new IllegalStateException("Could not take free lock '" + key + "'");
		}
		return held;
	}

	private static long usedHeapAfterGc() throws InterruptedException {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		for (int i = 0; i < 3; i++) {
			System.gc();
			Thread.sleep(100);
		}
		return memory.getHeapMemoryUsage().getUsed();
	}

}
