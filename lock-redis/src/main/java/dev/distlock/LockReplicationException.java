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

package dev.distlock;

import java.time.Duration;

/**
 * Thrown when a store's master granted a lock but fewer replicas than required
 * acknowledged the grant within the replication timeout (see
 * {@code dev.distlock.redis.ReplicaAcknowledgement}). The grant was released again
 * (owner-checked), so the lock is not held and the protected code did not run. A
 * {@link LockBackendException}: the acquisition fails closed, as it does when the store
 * cannot be reached.
 *
 * @author distlock
 * @since 0.1.0
 */
public class LockReplicationException extends LockBackendException {

	/**
	 * How many replicas acknowledged the grant in time.
	 */
	private final int acknowledged;

	/**
	 * How many replicas had to acknowledge it.
	 */
	private final int required;

	/**
	 * How long the acquisition waited for them.
	 */
	private final Duration timeout;

	/**
	 * Create a new exception.
	 * @param key the lock key
	 * @param acknowledged how many replicas acknowledged the grant in time
	 * @param required how many replicas had to acknowledge it
	 * @param timeout how long the acquisition waited for them
	 */
	public LockReplicationException(String key, int acknowledged, int required, Duration timeout) {
		super(key, null,
				"Lock '" + LogSafe.escape(key) + "' was granted but only " + acknowledged + " of the " + required
						+ " required replica(s) acknowledged the grant within " + timeout.toMillis()
						+ " ms; the grant was released and the lock is not held");
		this.acknowledged = acknowledged;
		this.required = required;
		this.timeout = timeout;
	}

	/**
	 * Return how many replicas acknowledged the grant within the timeout.
	 * @return the number of acknowledging replicas
	 */
	public int getAcknowledged() {
		return this.acknowledged;
	}

	/**
	 * Return how many replicas had to acknowledge the grant.
	 * @return the required number of replicas
	 */
	public int getRequired() {
		return this.required;
	}

	/**
	 * Return how long the acquisition waited for the replicas.
	 * @return the replication timeout
	 */
	public Duration getTimeout() {
		return this.timeout;
	}

}
