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

import dev.distlock.core.AcquireOutcome;
import dev.distlock.LossReason;
import io.micrometer.common.KeyValues;

/**
 * Default {@link LockObservationConvention}: the observation {@value #NAME}, named
 * {@code "lock <name>"} in traces, with the low-cardinality key values
 * {@code distlock.name} and {@code distlock.outcome} (once known: {@code acquired},
 * {@code busy}, {@code error} or {@code interrupted}), and the high-cardinality
 * {@code distlock.fencing-token} once granted and {@code distlock.lost} when the lock was
 * lost while held. The lock key (often a user or order id) is the high-cardinality
 * {@code distlock.key} only when the convention is created to include it
 * ({@code distlock.observation.include-key=true}).
 *
 * @author distlock
 * @since 0.1.0
 */
public class DefaultLockObservationConvention implements LockObservationConvention {

	/**
	 * Name of the observation.
	 */
	public static final String NAME = "distlock.lock";

	private final boolean includeKey;

	/**
	 * Create a convention that leaves the lock key out of the observation.
	 */
	public DefaultLockObservationConvention() {
		this(false);
	}

	/**
	 * Create a convention.
	 * @param includeKey whether the lock key is the high-cardinality key value
	 * {@code distlock.key}
	 */
	public DefaultLockObservationConvention(boolean includeKey) {
		this.includeKey = includeKey;
	}

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(LockObservationContext context) {
		return "lock " + context.getLockName();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(LockObservationContext context) {
		KeyValues values = KeyValues.of("distlock.name", context.getLockName());
		AcquireOutcome outcome = context.getOutcome();
		return (outcome != null) ? values.and("distlock.outcome", outcome.tagValue()) : values;
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(LockObservationContext context) {
		KeyValues values = this.includeKey ? KeyValues.of("distlock.key", context.getKey()) : KeyValues.empty();
		if (context.getFencingToken() != 0) {
			values = values.and("distlock.fencing-token", Long.toString(context.getFencingToken()));
		}
		LossReason lost = context.getLossReason();
		return (lost != null) ? values.and("distlock.lost", lost.tagValue()) : values;
	}

}
