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

import dev.distlock.core.ForcedRelease;
import dev.distlock.core.LockState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import dev.distlock.LockAcquisitionException;
import dev.distlock.LockBackendException;
import dev.distlock.LockLostException;
import dev.distlock.memory.ControllableInMemoryLockStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What a {@link DefaultLockClient} reports to its {@link LockClientListener}: outcomes
 * with the acquisition's name, holds, losses with their reason, renewal batches, the
 * watchdog's status, snapshots of held locks and force release. On the in-memory store.
 *
 * @author distlock
 */
class LockClientListenerTests {

	private static final Duration SHORT_LEASE = Duration.ofMillis(600);

	private final ControllableInMemoryLockStore store = new ControllableInMemoryLockStore();

	private final RecordingLockClientListener listener = new RecordingLockClientListener();

	private final List<DefaultLockClient> clients = new ArrayList<>();

	@AfterEach
	void close() {
		this.clients.forEach(DefaultLockClient::close);
	}

	@Test
	void reportsAnAcquiredHoldWithItsNameUntilItIsReleased() throws Exception {
		DefaultLockClient client = client();
		LockHold hold = client.acquire("orders", "order:1", Duration.ZERO, null);
		assertThat(this.listener.events()).containsExactly("orders order:1 started", "orders order:1 acquired");
		hold.release();
		assertThat(this.listener.events()).containsExactly("orders order:1 started", "orders order:1 acquired",
				"orders order:1 released");
	}

	@Test
	void namesAThreadBoundHandleAndDoesNotReportItsReentries() throws Exception {
		DefaultLockClient client = client();
		LockHandle lock = client.obtain("stock", "stock:1");
		lock.acquire(Duration.ZERO, null);
		lock.acquire(Duration.ZERO, null);
		lock.unlock();
		lock.unlock();
		assertThat(this.listener.events()).containsExactly("stock stock:1 started", "stock stock:1 acquired",
				"stock stock:1 released");
	}

	@Test
	void callsAcquisitionsWithoutANameUnnamed() throws Exception {
		DefaultLockClient client = client();
		client.acquire("plain", Duration.ZERO, null).release();
		LockHandle handle = client.obtain("plain");
		handle.lock();
		handle.unlock();
		assertThat(this.listener.events()).filteredOn((event) -> event.endsWith("acquired"))
			.containsExactly("unnamed plain acquired", "unnamed plain acquired");
	}

	@Test
	void reportsABusyLockAfterTheWaitTime() throws Exception {
		DefaultLockClient client = client();
		this.store.takeOver("busy", "someone-else");
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> client.acquire("orders", "busy", Duration.ofMillis(100), null));
		assertThat(this.listener.events()).containsExactly("orders busy started", "orders busy busy");
		assertThat(this.listener.waits()).singleElement()
			.satisfies((waited) -> assertThat(waited).isGreaterThanOrEqualTo(Duration.ofMillis(100)));
	}

	@Test
	void reportsAStoreFailureAsAnError() {
		DefaultLockClient client = client();
		this.store.setUnreachable(true);
		assertThatExceptionOfType(LockBackendException.class)
			.isThrownBy(() -> client.acquire("orders", "down", Duration.ZERO, null));
		assertThat(this.listener.events()).containsExactly("orders down started", "orders down error");
	}

	@Test
	void reportsAnInterruptedWaitAsInterrupted() throws Exception {
		DefaultLockClient client = client();
		this.store.takeOver("held", "someone-else");
		CompletableFuture<Throwable> failure = new CompletableFuture<>();
		Thread waiter = new Thread(() -> {
			try {
				client.acquire("orders", "held", Duration.ofSeconds(30), null);
			}
			catch (Throwable ex) {
				failure.complete(ex);
			}
		});
		waiter.start();
		await().atMost(Duration.ofSeconds(10)).until(() -> client.waitingCount("held") > 0);
		waiter.interrupt();
		assertThat(failure.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
		assertThat(this.listener.events()).containsExactly("orders held started", "orders held interrupted");
	}

	@Test
	void reportsACancelledNonBlockingAcquisitionAsInterrupted() throws Exception {
		DefaultLockClient client = client();
		LockHold holder = client.acquire("orders", "queued", Duration.ZERO, null);
		CompletionStage<LockHold> pending = client.acquireAsync("orders", "queued", Duration.ofSeconds(30), null);
		await().atMost(Duration.ofSeconds(10)).until(() -> client.waitingCount("queued") > 0);
		pending.toCompletableFuture().cancel(false);
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.listener.events()).contains("orders queued interrupted"));
		holder.release();
		assertThat(this.listener.events()).containsExactly("orders queued started", "orders queued acquired",
				"orders queued started", "orders queued interrupted", "orders queued released");
	}

	@Test
	void reportsANonBlockingAcquisitionAndItsRelease() throws Exception {
		DefaultLockClient client = client();
		LockHold hold = client.acquireAsync("jobs", "job:1", Duration.ZERO, null)
			.toCompletableFuture()
			.get(5, TimeUnit.SECONDS);
		hold.releaseAsync().toCompletableFuture().get(5, TimeUnit.SECONDS);
		assertThat(this.listener.events()).containsExactly("jobs job:1 started", "jobs job:1 acquired",
				"jobs job:1 released");
	}

	@Test
	void reportsALockTakenOverWhileHeldOnceAsTaken() throws Exception {
		DefaultLockClient client = client(LockClientSettings.defaults().withWatchdogLease(SHORT_LEASE));
		LockHold hold = client.acquire("orders", "taken", Duration.ZERO, null);
		this.store.takeOver("taken", "someone-else");
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.listener.events()).contains("orders taken lost taken"));
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release);
		assertThat(this.listener.events()).containsExactly("orders taken started", "orders taken acquired",
				"orders taken lost taken", "orders taken released with LockLostException");
		assertThat(this.listener.batches()).extracting(RenewalBatch::outcome).contains(RenewalBatch.Outcome.LOST);
	}

	@Test
	void reportsReadLocksLikeWriteLocksAndAReadLockTakenOverAsTaken() throws Exception {
		DefaultLockClient client = client(LockClientSettings.defaults().withWatchdogLease(SHORT_LEASE));
		LockHandle reader = client.readLocks().obtain("prices", "price:1");
		reader.acquire(Duration.ZERO, null);
		reader.acquire(Duration.ZERO, null);
		reader.unlock();
		reader.unlock();
		LockHold hold = client.readLocks().acquire("prices", "price:2", Duration.ZERO, null);
		this.store.takeOver("price:2", "someone-else");
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.listener.events()).contains("prices price:2 lost taken"));
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release);
		assertThat(this.listener.events()).containsExactly("prices price:1 started", "prices price:1 acquired",
				"prices price:1 released", "prices price:2 started", "prices price:2 acquired",
				"prices price:2 lost taken", "prices price:2 released with LockLostException");
	}

	@Test
	void reportsAFixedLeaseThatRanOutAsExpiredAtItsRelease() throws Exception {
		DefaultLockClient client = client();
		LockHold hold = client.acquire("reports", "nightly", Duration.ZERO, Duration.ofMillis(50));
		Thread.sleep(150);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release);
		assertThat(this.listener.events()).containsExactly("reports nightly started", "reports nightly acquired",
				"reports nightly lost expired", "reports nightly released with LockLostException");
	}

	@Test
	void reportsALeaseThatRanOutWhileTheStoreWasDownAsBackend() throws Exception {
		DefaultLockClient client = client(LockClientSettings.defaults().withWatchdogLease(SHORT_LEASE));
		LockHold hold = client.acquire("orders", "outage", Duration.ZERO, null);
		this.store.setUnreachable(true);
		// Reported when its local lease runs out, without a call on the hold
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.listener.events()).containsExactly("orders outage started",
					"orders outage acquired", "orders outage lost backend"));
		assertThat(hold.isValid()).isFalse();
		assertThat(client.renewedLeaseCount()).as("no longer renewed").isZero();
		assertThatExceptionOfType(LockBackendException.class).isThrownBy(hold::release);
		this.store.setUnreachable(false);
		assertThat(this.listener.events()).containsExactly("orders outage started", "orders outage acquired",
				"orders outage lost backend", "orders outage released with LockBackendException");
		LockHold again = client.acquire("orders", "outage2", Duration.ZERO, null);
		this.store.expire("outage2");
		this.store.setUnreachable(true);
		await().atMost(Duration.ofSeconds(5)).until(() -> !again.isValid());
		this.store.setUnreachable(false);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(again::release);
		assertThat(this.listener.events()).contains("orders outage2 lost backend");
	}

	@Test
	void reportsLocksHeldWhenTheClientClosesAsClosedAndEndsTheirHold() throws Exception {
		DefaultLockClient client = client();
		LockHold hold = client.acquire("orders", "closing", Duration.ZERO, null);
		client.close();
		// close() lets the listener thread finish the events reported, without waiting
		// for it
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.listener.events()).containsExactly("orders closing started",
					"orders closing acquired", "orders closing lost closed", "orders closing released"));
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release);
		assertThat(this.listener.events()).hasSize(4);
	}

	@Test
	void reportsEveryRenewalBatchAndTheWatchdogsStatus() throws Exception {
		DefaultLockClient client = client(LockClientSettings.defaults().withWatchdogLease(SHORT_LEASE));
		assertThat(client.watchdogStatus().lastBatch()).isNull();
		LockHold hold = client.acquire("orders", "renewed", Duration.ZERO, null);
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.listener.batches().isEmpty());
		RenewalBatch first = this.listener.batches().get(0);
		assertThat(first.outcome()).isEqualTo(RenewalBatch.Outcome.RENEWED);
		assertThat(first.leases()).isOne();
		assertThat(first.renewed()).isOne();
		this.store.setUnreachable(true);
		await().atMost(Duration.ofSeconds(5)).until(() -> client.watchdogStatus().atRisk());
		WatchdogStatus failing = client.watchdogStatus();
		assertThat(failing.lastFailure()).isNotNull();
		assertThat(failing.lastFailure().outcome()).isEqualTo(RenewalBatch.Outcome.ERROR);
		assertThat(failing.lastFailure().describe()).contains("0 of 1 lease(s) renewed");
		this.store.setUnreachable(false);
		await().atMost(Duration.ofSeconds(5)).until(() -> !client.watchdogStatus().failing());
		assertThat(hold.isValid()).isTrue();
		hold.release();
	}

	@Test
	void aListenerThatThrowsDoesNotChangeTheOutcome() throws Exception {
		DefaultLockClient client = register(
				new DefaultLockClient(this.store, LockClientSettings.defaults(), new LockClientListener() {

					@Override
					public LockTracker acquisitionStarted(String name, String key) {
						throw new IllegalStateException("broken listener");
					}

				}));
		LockHold hold = client.acquire("orders", "robust", Duration.ZERO, null);
		assertThat(hold.isValid()).isTrue();
		hold.release();
	}

	@Test
	void compositeListenerTellsEveryListener() throws Exception {
		RecordingLockClientListener second = new RecordingLockClientListener();
		DefaultLockClient client = register(new DefaultLockClient(this.store, LockClientSettings.defaults(),
				LockClientListener.composite(List.of(this.listener, second))));
		client.acquire("orders", "both", Duration.ZERO, null).release();
		assertThat(second.events()).isEqualTo(this.listener.events()).hasSize(3);
	}

	@Test
	void listsHeldLocksWithNameThreadLeaseAndWaiters() throws Exception {
		DefaultLockClient client = client();
		LockHandle thread = client.obtain("stock", "stock:1");
		thread.acquire(Duration.ZERO, null);
		LockHold call = client.acquire("reports", "nightly", Duration.ZERO, Duration.ofSeconds(20));
		CompletionStage<LockHold> queued = client.acquireAsync("reports", "nightly", Duration.ofSeconds(30), null);
		await().atMost(Duration.ofSeconds(10)).until(() -> client.waitingCount("nightly") > 0);
		List<HeldLock> held = client.heldLocks();
		assertThat(held).extracting(HeldLock::key).containsExactly("stock:1", "nightly");
		HeldLock first = held.get(0);
		assertThat(first.name()).isEqualTo("stock");
		assertThat(first.thread()).isEqualTo(Thread.currentThread().getName());
		assertThat(first.renewed()).isTrue();
		assertThat(first.leaseRemaining()).isPositive().isLessThanOrEqualTo(LockClientSettings.DEFAULT_WATCHDOG_LEASE);
		assertThat(first.fencingToken()).isPositive();
		assertThat(first.waiting()).isZero();
		HeldLock second = held.get(1);
		assertThat(second.name()).isEqualTo("reports");
		assertThat(second.thread()).isNull();
		assertThat(second.renewed()).isFalse();
		assertThat(second.leaseRemaining()).isLessThanOrEqualTo(Duration.ofSeconds(20));
		assertThat(second.waiting()).isOne();
		assertThat(client.heldCount()).isEqualTo(2);
		thread.unlock();
		call.release();
		queued.toCompletableFuture().get(5, TimeUnit.SECONDS).release();
		assertThat(client.heldLocks()).isEmpty();
	}

	@Test
	void inspectsAKeyInTheStore() throws Exception {
		DefaultLockClient client = client();
		DefaultLockClient other = client();
		LockHold hold = client.acquire("orders", "inspected", Duration.ZERO, Duration.ofSeconds(20));
		LockState mine = client.inspect("inspected");
		assertThat(mine.held()).isTrue();
		assertThat(mine.heldByThisClient()).isTrue();
		assertThat(mine.holderClientId()).isEqualTo(client.clientId());
		assertThat(mine.ttl()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(20));
		assertThat(mine.lastFencingToken()).isEqualTo(hold.fencingToken());
		assertThat(mine.local()).isNotNull();
		LockState theirs = other.inspect("inspected");
		assertThat(theirs.held()).isTrue();
		assertThat(theirs.heldByThisClient()).isFalse();
		assertThat(theirs.holderClientId()).isEqualTo(client.clientId());
		assertThat(theirs.local()).isNull();
		hold.release();
		LockState free = other.inspect("inspected");
		assertThat(free.held()).isFalse();
		assertThat(free.ttl()).isNull();
		assertThat(free.holderClientId()).isNull();
	}

	@Test
	void forceReleaseOfItsOwnHoldIsReportedAsForcedAndItsHolderLearnsOfTheLoss() throws Exception {
		DefaultLockClient client = client();
		LockHold hold = client.acquire("orders", "stuck", Duration.ZERO, null);
		ForcedRelease released = client.forceRelease("stuck");
		assertThat(released.released()).isTrue();
		assertThat(released.heldByThisClient()).isTrue();
		assertThat(released.holderClientId()).isEqualTo(client.clientId());
		assertThat(this.store.isLocked("stuck")).isFalse();
		assertThat(hold.isValid()).isFalse();
		assertThat(client.renewedLeaseCount()).isZero();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release)
			.withMessageContaining("force-released");
		assertThat(this.listener.events()).containsExactly("orders stuck started", "orders stuck acquired",
				"orders stuck lost forced", "orders stuck released with LockLostException");
	}

	@Test
	void forceReleaseOfAnotherClientsLockWakesItsWaiters() throws Exception {
		DefaultLockClient holder = client();
		DefaultLockClient operator = client();
		LockHold hold = holder.acquire("orders", "other", Duration.ZERO, null);
		CompletionStage<LockHold> waiter = operator.acquireAsync("orders", "other", Duration.ofSeconds(30), null);
		await().atMost(Duration.ofSeconds(10)).until(() -> operator.waitingCount("other") > 0);
		ForcedRelease released = operator.forceRelease("other");
		assertThat(released.released()).isTrue();
		assertThat(released.heldByThisClient()).isFalse();
		assertThat(released.holderClientId()).isEqualTo(holder.clientId());
		waiter.toCompletableFuture().get(5, TimeUnit.SECONDS).release();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release);
		assertThat(operator.forceRelease("other").released()).isFalse();
	}

	private DefaultLockClient client() {
		return client(LockClientSettings.defaults());
	}

	private DefaultLockClient client(LockClientSettings settings) {
		return register(new DefaultLockClient(this.store, settings, this.listener));
	}

	private DefaultLockClient register(DefaultLockClient client) {
		this.clients.add(client);
		return client;
	}

}
