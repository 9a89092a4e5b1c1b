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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;

import dev.distlock.benchmarks.contender.LockContender;
import dev.distlock.benchmarks.contender.LockContender.Held;

/**
 * The loop of one contended worker process, whatever the backend: its threads take one
 * shared lock over and over until the measured window ends and, while holding it, run a
 * critical section that loses an update if two holders overlap. Each thread opens its own
 * section (a connection of its own, say). Holds granted in the measured window are
 * recorded as {@link HoldEvents}.
 *
 * @author distlock
 * @since 0.1.0
 */
final class ContendedLoop {

	private final LockContender lock;

	private final String key;

	private final Duration wait;

	ContendedLoop(LockContender lock, String key, Duration wait) {
		this.lock = lock;
		this.key = key;
		this.wait = wait;
	}

	/**
	 * Print {@code READY}, then block until a {@code GO} line arrives on standard input.
	 * @throws IOException if standard input cannot be read
	 */
	static void announceReadyAndAwaitGo() throws IOException {
		System.out.println("READY");
		System.out.flush();
		BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		if (!"GO".equals(stdin.readLine())) {
			throw new IllegalStateException("Expected GO on standard input");
		}
	}

	/**
	 * Take the lock once and release it, so connections and scripts are ready before the
	 * start.
	 * @throws InterruptedException if interrupted while waiting
	 */
	void warmUp() throws InterruptedException {
		Held held = this.lock.tryLock(this.key, this.wait);
		if (held != null) {
			held.unlock();
		}
	}

	/**
	 * Run the threads from now on and collect what they recorded.
	 * @param threads how many threads contend in this process
	 * @param phases the warm-up and measured durations
	 * @param sections opens the critical section of each thread
	 * @return the holds of the measured window
	 * @throws InterruptedException if interrupted while joining the threads
	 */
	HoldEvents run(int threads, Phases phases, SectionFactory sections) throws InterruptedException {
		long start = System.nanoTime();
		AtomicLong totalOps = new AtomicLong();
		AtomicLong timeouts = new AtomicLong();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<LongList[]> recorded = new ArrayList<>();
		List<Thread> workers = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			LongList[] events = { new LongList(), new LongList(), new LongList() };
			recorded.add(events);
			Thread worker = new Thread(() -> {
				try (Section section = sections.open()) {
					loop(section, phases, start, events, totalOps, timeouts);
				}
				catch (Throwable ex) {
					failure.compareAndSet(null, ex);
				}
			}, "contended-" + i);
			worker.start();
			workers.add(worker);
		}
		for (Thread worker : workers) {
			worker.join();
		}
		if (failure.get() != null) {
			throw new IllegalStateException("Contended worker failed: " + failure.get(), failure.get());
		}
		return new HoldEvents(totalOps.get(), timeouts.get(), merge(recorded, 0), merge(recorded, 1),
				merge(recorded, 2));
	}

	private void loop(Section section, Phases phases, long start, LongList[] events, AtomicLong totalOps,
			AtomicLong timeouts) throws Exception {
		long measureStart = phases.measureStart(start);
		long end = phases.measureEnd(start);
		long requested;
		while ((requested = System.nanoTime()) < end) {
			Held held = this.lock.tryLock(this.key, this.wait);
			if (held == null) {
				timeouts.incrementAndGet();
				continue;
			}
			long acquired = System.nanoTime();
			section.run();
			totalOps.incrementAndGet();
			long releasing = System.nanoTime();
			held.unlock();
			if (acquired >= measureStart && acquired < end) {
				events[0].add(requested);
				events[1].add(acquired);
				events[2].add(releasing);
			}
		}
	}

	private static long[] merge(List<LongList[]> recorded, int index) {
		return recorded.stream().flatMapToLong((events) -> LongStream.of(events[index].toArray())).toArray();
	}

	/**
	 * What one thread does while it holds the lock.
	 */
	interface Section extends AutoCloseable {

		/**
		 * Run the critical section once.
		 * @throws Exception if it fails; the worker then fails
		 */
		void run() throws Exception;

		/**
		 * Free what the section opened; nothing by default.
		 * @throws Exception if closing fails
		 */
		@Override
		default void close() throws Exception {
		}

	}

	/**
	 * Opens the critical section of one thread, on the thread itself.
	 */
	@FunctionalInterface
	interface SectionFactory {

		/**
		 * Open a section for the calling thread.
		 * @return the section
		 * @throws Exception if it cannot be opened
		 */
		Section open() throws Exception;

	}

}
