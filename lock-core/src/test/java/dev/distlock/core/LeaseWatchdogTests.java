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

import dev.distlock.store.ForwardingLockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.memory.InMemoryLockStore;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The watchdog renews each renewal group by itself: one batch of each group in turn, a
 * group whose store node stops answering delays no other group, and a renewal request
 * that fails, throws or answers nonsense never stops later rounds.
 *
 * @author distlock
 */
class LeaseWatchdogTests {

	private static final Duration LEASE = Duration.ofMillis(600);

	private final GroupedStore store = new GroupedStore();

	private final RecordingLockClientListener listener = new RecordingLockClientListener();

	private final DefaultLockClient client = new DefaultLockClient(this.store,
			LockClientSettings.defaults().withWatchdogLease(LEASE), this.listener);

	@AfterEach
	void close() {
		this.client.close();
	}

	@Test
	void aGroupThatNeverAnswersDelaysNoOtherGroupsRenewals() throws Exception {
		List<LockHold> healthy = acquire("healthy", 20);
		List<LockHold> stalled = acquire("stalled", 20);
		this.store.stalled = "stalled";
		// Nothing may be lost on the healthy group meanwhile: five lease periods
		Thread.sleep(LEASE.toMillis() * 5);
		assertThat(healthy).allSatisfy((hold) -> assertThat(hold.isValid()).isTrue());
		assertThat(stalled).allSatisfy((hold) -> assertThat(hold.isValid()).isFalse());
		assertThat(this.store.stalledRequests.get()).as("no request piles on a group whose request is in flight")
			.isOne();
		assertThat(this.listener.batches()).anySatisfy((batch) -> assertThat(batch.failure())
			.hasMessageContaining("did not answer a renewal within the renewal interval"));
		healthy.forEach(LockHold::release);
	}

	@Test
	void aRoundSendsOneBatchOfEachGroupInTurnSoThatEveryNodeWorksFromTheRoundsStart() throws Exception {
		// Issue 38: sent group after group, the batches of the last node waited for every
		// other node's requests to be built, and a Cluster's round took the sum of its
		// nodes' times
		try (DefaultLockClient batched = new DefaultLockClient(this.store,
				LockClientSettings.defaults().withWatchdogLease(Duration.ofSeconds(3)).withRenewalBatchSize(2),
				this.listener)) {
			List<LockHold> holds = new ArrayList<>();
			for (String group : List.of("a", "b", "c")) {
				for (int i = 0; i < 6; i++) {
					holds.add(batched.acquire(group + ":" + i, Duration.ZERO, null));
				}
			}
			this.store.renewedGroups.clear();
			Awaitility.await("two rounds of three batches per group")
				.atMost(Duration.ofSeconds(10))
				.until(() -> this.store.renewedGroups.size() >= 18);
			List<Object> groups = List.copyOf(this.store.renewedGroups);
			for (int i = 1; i < groups.size(); i++) {
				assertThat(groups.get(i)).as("request %s of %s", i, groups).isNotEqualTo(groups.get(i - 1));
			}
			assertThat(groups.subList(0, 3)).containsExactlyInAnyOrder("a", "b", "c");
			holds.forEach(LockHold::release);
		}
	}

	@Test
	void renewalGoesOnAfterBatchesThatFailThrowOrAnswerTheWrongNumberOfOutcomes() throws Exception {
		// Three groups, so that the first round's three requests fail in the three ways
		this.store.failures.set(3);
		List<LockHold> holds = new ArrayList<>();
		for (String group : List.of("thrown", "failed", "malformed")) {
			holds.addAll(acquire(group, 1));
		}
		Awaitility.await("the failing requests and then renewals")
			.atMost(Duration.ofSeconds(10))
			.until(() -> this.listener.batches()
				.stream()
				.filter((batch) -> batch.outcome() == RenewalBatch.Outcome.RENEWED)
				.count() >= 5);
		assertThat(this.listener.batches()).filteredOn((batch) -> batch.outcome() == RenewalBatch.Outcome.ERROR)
			.hasSizeGreaterThanOrEqualTo(3);
		assertThat(holds).allSatisfy((hold) -> assertThat(hold.isValid()).isTrue());
		assertThat(this.client.watchdogStatus().failing()).isFalse();
		holds.forEach(LockHold::release);
	}

	private List<LockHold> acquire(String group, int count) throws InterruptedException {
		List<LockHold> holds = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			holds.add(this.client.acquire(group + ":" + i, Duration.ZERO, null));
		}
		return holds;
	}

	/**
	 * An in-memory store whose renewal group is the key's prefix, that can leave one
	 * group's renewals unanswered, and fail the next renewals in three ways (a failed
	 * stage, an exception, a wrong number of outcomes).
	 */
	private static final class GroupedStore extends ForwardingLockStore {

		private final AtomicInteger failures = new AtomicInteger();

		private final AtomicInteger stalledRequests = new AtomicInteger();

		private volatile String stalled = "";

		private final List<Object> renewedGroups = new CopyOnWriteArrayList<>();

		GroupedStore() {
			super(new InMemoryLockStore());
		}

		@Override
		public Object renewalGroup(String key) {
			return key.substring(0, key.indexOf(':'));
		}

		@Override
		public CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
			this.renewedGroups.add(renewalGroup(renewals.get(0).key()));
			if (renewalGroup(renewals.get(0).key()).equals(this.stalled)) {
				this.stalledRequests.incrementAndGet();
				return new CompletableFuture<>();
			}
			int failure = this.failures.getAndDecrement();
			if (failure > 0) {
				switch (failure % 3) {
					case 0 -> throw new IllegalStateException("renewal refused");
					case 1 -> {
						return CompletableFuture.failedFuture(new IllegalStateException("renewal failed"));
					}
					default -> {
						return CompletableFuture.completedFuture(List.of());
					}
				}
			}
			return super.renew(renewals, lease);
		}

	}

}
