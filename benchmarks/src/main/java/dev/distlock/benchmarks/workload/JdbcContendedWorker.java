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
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.benchmarks.JdbcTarget;
import dev.distlock.benchmarks.contender.JdbcContender;
import dev.distlock.benchmarks.contender.JdbcLockContender;

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
			ContendedLoop loop = new ContendedLoop(lock, LOCK_KEY, WAIT);
			loop.warmUp();
			ContendedLoop.announceReadyAndAwaitGo();
			loop.run(threads, phases, () -> new CounterIncrement(counter.getConnection())).write(output);
		}
		System.exit(0);
	}

	/**
	 * Increments the counter row non-atomically, a {@code SELECT} then an {@code UPDATE},
	 * on a connection of the thread's own.
	 */
	private static final class CounterIncrement implements ContendedLoop.Section {

		private final Connection connection;

		private final PreparedStatement read;

		private final PreparedStatement write;

		CounterIncrement(Connection connection) throws SQLException {
			this.connection = connection;
			this.read = connection
				.prepareStatement("SELECT counter FROM " + JdbcTarget.COUNTER_TABLE + " WHERE id = 1");
			this.write = connection
				.prepareStatement("UPDATE " + JdbcTarget.COUNTER_TABLE + " SET counter = ? WHERE id = 1");
		}

		@Override
		public void run() throws SQLException {
			long value;
			try (ResultSet row = this.read.executeQuery()) {
				row.next();
				value = row.getLong(1);
			}
			this.write.setLong(1, value + 1);
			this.write.executeUpdate();
		}

		@Override
		public void close() throws SQLException {
			this.connection.close();
		}

	}

}
