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

import java.util.Locale;

import dev.distlock.benchmarks.zookeeper.ZooKeeperContender.Access;

/**
 * A workload of the ZooKeeper benchmark with its target: the ratio of distlock's grants
 * per second to Curator's that passes, and whether distlock's p99 wait must also be
 * lower.
 *
 * @author distlock
 * @since 0.1.0
 */
enum ZooKeeperScenario {

	/** One thread in the measuring JVM, on a key of its own. */
	UNCONTENDED_1("Uncontended, 1 thread", 1, 1, false, 0, 1.0, false),

	/** 16 threads in the measuring JVM, each on a key of its own. */
	UNCONTENDED_16("Uncontended, 16 threads", 1, 16, false, 0, 1.0, false),

	/** One key, 4 worker processes x 4 threads, distlock's default (barging) locks. */
	CONTENDED("Contended, 4 processes x 4 threads, one key", 4, 4, false, 0, 1.5, true),

	/**
	 * One key, 4 worker processes x 4 threads, fair locks: distlock's {@code fair = true}
	 * against Curator's mutex, which grants in order.
	 */
	FAIR_CONTENDED("Fair contended, 4 processes x 4 threads, one key", 4, 4, true, 0, 1.0, false),

	/**
	 * One key, 4 worker processes x 4 threads, nine reads to one write: distlock's
	 * {@code mode = READ} and write locks against Curator's
	 * {@code InterProcessReadWriteLock}.
	 */
	READ_HEAVY("Read-heavy, readers 9:1, 4 processes x 4 threads, one key", 4, 4, false, 10, 1.0, false);

	private final String title;

	private final int processes;

	private final int threads;

	private final boolean fair;

	private final int writeEvery;

	private final double target;

	private final boolean lowerP99Wait;

	ZooKeeperScenario(String title, int processes, int threads, boolean fair, int writeEvery, double target,
			boolean lowerP99Wait) {
		this.title = title;
		this.processes = processes;
		this.threads = threads;
		this.fair = fair;
		this.writeEvery = writeEvery;
		this.target = target;
		this.lowerP99Wait = lowerP99Wait;
	}

	String title() {
		return this.title;
	}

	/**
	 * Return whether the scenario runs in worker processes on one key, rather than in the
	 * measuring JVM on a key per thread.
	 */
	boolean contended() {
		return this.processes > 1;
	}

	int processes() {
		return this.processes;
	}

	int threads() {
		return this.threads;
	}

	boolean fair() {
		return this.fair;
	}

	/**
	 * Return every how many operations of a thread one is a write, the others reads; 0
	 * when every operation is a write (an exclusive lock).
	 */
	int writeEvery() {
		return this.writeEvery;
	}

	/**
	 * Return which lock a thread's operation of an index takes: the exclusive lock when
	 * the scenario has no readers, else the write lock every {@link #writeEvery()}-th
	 * operation and the read lock otherwise, so a thread reads nine times and writes once
	 * in every ten when {@code writeEvery} is 10.
	 * @param operation the thread's operation index, from 0
	 */
	Access access(long operation) {
		if (this.writeEvery == 0) {
			return Access.EXCLUSIVE;
		}
		return (operation % this.writeEvery == this.writeEvery - 1) ? Access.WRITE : Access.READ;
	}

	double target() {
		return this.target;
	}

	boolean lowerP99Wait() {
		return this.lowerP99Wait;
	}

	/**
	 * Return the target as the report states it.
	 */
	String describeTarget() {
		return String.format(Locale.ROOT, ">= %.1fx Curator's %s", this.target,
				(this.writeEvery > 0) ? "InterProcessReadWriteLock" : "InterProcessMutex")
				+ (this.lowerP99Wait ? " with a lower p99 wait" : "");
	}

}
