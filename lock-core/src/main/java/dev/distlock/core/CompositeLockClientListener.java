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

import org.jspecify.annotations.Nullable;

/**
 * Calls several listeners in turn.
 *
 * @author distlock
 * @since 0.1.0
 */
final class CompositeLockClientListener implements LockClientListener {

	private final List<? extends LockClientListener> listeners;

	CompositeLockClientListener(List<? extends LockClientListener> listeners) {
		this.listeners = listeners;
	}

	@Override
	public LockTracker acquisitionStarted(String name, String key) {
		List<LockTracker> trackers = this.listeners.stream()
			.map((listener) -> listener.acquisitionStarted(name, key))
			.filter((tracker) -> tracker != LockTracker.NONE)
			.toList();
		return switch (trackers.size()) {
			case 0 -> LockTracker.NONE;
			case 1 -> trackers.get(0);
			default -> new CompositeTracker(trackers);
		};
	}

	@Override
	public void renewalBatchFinished(RenewalBatch batch) {
		this.listeners.forEach((listener) -> listener.renewalBatchFinished(batch));
	}

	private record CompositeTracker(List<LockTracker> trackers) implements LockTracker {

		@Override
		public void acquired(Duration waited, long fencingToken) {
			this.trackers.forEach((tracker) -> tracker.acquired(waited, fencingToken));
		}

		@Override
		public void notAcquired(AcquireOutcome outcome, Duration waited, @Nullable Throwable failure) {
			this.trackers.forEach((tracker) -> tracker.notAcquired(outcome, waited, failure));
		}

		@Override
		public void lost(LossReason reason) {
			this.trackers.forEach((tracker) -> tracker.lost(reason));
		}

		@Override
		public void released(@Nullable Throwable failure) {
			this.trackers.forEach((tracker) -> tracker.released(failure));
		}

	}

}
