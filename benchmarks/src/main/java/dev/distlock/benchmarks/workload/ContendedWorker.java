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

import java.nio.file.Path;
import java.time.Duration;

import dev.distlock.benchmarks.RedisAdmin;
import dev.distlock.benchmarks.RedisEndpoint;
import dev.distlock.benchmarks.contender.Contender;
import dev.distlock.benchmarks.contender.LockContender;
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
			ContendedLoop loop = new ContendedLoop(lock, LOCK_KEY, WAIT);
			loop.warmUp();
			ContendedLoop.announceReadyAndAwaitGo();
			loop.run(threads, phases, () -> () -> increment(counter.commands())).write(output);
		}
		System.exit(0);
	}

	/**
	 * Increment the counter non-atomically: a {@code GET}, then a {@code SET}.
	 */
	private static void increment(RedisCommands<String, String> counter) {
		String value = counter.get(COUNTER_KEY);
		counter.set(COUNTER_KEY, String.valueOf((value != null) ? Long.parseLong(value) + 1 : 1));
	}

}
