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

package dev.distlock.redis;

import java.time.Duration;

import dev.distlock.LockReplicationException;

import org.springframework.util.Assert;

/**
 * How many replicas must acknowledge a lock grant before {@link RedisLockStore} reports
 * it as acquired. After a grant the store sends Redis {@code WAIT} on the connection that
 * made the grant (a connection of its own, never the application's shared one); if fewer
 * than {@code minReplicas} replicas acknowledged within {@code timeout}, it releases the
 * grant and fails the acquisition with {@link LockReplicationException}.
 * <p>
 * This narrows the window in which an unplanned failover loses a lock: a grant the holder
 * was told about has reached that many replicas. It does not close it: replication stays
 * asynchronous, Sentinel or Cluster may promote a replica that did not acknowledge, and
 * renewals are not waited for. Fencing tokens checked by the resource remain the real
 * protection.
 *
 * @param minReplicas how many replicas must acknowledge a grant; 0 switches
 * acknowledgement off
 * @param timeout how long an acquisition waits for the acknowledgements
 * @author distlock
 * @since 0.1.0
 */
public record ReplicaAcknowledgement(int minReplicas, Duration timeout) {

	/**
	 * Default timeout.
	 */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(500);

	private static final ReplicaAcknowledgement NONE = new ReplicaAcknowledgement(0, DEFAULT_TIMEOUT);

	/**
	 * Validate the settings.
	 * @param minReplicas how many replicas must acknowledge a grant
	 * @param timeout how long an acquisition waits for the acknowledgements
	 */
	public ReplicaAcknowledgement {
		Assert.isTrue(minReplicas >= 0, () -> "'minReplicas' must not be negative, but was " + minReplicas);
		Assert.notNull(timeout, "'timeout' must not be null");
		Assert.isTrue(timeout.toMillis() > 0, () -> "'timeout' must be at least 1 ms, but was " + timeout);
	}

	/**
	 * Return the setting that waits for no replica: a grant counts once the master made
	 * it.
	 * @return no acknowledgement
	 */
	public static ReplicaAcknowledgement none() {
		return NONE;
	}

	/**
	 * Return whether grants wait for replicas at all.
	 * @return whether {@link #minReplicas()} is positive
	 */
	public boolean isEnabled() {
		return this.minReplicas > 0;
	}

}
