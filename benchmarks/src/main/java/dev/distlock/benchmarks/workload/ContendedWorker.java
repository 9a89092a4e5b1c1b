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
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;

import dev.distlock.benchmarks.RedisAdmin;
import dev.distlock.benchmarks.RedisEndpoint;
import dev.distlock.benchmarks.contender.Contender;
import dev.distlock.benchmarks.contender.LockContender;
import dev.distlock.benchmarks.contender.LockContender.Held;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * One process of the contended workload, started by {@link ContendedWorkload}: its
 * threads take the one shared lock in a loop and, while holding it, increment a counter
 * in Redis non-atomically ({@code GET} then {@code SET}), so any overlap of holders loses
 * an update. It prints {@code READY} once connected, starts on a {@code GO} line on its
 * standard input and writes its {@link HoldEvents} to a file.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class ContendedWorker {

	static final String LOCK_KEY = "contended";

	static final String COUNTER_KEY = "contended:counter";

	static final Duration LEASE = Duration.ofSeconds(30);

	private static final Duration WAIT = Duration.ofSeconds(30);

	private ContendedWorker() {
	}

	/**
	 * Run one worker process.
	 * @param args contender name, Redis host, Redis port, threads, warm-up millis,
	 * measured millis, output file
	 * @throws Exception if the run fails; the exit code is then non-zero
	 */
	public static void main(String[] args) throws Exception {
		Contender contender = Contender.valueOf(args[0]);
		RedisEndpoint endpoint = new RedisEndpoint(args[1], Integer.parseInt(args[2]));
		int threads = Integer.parseInt(args[3]);
		Phases phases = new Phases(Duration.ofMillis(Long.parseLong(args[4])),
				Duration.ofMillis(Long.parseLong(args[5])));
		Path output = Path.of(args[6]);
		try (LockContender lock = contender.connect(endpoint, LEASE, false);
				RedisAdmin counter = new RedisAdmin(endpoint)) {
			Held warm = lock.tryLock(LOCK_KEY, WAIT);
			if (warm != null) {
				warm.unlock();
			}
			System.out.println("READY");
			System.out.flush();
			BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			if (!"GO".equals(stdin.readLine())) {
				throw new IllegalStateException("Expected GO on standard input");
			}
			run(lock, counter.commands(), threads, phases).write(output);
		}
		System.exit(0);
	}

	private static HoldEvents run(LockContender lock, RedisCommands<String, String> counter, int threads, Phases phases)
			throws InterruptedException {
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
				try {
					loop(lock, counter, phases, start, events, totalOps, timeouts);
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

	private static void loop(LockContender lock, RedisCommands<String, String> counter, Phases phases, long start,
			LongList[] events, AtomicLong totalOps, AtomicLong timeouts) throws InterruptedException {
		long measureStart = phases.measureStart(start);
		long end = phases.measureEnd(start);
		long requested;
		while ((requested = System.nanoTime()) < end) {
			Held held = lock.tryLock(LOCK_KEY, WAIT);
			if (held == null) {
				timeouts.incrementAndGet();
				continue;
			}
			long acquired = System.nanoTime();
			String value = counter.get(COUNTER_KEY);
			counter.set(COUNTER_KEY, String.valueOf((value != null) ? Long.parseLong(value) + 1 : 1));
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

}
