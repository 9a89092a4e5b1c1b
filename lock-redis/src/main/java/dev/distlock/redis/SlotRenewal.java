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
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import dev.distlock.LockBackendException;
import dev.distlock.store.LockStore.Renewal;
import dev.distlock.store.LockStore.RenewalOutcome;
import dev.distlock.store.support.Stages;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;

/**
 * One renewal of a batch of leases: one script per Cluster hash slot (one for the whole
 * batch on a standalone or Sentinel-managed server), all sent at once, so that on Lettuce
 * they travel pipelined over the connection of each node instead of one round trip after
 * another. A slot whose script failed reports its renewals as
 * {@link RenewalOutcome#FAILED}; the stage fails only when every slot failed.
 *
 * @author distlock
 * @since 0.1.0
 */
final class SlotRenewal {

	private static final Log logger = LogFactory.getLog(SlotRenewal.class);

	private final RedisLockCommands commands;

	private final List<Renewal> renewals;

	private final Duration lease;

	private final boolean cluster;

	private final Function<String, LockKeys> keys;

	SlotRenewal(RedisLockCommands commands, List<Renewal> renewals, Duration lease, boolean cluster,
			Function<String, LockKeys> keys) {
		this.commands = commands;
		this.renewals = renewals;
		this.lease = lease;
		this.cluster = cluster;
		this.keys = keys;
	}

	CompletableFuture<List<RenewalOutcome>> run() {
		if (this.renewals.isEmpty()) {
			return CompletableFuture.completedFuture(List.of());
		}
		Map<Integer, List<Integer>> groups;
		List<LockKeys> lockKeys;
		try {
			lockKeys = this.renewals.stream().map((renewal) -> this.keys.apply(renewal.key())).toList();
			groups = slotGroups(lockKeys);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(new LockBackendException(this.renewals.get(0).key(), "renew", ex));
		}
		List<RenewalOutcome> outcomes = Collections
			.synchronizedList(new ArrayList<>(Collections.nCopies(this.renewals.size(), RenewalOutcome.FAILED)));
		AtomicInteger failedGroups = new AtomicInteger();
		AtomicReference<@Nullable Throwable> failure = new AtomicReference<>();
		List<CompletableFuture<Void>> sent = new ArrayList<>(groups.size());
		for (List<Integer> group : groups.values()) {
			sent.add(this.commands
				.renew(group.stream().map(lockKeys::get).toList(),
						group.stream().map((i) -> this.renewals.get(i).token()).toList(), this.lease)
				.handle((renewed, ex) -> {
					if (ex != null) {
						logger.debug("Could not renew " + group.size() + " lock lease(s)", ex);
						failure.set(Stages.unwrap(ex));
						failedGroups.incrementAndGet();
						return null;
					}
					for (int j = 0; j < group.size(); j++) {
						outcomes.set(group.get(j), renewed.get(j) ? RenewalOutcome.RENEWED : RenewalOutcome.LOST);
					}
					return null;
				}));
		}
		return CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).thenApply((done) -> {
			Throwable cause = failure.get();
			if (cause != null && failedGroups.get() == groups.size()) {
				throw (cause instanceof LockBackendException backend) ? backend
						: new LockBackendException(this.renewals.get(0).key(), "renew", cause);
			}
			return List.copyOf(outcomes);
		});
	}

	private Map<Integer, List<Integer>> slotGroups(List<LockKeys> lockKeys) {
		Map<Integer, List<Integer>> groups = new LinkedHashMap<>();
		for (int i = 0; i < lockKeys.size(); i++) {
			int slot = this.cluster ? ClusterSlotHashUtil.calculateSlot(lockKeys.get(i).lockKey()) : 0;
			groups.computeIfAbsent(slot, (s) -> new ArrayList<>()).add(i);
		}
		return groups;
	}

}
