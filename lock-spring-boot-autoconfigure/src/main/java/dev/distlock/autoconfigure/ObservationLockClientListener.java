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
package dev.distlock.autoconfigure;

import java.time.Duration;

import dev.distlock.core.AcquireOutcome;
import dev.distlock.core.LockClientListener;
import dev.distlock.core.LockTracker;
import dev.distlock.LossReason;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Observes every acquisition and hold of a {@link dev.distlock.core.DefaultLockClient} as
 * one {@code distlock.lock} {@link Observation}: it starts when the caller asks for the
 * lock (as a child of the caller's current observation), records the end of the wait as
 * the event {@code distlock.acquired}, and stops when the hold ends, or when the lock was
 * not acquired. With a tracing bridge, the lock is a span and its wait an event on it.
 * The observation is not opened in scope: work done under the lock is not nested under
 * it.
 *
 * @author distlock
 * @since 0.1.0
 * @see LockObservationConvention
 */
public final class ObservationLockClientListener implements LockClientListener {

	private static final LockObservationConvention DEFAULT_CONVENTION = new DefaultLockObservationConvention();

	private final ObservationRegistry registry;

	private final @Nullable LockObservationConvention convention;

	/**
	 * Create a listener with the {@link DefaultLockObservationConvention}.
	 * @param registry the observation registry
	 */
	public ObservationLockClientListener(ObservationRegistry registry) {
		this(registry, null);
	}

	/**
	 * Create a listener.
	 * @param registry the observation registry
	 * @param convention the convention, or {@code null} for the default one
	 */
	public ObservationLockClientListener(ObservationRegistry registry, @Nullable LockObservationConvention convention) {
		Assert.notNull(registry, "'registry' must not be null");
		this.registry = registry;
		this.convention = convention;
	}

	@Override
	public LockTracker acquisitionStarted(String name, String key) {
		if (this.registry.isNoop()) {
			return LockTracker.NONE;
		}
		LockObservationContext context = new LockObservationContext(name, key);
		Observation observation = Observation
			.createNotStarted(this.convention, DEFAULT_CONVENTION, () -> context, this.registry)
			.start();
		return new ObservedLock(observation, context);
	}

	private record ObservedLock(Observation observation, LockObservationContext context) implements LockTracker {

		@Override
		public void acquired(Duration waited, long fencingToken) {
			this.context.setOutcome(AcquireOutcome.ACQUIRED, waited);
			this.context.setFencingToken(fencingToken);
			this.observation
				.event(Observation.Event.of("distlock.acquired", "acquired after " + waited.toMillis() + " ms"));
		}

		@Override
		public void notAcquired(AcquireOutcome outcome, Duration waited, @Nullable Throwable failure) {
			this.context.setOutcome(outcome, waited);
			if (failure != null && outcome == AcquireOutcome.ERROR) {
				this.observation.error(failure);
			}
			this.observation.stop();
		}

		@Override
		public void lost(LossReason reason) {
			this.context.setLossReason(reason);
			this.observation.event(Observation.Event.of("distlock.lost", "lost: " + reason.tagValue()));
		}

		@Override
		public void released(@Nullable Throwable failure) {
			if (failure != null) {
				this.observation.error(failure);
			}
			this.observation.stop();
		}

	}

}
