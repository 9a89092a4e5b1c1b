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

import dev.distlock.benchmarks.CommitCounters;
import dev.distlock.benchmarks.JdbcTarget;
import dev.distlock.benchmarks.contender.JdbcContender;
import dev.distlock.benchmarks.contender.JdbcLockContender;
import dev.distlock.benchmarks.contender.LockContender.Held;

/**
 * Commits per uncontended acquire+release, as the database counts them: one thread takes
 * and releases a key the library used before (its row exists, unless the library deletes
 * it at each release) a number of times, between two readings of the server's commit
 * counters taken while nothing is connected to the run's database (so on PostgreSQL every
 * closed connection has added its commits). The library's connecting and closing count
 * too, spread over the operations.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class CommitsWorkload {

	private static final Duration WAIT = Duration.ofSeconds(5);

	private static final Duration IDLE = Duration.ofSeconds(20);

	private final int operations;

	/**
	 * Create the workload.
	 * @param operations how many acquire+release pairs to count over
	 */
	public CommitsWorkload(int operations) {
		this.operations = operations;
	}

	/**
	 * Run the workload.
	 * @param contender the library under test
	 * @param target the database
	 * @param key a key the library used before
	 * @return the operations and the growth of the counters
	 * @throws Exception if a lock failed or the database failed
	 */
	public Result run(JdbcContender contender, JdbcTarget target, String key) throws Exception {
		target.awaitNoConnections(IDLE);
		CommitCounters before = target.commitCounters();
		try (JdbcLockContender lock = contender.connect(target, Duration.ofSeconds(30))) {
			for (int i = 0; i < this.operations; i++) {
				Held held = lock.tryLock(key, WAIT);
				if (held == null) {
					throw new IllegalStateException("Lock '" + key + "' was not acquired within " + WAIT);
				}
				held.unlock();
			}
		}
		target.awaitNoConnections(IDLE);
		return new Result(this.operations, target.commitCounters().since(before));
	}

	/**
	 * What the workload counted.
	 *
	 * @param operations the acquire+release pairs
	 * @param commits how much each commit counter grew meanwhile
	 */
	public record Result(long operations, CommitCounters commits) {

		/**
		 * Describe the commits per acquire+release, per counter.
		 * @return the description
		 */
		public String perOperation() {
			return this.commits.perOperation(this.operations);
		}

	}

}
