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

import dev.distlock.autoconfigure.endpoint.DistlockEndpointProperties;
import dev.distlock.autoconfigure.observation.LockObservationProperties;
import java.time.Duration;

import dev.distlock.core.LockClientSettings;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

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
	 * How long @DistributedLock methods that do not set waitTime wait for a lock held
	 * elsewhere. Zero fails fast.
	 */
	private Duration waitTime = Duration.ofSeconds(0);

	/**
	 * Lease of locks held without a fixed lease time, renewed every third of it while the
	 * lock is held. Bounds how long a crashed holder blocks others. When unset, 30
	 * seconds, or on ZooKeeper a third of the session timeout negotiated with the
	 * ensemble.
	 */
	private @Nullable Duration watchdogLease;

	/**
	 * How long closing the lock client on shutdown may spend releasing held locks.
	 */
	private Duration closeTimeout = Duration.ofSeconds(5);

	/**
	 * Maximum number of leases the watchdog hands to the lock store in one renewal call;
	 * on Redis one script per batch, split by hash slot on a Cluster.
	 */
	private int renewalBatchSize = 500;

	/**
	 * How long a waiter for a fair lock keeps its place in the queue without re-checking
	 * (waiters re-check every third of it), and how long a lock a release granted to a
	 * waiter lives before the waiter extends it to its lease. Bounds how long a waiter
	 * that died delays the others.
	 */
	private Duration fairGrantTimeout = Duration.ofSeconds(2);

	/**
	 * How many times in a row, while another instance waits for the key, the holder of a
	 * non-fair lock may hand it directly to the next caller of the same instance waiting
	 * for it (one script, new fencing token), instead of releasing it to every instance;
	 * with no other instance waiting it keeps handing over. Zero always releases.
	 */
	private int cohortHandOffs = 3;

	/**
	 * Maximum length of a lock key, in bytes of UTF-8. Longer keys fail the call before
	 * any store call.
	 */
	private int maxKeyLength = 512;

	/**
	 * Maximum number of distinct keys one call may lock (a key expression that gives a
	 * collection, or LockClient#acquireAll). More fail the call before any store call.
	 */
	private int maxKeys = 64;

	/**
	 * Longest time a lock is renewed by the watchdog. A hold older than this is no longer
	 * renewed, expires with its lease, and its holder is told it was lost; empty for no
	 * cap.
	 */
	private @Nullable Duration maxHold;

	/**
	 * Lock store to use. Unset, the only store whose module and connection are present;
	 * memory (locks within one JVM only) is never chosen unless set.
	 */
	private @Nullable Store store;

	@NestedConfigurationProperty
	private final LockAspectProperties aspect = new LockAspectProperties();

	@NestedConfigurationProperty
	private final LockAsyncProperties async = new LockAsyncProperties();

	@NestedConfigurationProperty
	private final LockReactiveProperties reactive = new LockReactiveProperties();

	@NestedConfigurationProperty
	private final DistlockEndpointProperties endpoint = new DistlockEndpointProperties();

	@NestedConfigurationProperty
	private final LockObservationProperties observation = new LockObservationProperties();

	/**
	 * Return whether distlock is enabled.
	 * @return whether distlock is enabled
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Set whether distlock is enabled.
	 * @param enabled whether distlock is enabled
	 */
	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * Return the lock store to use.
	 * @return the lock store, or {@code null} for the only one present
	 */
	public @Nullable Store getStore() {
		return this.store;
	}

	/**
	 * Set the lock store to use.
	 * @param store the lock store, or {@code null} for the only one present
	 */
	public void setStore(@Nullable Store store) {
		this.store = store;
	}

	/**
	 * Return the wait time.
	 * @return the wait time
	 */
	public Duration getWaitTime() {
		return this.waitTime;
	}

	/**
	 * Set the wait time.
	 * @param waitTime the wait time
	 */
	public void setWaitTime(Duration waitTime) {
		this.waitTime = waitTime;
	}

	/**
	 * Return the watchdog lease.
	 * @return the watchdog lease, or {@code null} for the store's default
	 */
	public @Nullable Duration getWatchdogLease() {
		return this.watchdogLease;
	}

	/**
	 * Set the watchdog lease.
	 * @param watchdogLease the watchdog lease
	 */
	public void setWatchdogLease(@Nullable Duration watchdogLease) {
		this.watchdogLease = watchdogLease;
	}

	/**
	 * Return the close timeout.
	 * @return the close timeout
	 */
	public Duration getCloseTimeout() {
		return this.closeTimeout;
	}

	/**
	 * Set the close timeout.
	 * @param closeTimeout the close timeout
	 */
	public void setCloseTimeout(Duration closeTimeout) {
		this.closeTimeout = closeTimeout;
	}

	/**
	 * Return the renewal batch size.
	 * @return the renewal batch size
	 */
	public int getRenewalBatchSize() {
		return this.renewalBatchSize;
	}

	/**
	 * Set the renewal batch size.
	 * @param renewalBatchSize the renewal batch size
	 */
	public void setRenewalBatchSize(int renewalBatchSize) {
		this.renewalBatchSize = renewalBatchSize;
	}

	/**
	 * Return the aspect.
	 * @return the aspect
	 */
	public LockAspectProperties getAspect() {
		return this.aspect;
	}

	/**
	 * Return the properties of asynchronous locked methods.
	 * @return the properties of asynchronous locked methods
	 */
	public LockAsyncProperties getAsync() {
		return this.async;
	}

	/**
	 * Return the properties of locked methods returning a reactive type.
	 * @return the properties of reactive locked methods
	 */
	public LockReactiveProperties getReactive() {
		return this.reactive;
	}

	/**
	 * Return the endpoint.
	 * @return the endpoint
	 */
	public DistlockEndpointProperties getEndpoint() {
		return this.endpoint;
	}

	/**
	 * Return the observation properties.
	 * @return the observation properties
	 */
	public LockObservationProperties getObservation() {
		return this.observation;
	}

	/**
	 * Return the fair grant timeout.
	 * @return the fair grant timeout
	 */
	public Duration getFairGrantTimeout() {
		return this.fairGrantTimeout;
	}

	/**
	 * Set the fair grant timeout.
	 * @param fairGrantTimeout the fair grant timeout
	 */
	public void setFairGrantTimeout(Duration fairGrantTimeout) {
		this.fairGrantTimeout = fairGrantTimeout;
	}

	/**
	 * Return the cohort hand-offs.
	 * @return the cohort hand-offs
	 */
	public int getCohortHandOffs() {
		return this.cohortHandOffs;
	}

	/**
	 * Set the cohort hand-offs.
	 * @param cohortHandOffs the cohort hand-offs
	 */
	public void setCohortHandOffs(int cohortHandOffs) {
		this.cohortHandOffs = cohortHandOffs;
	}

	/**
	 * Return the maximum key length.
	 * @return the maximum key length in bytes of UTF-8
	 */
	public int getMaxKeyLength() {
		return this.maxKeyLength;
	}

	/**
	 * Set the maximum key length.
	 * @param maxKeyLength the maximum key length in bytes of UTF-8
	 */
	public void setMaxKeyLength(int maxKeyLength) {
		this.maxKeyLength = maxKeyLength;
	}

	/**
	 * Return the maximum number of keys per call.
	 * @return the maximum number of keys
	 */
	public int getMaxKeys() {
		return this.maxKeys;
	}

	/**
	 * Set the maximum number of keys per call.
	 * @param maxKeys the maximum number of keys
	 */
	public void setMaxKeys(int maxKeys) {
		this.maxKeys = maxKeys;
	}

	/**
	 * Return the longest time a lock is renewed.
	 * @return the maximum hold, or {@code null} for no cap
	 */
	public @Nullable Duration getMaxHold() {
		return this.maxHold;
	}

	/**
	 * Set the longest time a lock is renewed.
	 * @param maxHold the maximum hold, or {@code null} for no cap
	 */
	public void setMaxHold(@Nullable Duration maxHold) {
		this.maxHold = maxHold;
	}

	/**
	 * Return the lock client settings these properties describe.
	 * @return the settings
	 * @throws IllegalArgumentException if a property is invalid, naming the property
	 */
	public LockClientSettings toClientSettings() {
		return toClientSettings(LockClientSettings.DEFAULT_WATCHDOG_LEASE);
	}

	/**
	 * Return the lock client settings these properties describe, with
	 * {@code defaultLease} as the watchdog lease unless one is set.
	 * @param defaultLease the store's default watchdog lease
	 * @return the settings
	 * @throws IllegalArgumentException if a property is invalid, naming the property
	 */
	public LockClientSettings toClientSettings(Duration defaultLease) {
		Duration lease = (this.watchdogLease != null) ? this.watchdogLease : defaultLease;
		return PropertyErrors.named(() -> new LockClientSettings(lease, this.closeTimeout, this.renewalBatchSize,
				this.fairGrantTimeout, this.cohortHandOffs, this.maxKeyLength, this.maxKeys, this.maxHold));
	}

	/**
	 * The lock stores {@code distlock.store} can select.
	 */
	public enum Store {

		/**
		 * Redis, with {@code lock-redis} and the application's
		 * {@code StringRedisTemplate}.
		 */
		REDIS,

		/**
		 * A relational database (PostgreSQL, MySQL, MariaDB or H2), with
		 * {@code lock-jdbc} and the application's {@code DataSource}.
		 */
		JDBC,

		/**
		 * ZooKeeper, with {@code lock-zookeeper} and the application's
		 * {@code CuratorFramework} or {@code distlock.zookeeper.connect-string}.
		 */
		ZOOKEEPER,

		/**
		 * In memory: locks within this JVM only, never between application instances.
		 */
		MEMORY

	}

}
