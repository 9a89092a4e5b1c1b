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
import java.util.LinkedHashSet;
import java.util.Set;

import dev.distlock.core.LockClientSettings;
import org.jspecify.annotations.Nullable;

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
	 * Prefix of every Redis key and channel of a lock. Must not contain '{' or '}'. Not
	 * used by the JDBC store, whose table is the namespace.
	 */
	private String keyPrefix = "lock:";

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
	 * How many times in a row the holder of a non-fair lock may hand it directly to the
	 * next caller of the same instance waiting for it (one script, new fencing token),
	 * instead of releasing it to every instance. Zero always releases.
	 */
	private int cohortHandOffs = 3;

	/**
	 * Maximum length of a lock key, in bytes of UTF-8. Longer keys fail the call before
	 * any Redis command.
	 */
	private int maxKeyLength = 512;

	/**
	 * Maximum number of distinct keys one call may lock (a key expression that gives a
	 * collection, or LockClient#acquireAll). More fail the call before any Redis command.
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

	private final Aspect aspect = new Aspect();

	private final Async async = new Async();

	private final Reactive reactive = new Reactive();

	private final Endpoint endpoint = new Endpoint();

	private final Replication replication = new Replication();

	private final Observation observation = new Observation();

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
	 * Return the key prefix.
	 * @return the key prefix
	 */
	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	/**
	 * Set the key prefix.
	 * @param keyPrefix the key prefix
	 */
	public void setKeyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
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
	public Aspect getAspect() {
		return this.aspect;
	}

	/**
	 * Return the properties of asynchronous locked methods.
	 * @return the properties of asynchronous locked methods
	 */
	public Async getAsync() {
		return this.async;
	}

	/**
	 * Return the properties of locked methods returning a reactive type.
	 * @return the properties of reactive locked methods
	 */
	public Reactive getReactive() {
		return this.reactive;
	}

	/**
	 * Return the replica acknowledgement properties.
	 * @return the replica acknowledgement properties
	 */
	public Replication getReplication() {
		return this.replication;
	}

	/**
	 * Return the endpoint.
	 * @return the endpoint
	 */
	public Endpoint getEndpoint() {
		return this.endpoint;
	}

	/**
	 * Return the observation properties.
	 * @return the observation properties
	 */
	public Observation getObservation() {
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

		/**
		 * Return how many replicas must acknowledge a grant.
		 * @return the number of replicas
		 */
		public int getMinReplicas() {
			return this.minReplicas;
		}

		/**
		 * Set how many replicas must acknowledge a grant.
		 * @param minReplicas the number of replicas
		 */
		public void setMinReplicas(int minReplicas) {
			this.minReplicas = minReplicas;
		}

		/**
		 * Return how long an acquisition waits for the acknowledgements.
		 * @return the timeout
		 */
		public Duration getTimeout() {
			return this.timeout;
		}

		/**
		 * Set how long an acquisition waits for the acknowledgements.
		 * @param timeout the timeout
		 */
		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
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

		/**
		 * Return the order.
		 * @return the order
		 */
		public int getOrder() {
			return this.order;
		}

		/**
		 * Set the order.
		 * @param order the order
		 */
		public void setOrder(int order) {
			this.order = order;
		}

	}

	/**
	 * Properties of locked methods returning a CompletionStage or a reactive type.
	 */
	public static class Async {

		/**
		 * Name of the Executor bean that bodies of locked methods returning a
		 * CompletionStage or a reactive type run on once their lock is granted. Empty for
		 * Spring Boot's applicationTaskExecutor when there is one, else a new thread per
		 * call (virtual when spring.threads.virtual.enabled is true on Java 21 or later).
		 */
		private @Nullable String executor;

		/**
		 * Return the name of the executor bean.
		 * @return the name of the executor bean, or {@code null}
		 */
		public @Nullable String getExecutor() {
			return this.executor;
		}

		/**
		 * Set the name of the executor bean.
		 * @param executor the name of the executor bean
		 */
		public void setExecutor(@Nullable String executor) {
			this.executor = executor;
		}

	}

	/**
	 * Properties of locked methods returning a reactive type.
	 */
	public static class Reactive {

		/**
		 * How long a cancelled subscription of a locked method returning a Mono or a Flux
		 * keeps its lock before releasing it. The cancel is passed on to the method's
		 * publisher, but whether its work stopped cannot be seen; 0 releases at the
		 * cancel, for publishers whose work is known to stop with it.
		 */
		private Duration holdAfterCancel = Duration.ofSeconds(30);

		/**
		 * Return how long a cancelled subscription keeps its lock.
		 * @return how long a cancelled subscription keeps its lock
		 */
		public Duration getHoldAfterCancel() {
			return this.holdAfterCancel;
		}

		/**
		 * Set how long a cancelled subscription keeps its lock.
		 * @param holdAfterCancel how long a cancelled subscription keeps its lock
		 */
		public void setHoldAfterCancel(Duration holdAfterCancel) {
			this.holdAfterCancel = holdAfterCancel;
		}

	}

	/**
	 * Properties of the distlock actuator endpoint.
	 */
	public static class Endpoint {

		/**
		 * Whether DELETE /actuator/distlock/{key} may force-release a lock whoever holds
		 * it. The holder may still be working, so another caller can then take the lock
		 * while it does.
		 */
		private boolean forceRelease = false;

		/**
		 * When to show lock keys (often user or order ids) in the endpoint's answers;
		 * otherwise they are masked as ******. WHEN_AUTHORIZED shows them to an
		 * authenticated caller with one of the roles, or to any authenticated caller when
		 * no role is set.
		 */
		private KeyVisibility showKeys = KeyVisibility.NEVER;

		/**
		 * Roles a caller needs to see the keys when show-keys is WHEN_AUTHORIZED. Empty
		 * means any authenticated caller.
		 */
		private Set<String> roles = new LinkedHashSet<>();

		/**
		 * Return when keys are shown.
		 * @return when keys are shown
		 */
		public KeyVisibility getShowKeys() {
			return this.showKeys;
		}

		/**
		 * Set when keys are shown.
		 * @param showKeys when keys are shown
		 */
		public void setShowKeys(KeyVisibility showKeys) {
			this.showKeys = showKeys;
		}

		/**
		 * Return the roles that may see the keys.
		 * @return the roles
		 */
		public Set<String> getRoles() {
			return this.roles;
		}

		/**
		 * Set the roles that may see the keys.
		 * @param roles the roles
		 */
		public void setRoles(Set<String> roles) {
			this.roles = roles;
		}

		/**
		 * Return whether the endpoint may force-release a lock.
		 * @return whether force-release is allowed
		 */
		public boolean isForceRelease() {
			return this.forceRelease;
		}

		/**
		 * Set whether the endpoint may force-release a lock.
		 * @param forceRelease whether force-release is allowed
		 */
		public void setForceRelease(boolean forceRelease) {
			this.forceRelease = forceRelease;
		}

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

	/**
	 * Properties of the distlock.lock observation.
	 */
	public static class Observation {

		/**
		 * Whether the distlock.lock observation carries the lock key (often a user or
		 * order id) as the high-cardinality key value distlock.key, which reaches spans.
		 */
		private boolean includeKey = false;

		/**
		 * Return whether the observation carries the lock key.
		 * @return whether the key is included
		 */
		public boolean isIncludeKey() {
			return this.includeKey;
		}

		/**
		 * Set whether the observation carries the lock key.
		 * @param includeKey whether the key is included
		 */
		public void setIncludeKey(boolean includeKey) {
			this.includeKey = includeKey;
		}

	}

	/**
	 * When the endpoint shows lock keys, as Spring Boot's {@code show-values} of the
	 * {@code env} and {@code configprops} endpoints.
	 */
	public enum KeyVisibility {

		/**
		 * Never show keys: they are masked.
		 */
		NEVER,

		/**
		 * Show keys to authorized callers only.
		 */
		WHEN_AUTHORIZED,

		/**
		 * Always show keys.
		 */
		ALWAYS

	}

}
