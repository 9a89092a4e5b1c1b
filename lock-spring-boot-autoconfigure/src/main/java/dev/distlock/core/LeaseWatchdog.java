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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.LockStore.Renewal;
import dev.distlock.core.LockStore.RenewalOutcome;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Renews the leases of every watchdog-mode lock one client holds, from one scheduler
 * thread, every third of the lease, handing the store up to a batch of leases per call. A
 * lease the store reports lost is marked lost and no longer renewed; a lost lease is
 * never re-created. A lease released while its renewal was in flight is not reported:
 * release stops watching before it asks the store, and a loss counts only if the lease
 * was still watched.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LeaseWatchdog implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LeaseWatchdog.class);

	static final String TAKEN = "the watchdog found the key expired or owned by another client";

	private final LockStore store;

	private final Duration lease;

	private final Duration interval;

	private final int batchSize;

	private final Set<Lease> watched = ConcurrentHashMap.newKeySet();

	private final ScheduledExecutorService scheduler;

	/**
	 * Create and start a watchdog.
	 * @param store the store to renew in
	 * @param lease the lease to renew to
	 * @param interval how often to renew
	 * @param batchSize leases per store call
	 * @param threadName the scheduler thread's name
	 */
	LeaseWatchdog(LockStore store, Duration lease, Duration interval, int batchSize, String threadName) {
		this.store = store;
		this.lease = lease;
		this.batchSize = batchSize;
		this.scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, threadName);
			thread.setDaemon(true);
			return thread;
		});
		this.interval = interval;
		this.scheduler.scheduleWithFixedDelay(this::renewAll, interval.toNanos(), interval.toNanos(),
				TimeUnit.NANOSECONDS);
	}

	void watch(Lease lease) {
		this.watched.add(lease);
	}

	void unwatch(Lease lease) {
		this.watched.remove(lease);
	}

	int watchedCount() {
		return this.watched.size();
	}

	/**
	 * Renew every watched lease now. Called by the scheduler; never throws.
	 */
	void renewAll() {
		List<Lease> leases = new ArrayList<>(this.watched);
		for (int from = 0; from < leases.size(); from += this.batchSize) {
			List<Lease> batch = leases.subList(from, Math.min(leases.size(), from + this.batchSize));
			try {
				renew(batch);
			}
			catch (RuntimeException ex) {
				logger.warn("Could not renew " + batch.size() + " lock lease(s)", ex);
			}
		}
	}

	private void renew(List<Lease> batch) {
		long requestedAt = System.nanoTime();
		List<RenewalOutcome> outcomes = this.store
			.renew(batch.stream().map((lease) -> new Renewal(lease.key(), lease.token)).toList(), this.lease);
		int failed = 0;
		for (int i = 0; i < batch.size(); i++) {
			Lease lease = batch.get(i);
			switch (outcomes.get(i)) {
				case RENEWED -> lease.renewed(requestedAt);
				case LOST -> {
					if (this.watched.remove(lease)) {
						lease.lost(TAKEN);
						logger.warn("Lock '" + lease.key() + "' was lost: its key expired or has another owner");
					}
				}
				case FAILED -> failed++;
			}
		}
		if (failed > 0) {
			logger.warn("Could not renew " + failed + " lock lease(s); retrying in " + this.interval.toMillis()
					+ " ms unless the lease runs out first");
		}
	}

	@Override
	public void close() {
		this.scheduler.shutdownNow();
		this.watched.clear();
	}

}
