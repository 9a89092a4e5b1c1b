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
import dev.distlock.LossReason;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * The context of a {@code distlock.lock} observation: one acquisition of a lock and, when
 * granted, its hold.
 *
 * @author distlock
 * @since 0.1.0
 * @see LockObservationConvention
 */
public class LockObservationContext extends Observation.Context {

	private final String lockName;

	private final String key;

	private volatile @Nullable AcquireOutcome outcome;

	private volatile @Nullable Duration waited;

	private volatile long fencingToken;

	private volatile @Nullable LossReason lossReason;

	/**
	 * Create a context.
	 * @param lockName the low-cardinality name of the lock
	 * @param key the lock key
	 */
	public LockObservationContext(String lockName, String key) {
		this.lockName = lockName;
		this.key = key;
	}

	/**
	 * Return the low-cardinality name of the lock, for example
	 * {@code "OrderService.placeOrder"}.
	 * @return the lock name
	 */
	public String getLockName() {
		return this.lockName;
	}

	/**
	 * Return the lock key.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * Return the outcome of the acquisition, or {@code null} while waiting.
	 * @return the outcome
	 */
	public @Nullable AcquireOutcome getOutcome() {
		return this.outcome;
	}

	void setOutcome(AcquireOutcome outcome, Duration waited) {
		this.outcome = outcome;
		this.waited = waited;
	}

	/**
	 * Return how long the caller waited for the outcome, or {@code null} while waiting.
	 * @return the wait
	 */
	public @Nullable Duration getWaited() {
		return this.waited;
	}

	/**
	 * Return the fencing token of the grant, or {@code 0} if not granted.
	 * @return the fencing token
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

	void setFencingToken(long fencingToken) {
		this.fencingToken = fencingToken;
	}

	/**
	 * Return why the lock was lost while held, or {@code null}.
	 * @return the loss reason
	 */
	public @Nullable LossReason getLossReason() {
		return this.lossReason;
	}

	void setLossReason(LossReason lossReason) {
		this.lossReason = lossReason;
	}

}
