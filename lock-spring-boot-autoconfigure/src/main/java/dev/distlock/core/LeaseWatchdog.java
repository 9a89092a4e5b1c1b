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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.ToIntFunction;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;

/**
 * Renews the leases of every watchdog-mode lock one client holds, from one scheduler
 * thread, every third of the lease. Leases are renewed in batches, one owner-checked
 * script per batch, so the number of round trips grows with the number of batches, not
 * with the number of locks. A lease found under another owner is marked lost and no
 * longer renewed; a lost lease is never re-created.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LeaseWatchdog implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LeaseWatchdog.class);

	private final RedisLockCommands commands;

	private final long leaseMillis;

	private final int batchSize;

	private final BooleanSupplier clusterDetector;

	private @Nullable ToIntFunction<String> batchGroup;

	private final Set<Renewal> watched = ConcurrentHashMap.newKeySet();

	private final ScheduledExecutorService scheduler;

	/**
	 * Create and start a watchdog.
	 * @param commands the Redis commands
	 * @param lease the lease to renew to
	 * @param batchSize leases per renewal script
	 * @param clusterDetector tells, on the first renewal, whether Redis runs as a
	 * cluster, in which case a batch holds keys of one hash slot only
	 * @param threadName the scheduler thread's name
	 */
	LeaseWatchdog(RedisLockCommands commands, Duration lease, int batchSize, BooleanSupplier clusterDetector,
			String threadName) {
		this.commands = commands;
		this.leaseMillis = lease.toMillis();
		this.batchSize = batchSize;
		this.clusterDetector = clusterDetector;
		this.scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, threadName);
			thread.setDaemon(true);
			return thread;
		});
		long interval = lease.dividedBy(3).toNanos();
		this.scheduler.scheduleWithFixedDelay(this::renewAll, interval, interval, TimeUnit.NANOSECONDS);
	}

	void watch(LockEntry entry, String token) {
		this.watched.add(new Renewal(entry, token));
	}

	void unwatch(LockEntry entry, String token) {
		this.watched.remove(new Renewal(entry, token));
	}

	int watchedCount() {
		return this.watched.size();
	}

	/**
	 * Renew every watched lease now. Called by the scheduler; never throws.
	 */
	void renewAll() {
		List<List<Renewal>> batches;
		try {
			batches = batches();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not reach Redis to renew lock leases", ex);
			return;
		}
		for (List<Renewal> batch : batches) {
			try {
				renew(batch);
			}
			catch (RuntimeException ex) {
				logger.warn("Could not renew " + batch.size() + " lock lease(s); retrying in " + (this.leaseMillis / 3)
						+ " ms unless the lease runs out first", ex);
			}
		}
	}

	private List<List<Renewal>> batches() {
		if (this.watched.isEmpty()) {
			return List.of();
		}
		ToIntFunction<String> batchGroup = batchGroup();
		Map<Integer, List<List<Renewal>>> groups = new LinkedHashMap<>();
		for (Renewal renewal : this.watched) {
			List<List<Renewal>> group = groups.computeIfAbsent(batchGroup.applyAsInt(renewal.entry().keys.lockKey()),
					(slot) -> new ArrayList<>());
			if (group.isEmpty() || group.get(group.size() - 1).size() == this.batchSize) {
				group.add(new ArrayList<>(Math.min(this.batchSize, this.watched.size())));
			}
			group.get(group.size() - 1).add(renewal);
		}
		return groups.values().stream().flatMap(List::stream).toList();
	}

	private ToIntFunction<String> batchGroup() {
		ToIntFunction<String> batchGroup = this.batchGroup;
		if (batchGroup == null) {
			batchGroup = this.clusterDetector.getAsBoolean() ? ClusterSlotHashUtil::calculateSlot : (key) -> 0;
			this.batchGroup = batchGroup;
		}
		return batchGroup;
	}

	private void renew(List<Renewal> batch) {
		long started = System.nanoTime();
		List<Boolean> renewed = this.commands.renew(batch.stream().map((r) -> r.entry().keys.lockKey()).toList(),
				batch.stream().map(Renewal::token).toList(), this.leaseMillis);
		long leaseDeadline = started + TimeUnit.MILLISECONDS.toNanos(this.leaseMillis);
		for (int i = 0; i < batch.size(); i++) {
			Renewal renewal = batch.get(i);
			if (renewed.get(i)) {
				renewal.entry().renewed(renewal.token(), leaseDeadline);
			}
			else {
				renewal.entry().lost(renewal.token(), "the watchdog found the key expired or owned by another client");
				this.watched.remove(renewal);
				logger
					.warn("Lock '" + renewal.entry().keys.name() + "' was lost: its key expired or has another owner");
			}
		}
	}

	@Override
	public void close() {
		this.scheduler.shutdownNow();
		this.watched.clear();
	}

	private record Renewal(LockEntry entry, String token) {

	}

}
