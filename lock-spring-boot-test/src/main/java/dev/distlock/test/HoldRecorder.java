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

package dev.distlock.test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import dev.distlock.core.LockClientListener;
import dev.distlock.core.LockTracker;
import dev.distlock.LossReason;
import org.jspecify.annotations.Nullable;

/**
 * Records every hold the client grants, in the order of a logical clock, so a test can
 * tell which locks were taken during a call.
 *
 * @author distlock
 * @since 0.1.0
 */
final class HoldRecorder implements LockClientListener {

	private final AtomicLong clock = new AtomicLong();

	private final List<RecordedHold> holds = new CopyOnWriteArrayList<>();

	@Override
	public LockTracker acquisitionStarted(String name, String key) {
		return new HoldTracker(name, key, Thread.currentThread());
	}

	/**
	 * Return the current time of the logical clock: holds granted later start after it.
	 * @return the mark
	 */
	long mark() {
		return this.clock.get();
	}

	List<RecordedHold> holds() {
		return List.copyOf(this.holds);
	}

	List<RecordedHold> holdsSince(long mark) {
		return this.holds.stream().filter((hold) -> hold.startedAfter(mark)).toList();
	}

	void clear() {
		this.holds.clear();
	}

	private final class HoldTracker implements LockTracker {

		private final String name;

		private final String key;

		private final Thread caller;

		private volatile @Nullable RecordedHold hold;

		HoldTracker(String name, String key, Thread caller) {
			this.name = name;
			this.key = key;
			this.caller = caller;
		}

		@Override
		public void acquired(Duration waited, long fencingToken) {
			RecordedHold granted = new RecordedHold(this.name, this.key, this.caller, fencingToken,
					HoldRecorder.this.clock.incrementAndGet());
			this.hold = granted;
			HoldRecorder.this.holds.add(granted);
		}

		@Override
		public void lost(LossReason reason) {
			RecordedHold granted = this.hold;
			if (granted != null) {
				granted.lost(reason);
			}
		}

		@Override
		public void released(@Nullable Throwable failure) {
			RecordedHold granted = this.hold;
			if (granted != null) {
				granted.ended(HoldRecorder.this.clock.incrementAndGet());
			}
		}

	}

}
