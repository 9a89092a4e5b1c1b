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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.distlock.benchmarks.RedisEndpoint;
import dev.distlock.benchmarks.contender.Contender;
import dev.distlock.benchmarks.contender.LockContender.Held;
import dev.distlock.benchmarks.contender.ReadWriteContender;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Many readers and one writer on one key, in this JVM: readers (one client) read a Redis
 * value under the read lock, back to back; the writer (another client, as another
 * instance would be) changes it under the write lock, with a pause between writes. Run
 * with {@code readersShare} off, the readers take the write lock instead: the same work
 * under a plain mutex, to compare with. Every critical section checks that a writer is
 * never inside with anyone else (nor, under the mutex, a reader with another reader).
 *
 * @author distlock
 * @since 0.1.0
 */
public final class ReadWriteWorkload {

	private static final String KEY = "bench:read-write";

	private static final String DATA = "bench:read-write:data";

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final long WRITER_PAUSE_MILLIS = 50;

	private final Phases phases;

	private final int readers;

	/**
	 * Create the workload.
	 * @param phases warm-up and measured window
	 * @param readers reader threads
	 */
	public ReadWriteWorkload(Phases phases, int readers) {
		this.phases = phases;
		this.readers = readers;
	}

	/**
	 * Run the workload for one library.
	 * @param contender the library
	 * @param endpoint the Redis
	 * @param readersShare whether readers take the read lock, else the write lock
	 * @return what was measured
	 * @throws Exception if a thread failed
	 */
	public ReadWriteResult run(Contender contender, RedisEndpoint endpoint, boolean readersShare) throws Exception {
		RedisClient redis = RedisClient.create(RedisURI.create(endpoint.host(), endpoint.port()));
		try (StatefulRedisConnection<String, String> connection = redis.connect();
				ReadWriteContender readerLocks = ReadWriteContender.connect(contender, endpoint, LEASE);
				ReadWriteContender writerLocks = ReadWriteContender.connect(contender, endpoint, LEASE)) {
			RedisCommands<String, String> data = connection.sync();
			data.set(DATA, "0");
			return measure(readerLocks, writerLocks, data, readersShare);
		}
		finally {
			redis.shutdown();
		}
	}

	private ReadWriteResult measure(ReadWriteContender readerLocks, ReadWriteContender writerLocks,
			RedisCommands<String, String> data, boolean readersShare) throws Exception {
		State state = new State(System.nanoTime());
		List<Thread> threads = new ArrayList<>();
		List<Throwable> failures = new ArrayList<>();
		for (int i = 0; i < this.readers; i++) {
			threads.add(new Thread(() -> readLoop(readerLocks, data, readersShare, state), "reader-" + i));
		}
		threads.add(new Thread(() -> writeLoop(writerLocks, data, state), "writer"));
		threads.forEach((thread) -> thread.setUncaughtExceptionHandler((t, ex) -> {
			synchronized (failures) {
				failures.add(ex);
			}
		}));
		threads.forEach(Thread::start);
		long end = this.phases.measureEnd(state.start);
		Thread.sleep(Math.max(0, (end - System.nanoTime()) / 1_000_000));
		state.stop.set(true);
		for (Thread thread : threads) {
			thread.join(WAIT.toMillis() * 2);
		}
		if (!failures.isEmpty()) {
			throw new IllegalStateException("A read-write thread failed", failures.get(0));
		}
		double seconds = this.phases.measureSeconds();
		return new ReadWriteResult(this.readers, readersShare, state.reads.get() / seconds,
				state.writes.get() / seconds, Latency.of(state.writerWaits.toArray()), state.maxReaders.get(),
				state.violations.get(), state.timeouts.get());
	}

	private void readLoop(ReadWriteContender locks, RedisCommands<String, String> data, boolean readersShare,
			State state) {
		while (!state.stop.get()) {
			Held held = acquire(locks, readersShare, state);
			if (held == null) {
				continue;
			}
			int inside = state.readersInside.incrementAndGet();
			state.maxReaders.accumulateAndGet(inside, Math::max);
			if (state.writerInside.get() || (!readersShare && inside > 1)) {
				state.violations.incrementAndGet();
			}
			data.get(DATA);
			state.readersInside.decrementAndGet();
			held.unlock();
			if (state.measuring(System.nanoTime())) {
				state.reads.incrementAndGet();
			}
		}
	}

	private void writeLoop(ReadWriteContender locks, RedisCommands<String, String> data, State state) {
		while (!state.stop.get()) {
			long asked = System.nanoTime();
			Held held = acquire(locks, false, state);
			if (held == null) {
				continue;
			}
			long holding = System.nanoTime();
			state.writerInside.set(true);
			if (state.readersInside.get() > 0) {
				state.violations.incrementAndGet();
			}
			data.incr(DATA);
			state.writerInside.set(false);
			held.unlock();
			if (state.measuring(holding)) {
				state.writes.incrementAndGet();
				state.writerWaits.add(holding - asked);
			}
			sleep(WRITER_PAUSE_MILLIS);
		}
	}

	private static Held acquire(ReadWriteContender locks, boolean read, State state) {
		try {
			Held held = locks.tryLock(KEY, read, WAIT);
			if (held == null) {
				state.timeouts.incrementAndGet();
			}
			return held;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * What the threads of one run share.
	 */
	private final class State {

		final long start;

		final AtomicBoolean stop = new AtomicBoolean();

		final AtomicInteger readersInside = new AtomicInteger();

		final AtomicInteger maxReaders = new AtomicInteger();

		final AtomicBoolean writerInside = new AtomicBoolean();

		final AtomicLong reads = new AtomicLong();

		final AtomicLong writes = new AtomicLong();

		final AtomicLong violations = new AtomicLong();

		final AtomicLong timeouts = new AtomicLong();

		final LongList writerWaits = new LongList();

		State(long start) {
			this.start = start;
		}

		boolean measuring(long nanos) {
			return nanos - ReadWriteWorkload.this.phases.measureStart(this.start) >= 0
					&& nanos - ReadWriteWorkload.this.phases.measureEnd(this.start) < 0;
		}

	}

}
