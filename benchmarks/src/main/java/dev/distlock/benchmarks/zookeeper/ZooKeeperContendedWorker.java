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

package dev.distlock.benchmarks.zookeeper;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import dev.distlock.benchmarks.zookeeper.ZooKeeperContender.Locker;
import dev.distlock.benchmarks.zookeeper.ZooKeeperContender.Release;
import org.apache.curator.framework.CuratorFramework;

/**
 * One process of a contended scenario, started by {@link ZooKeeperBenchmarkMain}: it
 * connects, takes the key once, prints {@code READY} and waits for a line
 * {@code GO <measure start> <measure end>} (epoch millis) on standard input, sent once
 * every process is ready; then its threads take the one shared key in a loop until the
 * end (in a read-heavy scenario nine reads to one write), and record how long each grant
 * was waited for during the measured window. It writes the number of grants measured, the
 * number of grants over the whole run (warm-up included, to divide the ensemble's
 * requests by), then the waits in microseconds, each on a line of its output file.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class ZooKeeperContendedWorker {

	static final String KEY = "contended";

	/** What a worker prints once it is connected and has taken the key once. */
	static final String READY = "READY";

	private static final Duration WAIT = Duration.ofSeconds(30);

	private ZooKeeperContendedWorker() {
	}

	/**
	 * Run one worker process.
	 * @param args contender name, scenario name, connect string, output file
	 * @throws Exception if the run fails; the exit code is then non-zero
	 */
	public static void main(String[] args) throws Exception {
		ZooKeeperContender contender = ZooKeeperContender.valueOf(args[0]);
		ZooKeeperScenario scenario = ZooKeeperScenario.valueOf(args[1]);
		Path output = Path.of(args[3]);
		try (CuratorFramework curator = ZooKeeperContender.curator(args[2]);
				Locker locker = contender.connect(curator, scenario.fair())) {
			locker.lock(KEY, scenario.access(0), WAIT).release();
			System.out.println(READY);
			System.out.flush();
			String[] go = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine()
				.split(" ");
			long measureStart = Long.parseLong(go[1]);
			long measureEnd = Long.parseLong(go[2]);
			AtomicLong grants = new AtomicLong();
			AtomicLong allGrants = new AtomicLong();
			AtomicReference<Throwable> failure = new AtomicReference<>();
			List<List<Long>> waits = new ArrayList<>();
			List<Thread> workers = new ArrayList<>();
			for (int i = 0; i < scenario.threads(); i++) {
				List<Long> mine = new ArrayList<>();
				waits.add(mine);
				Thread worker = new Thread(() -> {
					try {
						long requested;
						long operation = 0;
						while ((requested = System.currentTimeMillis()) < measureEnd) {
							long startNanos = System.nanoTime();
							Release release = locker.lock(KEY, scenario.access(operation++), WAIT);
							long waitedMicros = (System.nanoTime() - startNanos) / 1_000;
							release.release();
							allGrants.incrementAndGet();
							if (requested >= measureStart) {
								grants.incrementAndGet();
								mine.add(waitedMicros);
							}
						}
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
			Files.writeString(output,
					grants.get() + "\n" + allGrants.get() + "\n"
							+ waits.stream().flatMap(List::stream).map(String::valueOf).collect(Collectors.joining(" "))
							+ "\n");
		}
		System.exit(0);
	}

}
