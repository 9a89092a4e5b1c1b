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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;

import dev.distlock.benchmarks.contender.LockContender;
import dev.distlock.benchmarks.contender.LockContender.Held;

/**
 * Uncontended acquire+release: every thread locks and unlocks a key of its own in a loop,
 * for a warm-up and then a measured window.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class UncontendedWorkload {

	private static final Duration WAIT = Duration.ofSeconds(5);

	private final Phases phases;

	/**
	 * Create the workload.
	 * @param phases warm-up and measured window
	 */
	public UncontendedWorkload(Phases phases) {
		this.phases = phases;
	}

	/**
	 * Return the warm-up and measured window of one run.
	 * @return the phases
	 */
	public Phases phases() {
		return this.phases;
	}

	/**
	 * Return the key a thread of a run takes.
	 * @param threads the run's threads
	 * @param index the thread's index, from 0
	 * @return the key
	 */
	public static String key(int threads, int index) {
		return "uncontended:" + threads + ":" + index;
	}

	/**
	 * Run the workload once.
	 * @param contender the lock under test
	 * @param threads how many threads, each on its own key
	 * @return the latency of every acquire+release pair that began in the measured
	 * window, in nanoseconds
	 * @throws Exception if a lock failed
	 */
	public long[] run(LockContender contender, int threads) throws Exception {
		return runMeasuringCpu(contender, threads).latencies();
	}

	/**
	 * Run the workload once and measure the CPU time this process spent during the
	 * measured window: the client's CPU (its callers, I/O and timer threads, and the
	 * JVM's own), Redis running in a process of its own.
	 * @param contender the lock under test
	 * @param threads how many threads, each on its own key
	 * @return the latencies, as {@link #run(LockContender, int)} returns them, and the
	 * process CPU time of the measured window
	 * @throws Exception if a lock failed
	 */
	public Run runMeasuringCpu(LockContender contender, int threads) throws Exception {
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<LongList> samples = new ArrayList<>();
		List<Thread> workers = new ArrayList<>();
		long start = System.nanoTime();
		for (int i = 0; i < threads; i++) {
			LongList latencies = new LongList();
			samples.add(latencies);
			String key = key(threads, i);
			Thread worker = new Thread(() -> {
				try {
					loop(contender, key, start, latencies);
				}
				catch (Throwable ex) {
					failure.compareAndSet(null, ex);
				}
			}, "uncontended-" + i);
			worker.start();
			workers.add(worker);
		}
		sleepUntil(this.phases.measureStart(start));
		long cpuAtStart = ProcessCpu.nanos();
		sleepUntil(this.phases.measureEnd(start));
		long cpuAtEnd = ProcessCpu.nanos();
		long windowCpu = (cpuAtStart < 0 || cpuAtEnd < 0) ? -1 : cpuAtEnd - cpuAtStart;
		for (Thread worker : workers) {
			worker.join();
		}
		if (failure.get() != null) {
			throw new IllegalStateException("Uncontended run failed: " + failure.get(), failure.get());
		}
		return new Run(samples.stream().flatMapToLong((list) -> LongStream.of(list.toArray())).toArray(), windowCpu);
	}

	private static void sleepUntil(long nanoTime) throws InterruptedException {
		long left;
		while ((left = nanoTime - System.nanoTime()) > 0) {
			TimeUnit.NANOSECONDS.sleep(left);
		}
	}

	/**
	 * One run.
	 *
	 * @param latencies the latency of every acquire+release pair that began in the
	 * measured window, in nanoseconds
	 * @param cpuNanos the CPU time the process spent in the measured window, or
	 * {@code -1} when the JVM does not tell it
	 */
	public record Run(long[] latencies, long cpuNanos) {

	}

	private void loop(LockContender contender, String key, long start, LongList latencies) throws InterruptedException {
		long measureStart = this.phases.measureStart(start);
		long end = this.phases.measureEnd(start);
		long began;
		while ((began = System.nanoTime()) < end) {
			Held held = contender.tryLock(key, WAIT);
			if (held == null) {
				throw new IllegalStateException("Uncontended lock '" + key + "' was not acquired within " + WAIT);
			}
			held.unlock();
			if (began >= measureStart) {
				latencies.add(System.nanoTime() - began);
			}
		}
	}

}
