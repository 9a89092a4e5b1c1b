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
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.distlock.LockAcquisitionException;
import dev.distlock.LockBackendException;
import dev.distlock.LockLostException;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHold;
import dev.distlock.faults.Cycle.Fenced;
import dev.distlock.faults.Cycle.Release;
import dev.distlock.faults.Resource.Kind;
import org.jspecify.annotations.Nullable;

/**
 * One thread of a workload: lock, read-modify-write both rows of the resource, unlock,
 * again and again. While it works it polls {@link LockHold#isValid()} (no Redis round
 * trip) to see when it stops believing it holds the lock, and it writes only if the hold
 * is still valid just before the write, as a careful application would; a pause between
 * that check and the write is what fencing is for.
 *
 * @author distlock
 */
final class Worker implements Runnable {

	private static final long POLL_MILLIS = 5;

	private final String name;

	private final LockClient client;

	private final Resource resource;

	private final Supplier<String> keys;

	private final Plan plan;

	private final Hooks hooks;

	private final Consumer<Cycle> sink;

	private final BooleanSupplier stop;

	private final AtomicLong busy = new AtomicLong();

	private final AtomicLong failed = new AtomicLong();

	private final AtomicLong errors = new AtomicLong();

	Worker(String name, LockClient client, Resource resource, Supplier<String> keys, Plan plan, Hooks hooks,
			Consumer<Cycle> sink, BooleanSupplier stop) {
		this.name = name;
		this.client = client;
		this.resource = resource;
		this.keys = keys;
		this.plan = plan;
		this.hooks = hooks;
		this.sink = sink;
		this.stop = stop;
	}

	String name() {
		return this.name;
	}

	/**
	 * Return how many acquisitions found the lock busy for their whole wait.
	 * @return the busy count
	 */
	long busyCount() {
		return this.busy.get();
	}

	/**
	 * Return how many acquisitions failed with a backend error.
	 * @return the failure count
	 */
	long failedCount() {
		return this.failed.get();
	}

	/**
	 * Return how many holds failed for another reason than the lock (the database).
	 * @return the error count
	 */
	long errorCount() {
		return this.errors.get();
	}

	@Override
	public void run() {
		int cycles = 0;
		while (!this.stop.getAsBoolean() && cycles < this.plan.maxCycles()) {
			String key = this.keys.get();
			LockHold hold;
			try {
				hold = this.client.acquire(key, this.plan.waitTime(), this.plan.lease());
			}
			catch (LockAcquisitionException ex) {
				this.busy.incrementAndGet();
				if (ex.getCause() instanceof InterruptedException) {
					return;
				}
				continue;
			}
			catch (LockBackendException ex) {
				if (Boolean.getBoolean("distlock.faults.debug")) {
					System.err.println("[fault suite] " + System.nanoTime() / 1_000_000 + " " + this.name + ": " + ex);
				}
				this.failed.incrementAndGet();
				sleep(50);
				continue;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (IllegalStateException ex) {
				return; // the client was closed
			}
			cycles++;
			try {
				this.sink.accept(hold(key, hold));
			}
			catch (RuntimeException ex) {
				if (this.errors.getAndIncrement() == 0) {
					System.err.println("[fault suite] worker " + this.name + " failed a hold: " + ex);
				}
			}
			if (this.plan.thinkMillis() > 0) {
				sleep(ThreadLocalRandom.current().nextLong(2 * this.plan.thinkMillis() + 1));
			}
		}
	}

	private Cycle hold(String key, LockHold hold) {
		long acquiredAt = System.nanoTime();
		GrantAction action = this.hooks.afterGrant(this.name, hold);
		Observation observation = new Observation(key);
		boolean unfenced = false;
		Fenced fenced = Fenced.SKIPPED;
		Release release = Release.RELEASED;
		long releasedAt = 0;
		try {
			this.resource.create(key);
			boolean claimed = this.resource.claim(key, hold.fencingToken());
			long unfencedValue = this.resource.read(key, Kind.UNFENCED);
			long fencedValue = this.resource.read(key, Kind.FENCED);
			work(hold, this.plan.workMillis() + action.extraWorkMillis(), observation);
			if (hold.isValid()) {
				this.hooks.beforeWrite(this.name, hold);
				this.resource.writeUnfenced(key, unfencedValue + 1);
				unfenced = true;
				fenced = (claimed && this.resource.writeFenced(key, fencedValue + 1, hold.fencingToken()))
						? Fenced.ACCEPTED : Fenced.REJECTED;
			}
			else {
				observation.lossSeen();
			}
		}
		finally {
			releasedAt = System.nanoTime();
			observation.beliefEnds();
			try {
				hold.release();
			}
			catch (LockLostException ex) {
				release = Release.LOST;
				observation.lossSeen();
			}
			catch (LockBackendException ex) {
				release = Release.FAILED;
			}
		}
		return new Cycle(this.name, key, hold.fencingToken(), acquiredAt, observation.lossObservedAt, releasedAt,
				unfenced, fenced, release, action.victim());
	}

	private void work(LockHold hold, long millis, Observation observation) {
		long until = System.nanoTime() + millis * 1_000_000;
		do {
			if (!hold.isValid()) {
				observation.lossSeen();
			}
			long left = (until - System.nanoTime()) / 1_000_000;
			if (left > 0) {
				sleep(Math.min(POLL_MILLIS, left));
			}
		}
		while (System.nanoTime() - until < 0);
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * When the holder of one cycle stopped believing it held the lock.
	 */
	private final class Observation {

		private final String key;

		private long lossObservedAt;

		private boolean ended;

		Observation(String key) {
			this.key = key;
		}

		void lossSeen() {
			if (this.lossObservedAt == 0) {
				this.lossObservedAt = System.nanoTime();
			}
			beliefEnds();
		}

		void beliefEnds() {
			if (!this.ended) {
				this.ended = true;
				Worker.this.hooks.beliefEnded(Worker.this.name, this.key);
			}
		}

	}

	/**
	 * How a worker runs its cycles.
	 *
	 * @param waitTime how long an acquisition waits
	 * @param lease a fixed lease, or {@code null} for the watchdog lease
	 * @param workMillis how long the holder works between its reads and its writes
	 * @param maxCycles how many cycles to run at most
	 * @param thinkMillis how long the worker pauses after a release before it acquires
	 * again, on average (uniform between 0 and twice that)
	 */
	record Plan(Duration waitTime, @Nullable Duration lease, long workMillis, int maxCycles, long thinkMillis) {

		static Plan continuous(Duration waitTime, long workMillis) {
			return new Plan(waitTime, null, workMillis, Integer.MAX_VALUE, 0);
		}

		Plan withThinkTime(long millis) {
			return new Plan(this.waitTime, this.lease, this.workMillis, this.maxCycles, millis);
		}

	}

	/**
	 * What the scenario does with a grant.
	 *
	 * @param victim whether the fault was injected right after it
	 * @param extraWorkMillis how much longer the holder works
	 */
	record GrantAction(boolean victim, long extraWorkMillis) {

		static final GrantAction NONE = new GrantAction(false, 0);

	}

	/**
	 * Where a scenario injects its fault into a workload.
	 */
	interface Hooks {

		Hooks NONE = new Hooks() {
		};

		/**
		 * Called on the worker's thread right after a grant.
		 * @param worker the worker's name
		 * @param hold the hold
		 * @return what the scenario does with the grant
		 */
		default GrantAction afterGrant(String worker, LockHold hold) {
			return GrantAction.NONE;
		}

		/**
		 * Called after the holder found its hold valid and just before it writes.
		 * @param worker the worker's name
		 * @param hold the hold
		 */
		default void beforeWrite(String worker, LockHold hold) {
		}

		/**
		 * Called once per cycle when the holder stops believing it holds the lock.
		 * @param worker the worker's name
		 * @param key the lock key
		 */
		default void beliefEnded(String worker, String key) {
		}

	}

}
