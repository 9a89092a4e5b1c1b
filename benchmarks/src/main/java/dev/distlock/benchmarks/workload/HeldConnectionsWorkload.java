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

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.benchmarks.JdbcTarget;
import dev.distlock.benchmarks.contender.JdbcContender;
import dev.distlock.benchmarks.contender.JdbcLockContender;
import dev.distlock.benchmarks.contender.LockContender.Held;

/**
 * Connections held while locks are held: one thread takes a number of locks on distinct
 * keys and keeps them; meanwhile the contender's pool's active connections and the
 * database server's open connections are read and compared with before the locks were
 * taken (after one lock was taken and released, so that what a library opens once, a
 * listening connection for example, counts as before).
 *
 * @author distlock
 * @since 0.1.0
 */
public final class HeldConnectionsWorkload {

	private static final Duration WAIT = Duration.ofSeconds(5);

	private final int locks;

	/**
	 * Create the workload.
	 * @param locks how many locks to hold at once
	 */
	public HeldConnectionsWorkload(int locks) {
		this.locks = locks;
	}

	/**
	 * Run the workload on a freshly created schema or database.
	 * @param contender the library under test
	 * @param target the database
	 * @return what was counted
	 * @throws Exception if a lock failed
	 */
	public Result run(JdbcContender contender, JdbcTarget target) throws Exception {
		target.recreate();
		try (JdbcLockContender lock = contender.connect(target, Duration.ofSeconds(30));
				HikariDataSource observer = target.dataSource("observer", 1)) {
			Held warm = lock.tryLock("held:warm-up", WAIT);
			if (warm != null) {
				warm.unlock();
			}
			long serverBefore = target.serverConnections(observer);
			List<Held> held = new ArrayList<>();
			try {
				for (int i = 0; i < this.locks; i++) {
					Held one = lock.tryLock("held:" + i, WAIT);
					if (one == null) {
						throw new IllegalStateException("Lock held:" + i + " was not acquired within " + WAIT);
					}
					held.add(one);
				}
				HikariDataSource pool = lock.pool();
				int poolActive = pool.getHikariPoolMXBean().getActiveConnections();
				long serverWhileHeld = target.serverConnections(observer);
				return new Result(this.locks, poolActive, serverWhileHeld - serverBefore);
			}
			finally {
				for (Held one : held) {
					one.unlock();
				}
			}
		}
	}

	/**
	 * What the workload counted.
	 *
	 * @param locks locks held at once
	 * @param poolActive connections borrowed from the library's pool while they were held
	 * @param serverAdded connections the server had open beyond those before
	 */
	public record Result(int locks, int poolActive, long serverAdded) {

		/**
		 * Return the connections held per held lock: the larger of the pool's borrowed
		 * connections and the server's added ones, divided by the locks.
		 * @return connections per lock
		 */
		public double perLock() {
			return Math.max(this.poolActive, this.serverAdded) / (double) this.locks;
		}

	}

}
