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

import dev.distlock.LossReason;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;

/**
 * A {@link LockClientListener} for tests that records every event as a line such as
 * {@code "orders order:1 acquired"}, and every renewal batch.
 *
 * @author distlock
 */
public final class RecordingLockClientListener implements LockClientListener {

	private final List<String> events = new CopyOnWriteArrayList<>();

	private final List<RenewalBatch> batches = new CopyOnWriteArrayList<>();

	private final List<Duration> waits = new CopyOnWriteArrayList<>();

	@Override
	public LockTracker acquisitionStarted(String name, String key) {
		String lock = name + " " + key;
		this.events.add(lock + " started");
		return new LockTracker() {

			@Override
			public void acquired(Duration waited, long fencingToken) {
				RecordingLockClientListener.this.waits.add(waited);
				RecordingLockClientListener.this.events.add(lock + " acquired");
			}

			@Override
			public void notAcquired(AcquireOutcome outcome, Duration waited, @Nullable Throwable failure) {
				RecordingLockClientListener.this.waits.add(waited);
				RecordingLockClientListener.this.events.add(lock + " " + outcome.tagValue());
			}

			@Override
			public void lost(LossReason reason) {
				RecordingLockClientListener.this.events.add(lock + " lost " + reason.tagValue());
			}

			@Override
			public void released(@Nullable Throwable failure) {
				RecordingLockClientListener.this.events
					.add(lock + " released" + ((failure != null) ? " with " + failure.getClass().getSimpleName() : ""));
			}

		};
	}

	@Override
	public void renewalBatchFinished(RenewalBatch batch) {
		this.batches.add(batch);
	}

	/**
	 * Return the events so far.
	 * @return the events
	 */
	public List<String> events() {
		return List.copyOf(this.events);
	}

	/**
	 * Return the waits reported so far, one per outcome.
	 * @return the waits
	 */
	public List<Duration> waits() {
		return List.copyOf(this.waits);
	}

	/**
	 * Return the renewal batches so far.
	 * @return the batches
	 */
	public List<RenewalBatch> batches() {
		return List.copyOf(this.batches);
	}

}
