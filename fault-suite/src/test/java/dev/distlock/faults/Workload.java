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

package dev.distlock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import dev.distlock.core.LockClient;
import dev.distlock.faults.Worker.Hooks;
import dev.distlock.faults.Worker.Plan;

/**
 * The workers of one run inside the suite's JVM, and the holds they completed.
 *
 * @author distlock
 */
final class Workload {

	private final Resource resource;

	private final ThreadFactory threads;

	private final List<Worker> workers = new ArrayList<>();

	private final List<Thread> running = new ArrayList<>();

	private final Queue<Cycle> cycles = new ConcurrentLinkedQueue<>();

	private final AtomicLong completed = new AtomicLong();

	private volatile boolean recording = true;

	private volatile boolean stopped;

	Workload(Resource resource) {
		this(resource, Thread::new);
	}

	Workload(Resource resource, ThreadFactory threads) {
		this.resource = resource;
		this.threads = threads;
	}

	Worker add(String name, LockClient client, String key, Plan plan, Hooks hooks) {
		return add(name, client, () -> key, plan, hooks);
	}

	Worker add(String name, LockClient client, Supplier<String> keys, Plan plan, Hooks hooks) {
		Worker worker = new Worker(name, client, this.resource, keys, plan, hooks, this::completed, () -> this.stopped);
		this.workers.add(worker);
		return worker;
	}

	/**
	 * Only count the holds from now on, without keeping them (for a long soak).
	 */
	void countOnly() {
		this.recording = false;
	}

	long completedCount() {
		return this.completed.get();
	}

	private void completed(Cycle cycle) {
		this.completed.incrementAndGet();
		if (this.recording) {
			this.cycles.add(cycle);
		}
	}

	void start() {
		for (Worker worker : this.workers) {
			Thread thread = this.threads.newThread(worker);
			thread.setName(worker.name());
			thread.start();
			this.running.add(thread);
		}
	}

	/**
	 * Tell the workers to stop after their current hold and wait for them.
	 * @param timeout how long to wait for all of them
	 */
	void stop(Duration timeout) {
		this.stopped = true;
		join(timeout);
	}

	/**
	 * Wait for workers that end by themselves.
	 * @param timeout how long to wait for all of them
	 * @return whether all ended
	 */
	boolean join(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		for (Thread thread : this.running) {
			try {
				long left = deadline - System.nanoTime();
				if (left > 0) {
					thread.join(Math.max(1, left / 1_000_000));
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		return this.running.stream().noneMatch(Thread::isAlive);
	}

	List<Worker> workers() {
		return this.workers;
	}

	List<Cycle> cycles() {
		return List.copyOf(this.cycles);
	}

}
