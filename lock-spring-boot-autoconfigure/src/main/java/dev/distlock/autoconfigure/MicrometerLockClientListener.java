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
import java.util.concurrent.TimeUnit;

import dev.distlock.core.AcquireOutcome;
import dev.distlock.core.LockClientListener;
import dev.distlock.core.LockTracker;
import dev.distlock.LossReason;
import dev.distlock.core.RenewalBatch;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter.MeterProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Records the meters of a {@link dev.distlock.core.DefaultLockClient} in a
 * {@link MeterRegistry}. Every tag is low-cardinality: {@code name} is the lock's name
 * ({@code @DistributedLock(name)}, {@code SimpleClassName.methodName} by default, or the
 * name a programmatic caller gave, else {@code unnamed}), never its key.
 * <ul>
 * <li>{@value #ACQUIRE} (timer; tags {@code name}, {@code outcome} = {@code acquired},
 * {@code busy}, {@code error} or {@code interrupted}): time from asking for a lock to the
 * outcome.</li>
 * <li>{@value #HELD} (long task timer; tag {@code name}): locks held now and for how
 * long.</li>
 * <li>{@value #LOST} (counter; tags {@code name}, {@code reason} = {@code expired},
 * {@code taken}, {@code backend}, {@code closed} or {@code forced}): held locks found
 * lost.</li>
 * <li>{@value #RENEWAL} (timer; tag {@code outcome} = {@code renewed}, {@code lost} or
 * {@code error}): one per renewal batch of the watchdog.</li>
 * </ul>
 *
 * @author distlock
 * @since 0.1.0
 */
public final class MicrometerLockClientListener implements LockClientListener {

	/**
	 * Name of the acquisition timer.
	 */
	public static final String ACQUIRE = "distlock.acquire";

	/**
	 * Name of the long task timer of held locks.
	 */
	public static final String HELD = "distlock.held";

	/**
	 * Name of the counter of lost locks.
	 */
	public static final String LOST = "distlock.lost";

	/**
	 * Name of the renewal batch timer.
	 */
	public static final String RENEWAL = "distlock.renewal";

	private final MeterProvider<Timer> acquire;

	private final MeterProvider<LongTaskTimer> held;

	private final MeterProvider<Counter> lost;

	private final MeterProvider<Timer> renewal;

	/**
	 * Create a listener that records into {@code registry}.
	 * @param registry the meter registry
	 */
	public MicrometerLockClientListener(MeterRegistry registry) {
		Assert.notNull(registry, "'registry' must not be null");
		this.acquire = Timer.builder(ACQUIRE)
			.description("Time from asking for a distributed lock to the outcome")
			.withRegistry(registry);
		this.held = LongTaskTimer.builder(HELD).description("Distributed locks held now").withRegistry(registry);
		this.lost = Counter.builder(LOST).description("Distributed locks found lost while held").withRegistry(registry);
		this.renewal = Timer.builder(RENEWAL)
			.description("Renewal batches of the distributed lock watchdog")
			.withRegistry(registry);
	}

	@Override
	public LockTracker acquisitionStarted(String name, String key) {
		return new MeteredLock(name);
	}

	@Override
	public void renewalBatchFinished(RenewalBatch batch) {
		this.renewal.withTags("outcome", batch.outcome().tagValue())
			.record(batch.duration().toNanos(), TimeUnit.NANOSECONDS);
	}

	private final class MeteredLock implements LockTracker {

		private final String name;

		private volatile LongTaskTimer.@Nullable Sample holding;

		MeteredLock(String name) {
			this.name = name;
		}

		@Override
		public void acquired(Duration waited, long fencingToken) {
			record(AcquireOutcome.ACQUIRED, waited);
			this.holding = MicrometerLockClientListener.this.held.withTags("name", this.name).start();
		}

		@Override
		public void notAcquired(AcquireOutcome outcome, Duration waited, @Nullable Throwable failure) {
			record(outcome, waited);
		}

		@Override
		public void lost(LossReason reason) {
			MicrometerLockClientListener.this.lost.withTags("name", this.name, "reason", reason.tagValue()).increment();
		}

		@Override
		public void released(@Nullable Throwable failure) {
			LongTaskTimer.Sample sample = this.holding;
			if (sample != null) {
				sample.stop();
			}
		}

		private void record(AcquireOutcome outcome, Duration waited) {
			MicrometerLockClientListener.this.acquire.withTags("name", this.name, "outcome", outcome.tagValue())
				.record(waited.toNanos(), TimeUnit.NANOSECONDS);
		}

	}

}
