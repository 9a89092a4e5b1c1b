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
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.benchmarks.JdbcTarget;
import dev.distlock.benchmarks.contender.JdbcContender;
import dev.distlock.benchmarks.contender.JdbcLockContender;
import dev.distlock.benchmarks.contender.LockContender.Held;

/**
 * One process of the contended JDBC workload, started by {@link JdbcContendedWorkload}:
 * its threads take the one shared lock in a loop and, while holding it, increment a
 * counter row non-atomically (a {@code SELECT} then an {@code UPDATE}, each in its own
 * transaction, on a connection of its own), so any overlap of holders loses an update. It
 * prints {@code READY} once connected, starts on a {@code GO} line on its standard input
 * and writes its {@link HoldEvents} to a file.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class JdbcContendedWorker {

	static final String LOCK_KEY = "contended";

	static final Duration LEASE = Duration.ofSeconds(30);

	private static final Duration WAIT = Duration.ofSeconds(30);

	private JdbcContendedWorker() {
	}

	/**
	 * Run one worker process.
	 * @param args contender name, database (PostgreSQL or MariaDB), threads, warm-up
	 * millis, measured millis, output file
	 * @throws Exception if the run fails; the exit code is then non-zero
	 */
	public static void main(String[] args) throws Exception {
		JdbcContender contender = JdbcContender.valueOf(args[0]);
		JdbcTarget target = "PostgreSQL".equals(args[1]) ? JdbcTarget.postgres() : JdbcTarget.mariadb();
		if (target == null) {
			throw new IllegalStateException(args[1] + " does not answer");
		}
		int threads = Integer.parseInt(args[2]);
		Phases phases = new Phases(Duration.ofMillis(Long.parseLong(args[3])),
				Duration.ofMillis(Long.parseLong(args[4])));
		Path output = Path.of(args[5]);
		try (JdbcLockContender lock = contender.connect(target, LEASE);
				HikariDataSource counter = target.dataSource("counter", threads)) {
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
			run(lock, counter, threads, phases).write(output);
		}
		System.exit(0);
	}

	private static HoldEvents run(JdbcLockContender lock, DataSource counter, int threads, Phases phases)
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

	private static void loop(JdbcLockContender lock, DataSource counter, Phases phases, long start, LongList[] events,
			AtomicLong totalOps, AtomicLong timeouts) throws InterruptedException, SQLException {
		long measureStart = phases.measureStart(start);
		long end = phases.measureEnd(start);
		long requested;
		try (Connection connection = counter.getConnection();
				PreparedStatement read = connection
					.prepareStatement("SELECT counter FROM " + JdbcTarget.COUNTER_TABLE + " WHERE id = 1");
				PreparedStatement write = connection
					.prepareStatement("UPDATE " + JdbcTarget.COUNTER_TABLE + " SET counter = ? WHERE id = 1")) {
			while ((requested = System.nanoTime()) < end) {
				Held held = lock.tryLock(LOCK_KEY, WAIT);
				if (held == null) {
					timeouts.incrementAndGet();
					continue;
				}
				long acquired = System.nanoTime();
				long value;
				try (ResultSet row = read.executeQuery()) {
					row.next();
					value = row.getLong(1);
				}
				write.setLong(1, value + 1);
				write.executeUpdate();
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
	}

	private static long[] merge(List<LongList[]> recorded, int index) {
		return recorded.stream().flatMapToLong((events) -> LongStream.of(events[index].toArray())).toArray();
	}

}
