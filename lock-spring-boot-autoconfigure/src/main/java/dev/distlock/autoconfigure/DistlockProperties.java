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

import dev.distlock.core.LockClientSettings;
import dev.distlock.core.ReplicaAcknowledgement;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of distlock ({@code distlock.*}).
 *
 * @author distlock
 * @since 0.1.0
 */
@ConfigurationProperties("distlock")
public class DistlockProperties {

	/**
	 * Whether to auto-configure the lock client and the @DistributedLock advice.
	 */
	private boolean enabled = true;

	/**
	 * Prefix of every Redis key and channel of a lock. Must not contain '{' or '}'.
	 */
	private String keyPrefix = "lock:";

	/**
	 * How long @DistributedLock methods that do not set waitTime wait for a lock held
	 * elsewhere. Zero fails fast.
	 */
	private Duration waitTime = Duration.ofSeconds(0);

	/**
	 * Lease of locks held without a fixed lease time, renewed every third of it while the
	 * lock is held. Bounds how long a crashed holder blocks others.
	 */
	private Duration watchdogLease = Duration.ofSeconds(30);

	/**
	 * How long closing the lock client on shutdown may spend releasing held locks.
	 */
	private Duration closeTimeout = Duration.ofSeconds(5);

	/**
	 * Maximum number of leases the watchdog hands to the lock store in one renewal call;
	 * on Redis one script per batch, split by hash slot on a Cluster.
	 */
	private int renewalBatchSize = 500;

	private final Aspect aspect = new Aspect();

	private final Replication replication = new Replication();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	public void setKeyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
	}

	public Duration getWaitTime() {
		return this.waitTime;
	}

	public void setWaitTime(Duration waitTime) {
		this.waitTime = waitTime;
	}

	public Duration getWatchdogLease() {
		return this.watchdogLease;
	}

	public void setWatchdogLease(Duration watchdogLease) {
		this.watchdogLease = watchdogLease;
	}

	public Duration getCloseTimeout() {
		return this.closeTimeout;
	}

	public void setCloseTimeout(Duration closeTimeout) {
		this.closeTimeout = closeTimeout;
	}

	public int getRenewalBatchSize() {
		return this.renewalBatchSize;
	}

	public void setRenewalBatchSize(int renewalBatchSize) {
		this.renewalBatchSize = renewalBatchSize;
	}

	public Aspect getAspect() {
		return this.aspect;
	}

	public Replication getReplication() {
		return this.replication;
	}

	/**
	 * Return the lock client settings these properties describe.
	 * @return the settings
	 */
	public LockClientSettings toClientSettings() {
		return new LockClientSettings(this.watchdogLease, this.closeTimeout, this.renewalBatchSize);
	}

	/**
	 * Replica acknowledgement of lock grants.
	 */
	public static class Replication {

		/**
		 * Number of replicas that must acknowledge a lock grant (Redis WAIT) before the
		 * lock counts as acquired; with fewer, the grant is released and the acquisition
		 * fails. Zero does not wait for replicas. Needs Lettuce.
		 */
		private int minReplicas = 0;

		/**
		 * How long an acquisition waits for the replicas to acknowledge its grant.
		 */
		private Duration timeout = Duration.ofMillis(500);

		public int getMinReplicas() {
			return this.minReplicas;
		}

		public void setMinReplicas(int minReplicas) {
			this.minReplicas = minReplicas;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

		/**
		 * Return the replica acknowledgement these properties describe.
		 * @return the replica acknowledgement
		 */
		public ReplicaAcknowledgement toAcknowledgement() {
			return new ReplicaAcknowledgement(this.minReplicas, this.timeout);
		}

	}

	/**
	 * Properties of the @DistributedLock advice.
	 */
	public static class Aspect {

		/**
		 * Order of the @DistributedLock advice among other advice on the same method.
		 * Lower values run further outside; the default runs outside @Transactional, so
		 * the lock is released after the transaction ends.
		 */
		private int order = 2147483547;

		public int getOrder() {
			return this.order;
		}

		public void setOrder(int order) {
			this.order = order;
		}

	}

}
