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

import dev.distlock.store.support.LockKeyRules;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Settings of a {@link DefaultLockClient}.
 *
 * @param watchdogLease lease of locks acquired without a fixed lease; renewed every third
 * of it while held
 * @param closeTimeout how long {@link DefaultLockClient#close()} may spend releasing held
 * locks, waiting for acquisitions in flight and background releases, and closing its
 * store
 * @param renewalBatchSize how many leases the watchdog hands to the store in one renewal
 * call at most
 * @param fairGrantTimeout how long a waiter for a {@link LockClient#fair() fair lock}
 * keeps its place in the queue without re-checking, and how long a lock a release granted
 * to it waits to be claimed before it expires; waiters re-check every third of it
 * @param cohortHandOffs how many times in a row, while another client waits for the key
 * (as far as the store can tell), a holder may hand a non-fair lock directly to the next
 * caller of the same client waiting for it, instead of releasing it to every client; with
 * no other client waiting it keeps handing over; zero always releases
 * @param maxKeyLength the longest key a call may use, in bytes of UTF-8
 * ({@link LockKeyRules})
 * @param maxKeys the most keys one call may lock ({@link LockKeyRules})
 * @param maxHold the longest a lock is renewed, or {@code null} for no cap
 * @param uncontendedFastPath whether an acquisition of one non-fair write lock whose key
 * no caller of this client holds or waits for, or of one read lock, sends its request
 * before starting the acquisition machinery, which it enters only if refused or failed
 * (on by default; switching it off changes no outcome, only the work per acquisition)
 * @author distlock
 * @since 0.1.0
 */
public record LockClientSettings(Duration watchdogLease, Duration closeTimeout, int renewalBatchSize,
		Duration fairGrantTimeout, int cohortHandOffs, int maxKeyLength, int maxKeys, @Nullable Duration maxHold,
		boolean uncontendedFastPath) {

	/**
	 * Default watchdog lease.
	 */
	public static final Duration DEFAULT_WATCHDOG_LEASE = Duration.ofSeconds(30);

	private static final Duration MIN_WATCHDOG_LEASE = Duration.ofMillis(30);

	/**
	 * Default fair grant timeout.
	 */
	public static final Duration DEFAULT_FAIR_GRANT_TIMEOUT = Duration.ofSeconds(2);

	private static final Duration MIN_FAIR_GRANT_TIMEOUT = Duration.ofMillis(30);

	/**
	 * Default number of cohort hand-overs in a row.
	 */
	public static final int DEFAULT_COHORT_HAND_OFFS = 3;

	/**
	 * Validate the settings.
	 * @param watchdogLease lease of watchdog-renewed locks
	 * @param closeTimeout how long closing may take
	 * @param renewalBatchSize leases per renewal call
	 * @param fairGrantTimeout how long fair waiters and their grants live unrefreshed
	 * @param cohortHandOffs cohort hand-overs in a row before a release
	 * @param maxKeyLength the longest key in bytes of UTF-8
	 * @param maxKeys the most keys per call
	 * @param maxHold the longest a lock is renewed, or {@code null} for no cap
	 * @param uncontendedFastPath whether an uncontended acquisition of one write lock, or
	 * an acquisition of one read lock, sends its request before starting the acquisition
	 * machinery
	 */
	public LockClientSettings {
		Assert.notNull(watchdogLease, "'watchdogLease' must not be null");
		Assert.isTrue(watchdogLease.compareTo(MIN_WATCHDOG_LEASE) >= 0, () -> "'watchdogLease' must be at least "
				+ MIN_WATCHDOG_LEASE.toMillis() + " ms, but was " + watchdogLease);
		Assert.notNull(closeTimeout, "'closeTimeout' must not be null");
		Assert.isTrue(!closeTimeout.isNegative(), () -> "'closeTimeout' must not be negative, but was " + closeTimeout);
		Assert.isTrue(renewalBatchSize > 0, () -> "'renewalBatchSize' must be positive, but was " + renewalBatchSize);
		Assert.notNull(fairGrantTimeout, "'fairGrantTimeout' must not be null");
		Assert.isTrue(fairGrantTimeout.compareTo(MIN_FAIR_GRANT_TIMEOUT) >= 0,
				() -> "'fairGrantTimeout' must be at least " + MIN_FAIR_GRANT_TIMEOUT.toMillis() + " ms, but was "
						+ fairGrantTimeout);
		Assert.isTrue(cohortHandOffs >= 0, () -> "'cohortHandOffs' must not be negative, but was " + cohortHandOffs);
		Assert.isTrue(maxKeyLength > 0, () -> "'maxKeyLength' must be positive, but was " + maxKeyLength);
		Assert.isTrue(maxKeys > 0, () -> "'maxKeys' must be positive, but was " + maxKeys);
		Assert.isTrue(maxHold == null || (!maxHold.isNegative() && !maxHold.isZero()),
				() -> "'maxHold' must be positive, but was " + maxHold);
	}

	/**
	 * Create settings with the uncontended fast path on.
	 * @param watchdogLease lease of watchdog-renewed locks
	 * @param closeTimeout how long closing may take
	 * @param renewalBatchSize leases per renewal call
	 * @param fairGrantTimeout how long fair waiters and their grants live unrefreshed
	 * @param cohortHandOffs cohort hand-overs in a row before a release
	 * @param maxKeyLength the longest key in bytes of UTF-8
	 * @param maxKeys the most keys per call
	 * @param maxHold the longest a lock is renewed, or {@code null} for no cap
	 */
	public LockClientSettings(Duration watchdogLease, Duration closeTimeout, int renewalBatchSize,
			Duration fairGrantTimeout, int cohortHandOffs, int maxKeyLength, int maxKeys, @Nullable Duration maxHold) {
		this(watchdogLease, closeTimeout, renewalBatchSize, fairGrantTimeout, cohortHandOffs, maxKeyLength, maxKeys,
				maxHold, true);
	}

	/**
	 * Create settings with no maximum hold.
	 * @param watchdogLease lease of watchdog-renewed locks
	 * @param closeTimeout how long closing may take
	 * @param renewalBatchSize leases per renewal call
	 * @param fairGrantTimeout how long fair waiters and their grants live unrefreshed
	 * @param cohortHandOffs cohort hand-overs in a row before a release
	 * @param maxKeyLength the longest key in bytes of UTF-8
	 * @param maxKeys the most keys per call
	 */
	public LockClientSettings(Duration watchdogLease, Duration closeTimeout, int renewalBatchSize,
			Duration fairGrantTimeout, int cohortHandOffs, int maxKeyLength, int maxKeys) {
		this(watchdogLease, closeTimeout, renewalBatchSize, fairGrantTimeout, cohortHandOffs, maxKeyLength, maxKeys,
				null);
	}

	/**
	 * Create settings with the {@link LockKeyRules#DEFAULT_MAX_KEY_LENGTH default maximum
	 * key length} and {@link LockKeyRules#DEFAULT_MAX_KEYS default maximum number of
	 * keys}.
	 * @param watchdogLease lease of watchdog-renewed locks
	 * @param closeTimeout how long closing may take
	 * @param renewalBatchSize leases per renewal call
	 * @param fairGrantTimeout how long fair waiters and their grants live unrefreshed
	 * @param cohortHandOffs cohort hand-overs in a row before a release
	 */
	public LockClientSettings(Duration watchdogLease, Duration closeTimeout, int renewalBatchSize,
			Duration fairGrantTimeout, int cohortHandOffs) {
		this(watchdogLease, closeTimeout, renewalBatchSize, fairGrantTimeout, cohortHandOffs,
				LockKeyRules.DEFAULT_MAX_KEY_LENGTH, LockKeyRules.DEFAULT_MAX_KEYS);
	}

	/**
	 * Create settings with the {@link #DEFAULT_FAIR_GRANT_TIMEOUT default fair grant
	 * timeout} and {@link #DEFAULT_COHORT_HAND_OFFS default number of cohort hand-overs}.
	 * @param watchdogLease lease of watchdog-renewed locks
	 * @param closeTimeout how long closing may take
	 * @param renewalBatchSize leases per renewal call
	 */
	public LockClientSettings(Duration watchdogLease, Duration closeTimeout, int renewalBatchSize) {
		this(watchdogLease, closeTimeout, renewalBatchSize, DEFAULT_FAIR_GRANT_TIMEOUT, DEFAULT_COHORT_HAND_OFFS);
	}

	/**
	 * Return the default settings: a 30 second watchdog lease, 5 seconds to close, 500
	 * leases per renewal call, a 2 second fair grant timeout, 3 cohort hand-overs, keys
	 * of at most 512 bytes of UTF-8, at most 64 keys per call.
	 * @return the default settings
	 */
	public static LockClientSettings defaults() {
		return new LockClientSettings(DEFAULT_WATCHDOG_LEASE, Duration.ofSeconds(5), 500);
	}

	/**
	 * Return a copy with another watchdog lease.
	 * @param watchdogLease the watchdog lease
	 * @return the new settings
	 */
	public LockClientSettings withWatchdogLease(Duration watchdogLease) {
		return new LockClientSettings(watchdogLease, this.closeTimeout, this.renewalBatchSize, this.fairGrantTimeout,
				this.cohortHandOffs, this.maxKeyLength, this.maxKeys, this.maxHold, this.uncontendedFastPath);
	}

	/**
	 * Return a copy with another close timeout.
	 * @param closeTimeout the close timeout
	 * @return the new settings
	 */
	public LockClientSettings withCloseTimeout(Duration closeTimeout) {
		return new LockClientSettings(this.watchdogLease, closeTimeout, this.renewalBatchSize, this.fairGrantTimeout,
				this.cohortHandOffs, this.maxKeyLength, this.maxKeys, this.maxHold, this.uncontendedFastPath);
	}

	/**
	 * Return a copy with another renewal batch size.
	 * @param renewalBatchSize leases per renewal call
	 * @return the new settings
	 */
	public LockClientSettings withRenewalBatchSize(int renewalBatchSize) {
		return new LockClientSettings(this.watchdogLease, this.closeTimeout, renewalBatchSize, this.fairGrantTimeout,
				this.cohortHandOffs, this.maxKeyLength, this.maxKeys, this.maxHold, this.uncontendedFastPath);
	}

	/**
	 * Return a copy with another fair grant timeout.
	 * @param fairGrantTimeout the fair grant timeout
	 * @return the settings
	 * @since 0.1.0
	 */
	public LockClientSettings withFairGrantTimeout(Duration fairGrantTimeout) {
		return new LockClientSettings(this.watchdogLease, this.closeTimeout, this.renewalBatchSize, fairGrantTimeout,
				this.cohortHandOffs, this.maxKeyLength, this.maxKeys, this.maxHold, this.uncontendedFastPath);
	}

	/**
	 * Return a copy with another number of cohort hand-overs.
	 * @param cohortHandOffs cohort hand-overs in a row before a release; zero always
	 * releases
	 * @return the settings
	 * @since 0.1.0
	 */
	public LockClientSettings withCohortHandOffs(int cohortHandOffs) {
		return new LockClientSettings(this.watchdogLease, this.closeTimeout, this.renewalBatchSize,
				this.fairGrantTimeout, cohortHandOffs, this.maxKeyLength, this.maxKeys, this.maxHold,
				this.uncontendedFastPath);
	}

	/**
	 * Return a copy with another maximum key length.
	 * @param maxKeyLength the longest key a call may use, in bytes of UTF-8
	 * @return the settings
	 */
	public LockClientSettings withMaxKeyLength(int maxKeyLength) {
		return new LockClientSettings(this.watchdogLease, this.closeTimeout, this.renewalBatchSize,
				this.fairGrantTimeout, this.cohortHandOffs, maxKeyLength, this.maxKeys, this.maxHold,
				this.uncontendedFastPath);
	}

	/**
	 * Return a copy with another maximum number of keys per call.
	 * @param maxKeys the most keys one call may lock
	 * @return the settings
	 */
	public LockClientSettings withMaxKeys(int maxKeys) {
		return new LockClientSettings(this.watchdogLease, this.closeTimeout, this.renewalBatchSize,
				this.fairGrantTimeout, this.cohortHandOffs, this.maxKeyLength, maxKeys, this.maxHold,
				this.uncontendedFastPath);
	}

	/**
	 * Return a copy with another maximum hold: how long a lock is renewed at most.
	 * @param maxHold the longest a lock is renewed, or {@code null} for no cap
	 * @return the new settings
	 */
	public LockClientSettings withMaxHold(@Nullable Duration maxHold) {
		return new LockClientSettings(this.watchdogLease, this.closeTimeout, this.renewalBatchSize,
				this.fairGrantTimeout, this.cohortHandOffs, this.maxKeyLength, this.maxKeys, maxHold,
				this.uncontendedFastPath);
	}

	/**
	 * Return a copy with the uncontended fast path on or off: off, every acquisition goes
	 * through the acquisition machinery from its start (the same outcomes, more work per
	 * uncontended acquisition).
	 * @param uncontendedFastPath whether an uncontended acquisition of one write lock, or
	 * an acquisition of one read lock, sends its request before starting the acquisition
	 * machinery
	 * @return the new settings
	 */
	public LockClientSettings withUncontendedFastPath(boolean uncontendedFastPath) {
		return new LockClientSettings(this.watchdogLease, this.closeTimeout, this.renewalBatchSize,
				this.fairGrantTimeout, this.cohortHandOffs, this.maxKeyLength, this.maxKeys, this.maxHold,
				uncontendedFastPath);
	}

	/**
	 * Return how often held watchdog leases are renewed: a third of the lease.
	 * @return the renewal interval
	 */
	public Duration renewalInterval() {
		return this.watchdogLease.dividedBy(3);
	}

}
