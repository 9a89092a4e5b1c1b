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

package dev.distlock.core;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The events of one {@link Acquisition} (a turn, a reply, a release, a timer), run one at
 * a time in the order posted, by whichever thread posts while none runs: so no thread
 * waits on behalf of an acquisition, and its state needs no lock.
 *
 * @author distlock
 * @since 0.1.0
 */
final class SerialEvents {

	private final Queue<Runnable> events = new ConcurrentLinkedQueue<>();

	private final AtomicInteger pending = new AtomicInteger();

	private final Consumer<Throwable> onFailure;

	/**
	 * Create the events of one acquisition.
	 * @param onFailure told of what an event threw, in place of the next event
	 */
	SerialEvents(Consumer<Throwable> onFailure) {
		this.onFailure = onFailure;
	}

	/**
	 * Run {@code event} after those posted before it: now, on this thread, if none runs.
	 */
	void post(Runnable event) {
		this.events.add(event);
		if (this.pending.getAndIncrement() != 0) {
			return;
		}
		do {
			Runnable next = this.events.poll();
			try {
				if (next != null) {
					next.run();
				}
			}
			catch (RuntimeException | Error ex) {
				this.onFailure.accept(ex);
			}
		}
		while (this.pending.decrementAndGet() != 0);
	}

}
