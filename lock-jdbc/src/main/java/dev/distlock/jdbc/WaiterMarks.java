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
package dev.distlock.jdbc;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The waiters a store records in the lock table while it listens for releases, on a
 * database whose releases tell only recorded waiters (PostgreSQL): one record per key
 * however many callers of the store listen, written when the first starts listening and
 * again every third of the record's lifetime (the statement writes only once half of it
 * passed), until the last stops.
 *
 * @author distlock
 */
final class WaiterMarks {

	private final ScheduledExecutorService timer;

	private final Duration mark;

	private final Consumer<String> record;

	private final Map<String, Marking> byKey = new ConcurrentHashMap<>();

	/**
	 * Create the marks of one store.
	 * @param timer the store's timer, which starts each record
	 * @param mark how long a record lasts
	 * @param record sends the record of a key (without blocking the timer)
	 */
	WaiterMarks(ScheduledExecutorService timer, Duration mark, Consumer<String> record) {
		this.timer = timer;
		this.mark = mark;
		this.record = record;
	}

	/**
	 * Record {@code key}'s waiter while the returned subscription is open.
	 * @param key the key listened for
	 * @return what stops this listener's share of the record; does no blocking I/O
	 */
	Runnable listen(String key) {
		this.byKey.compute(key, (listened, marking) -> {
			if (marking != null) {
				marking.listeners++;
				return marking;
			}
			long period = Math.max(1, this.mark.toMillis() / 3);
			return new Marking(
					this.timer.scheduleAtFixedRate(() -> this.record.accept(key), 0, period, TimeUnit.MILLISECONDS));
		});
		return () -> this.byKey.computeIfPresent(key, (listened, marking) -> {
			if (--marking.listeners > 0) {
				return marking;
			}
			marking.task.cancel(false);
			return null;
		});
	}

	private static final class Marking {

		private final ScheduledFuture<?> task;

		private int listeners = 1;

		Marking(ScheduledFuture<?> task) {
			this.task = task;
		}

	}

}
