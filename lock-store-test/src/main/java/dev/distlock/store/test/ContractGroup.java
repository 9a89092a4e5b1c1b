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

package dev.distlock.store.test;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientListener;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHandle;
import dev.distlock.store.LockStore;
import dev.distlock.store.FairQueueExtension;
import dev.distlock.store.LockStoreExtension;
import dev.distlock.store.SessionLeaseExtension;
import org.awaitility.core.ConditionFactory;
import org.opentest4j.TestAbortedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What every group of {@link LockStoreContractTests} shares: the suite's hooks and the
 * helpers to make clients, keys and waits.
 *
 * @author distlock
 */
abstract class ContractGroup {

	static final Duration SHORT_LEASE = LockStoreContractTests.SHORT_LEASE;

	private final LockStoreContractTests suite;

	ContractGroup(LockStoreContractTests suite) {
		this.suite = suite;
	}

	LockStore newStore() {
		return this.suite.newStore();
	}

	boolean isLocked(String key) {
		return this.suite.isLocked(key);
	}

	void takeOver(String key) {
		this.suite.takeOver(key);
	}

	void expire(String key) {
		this.suite.expire(key);
	}

	boolean canBeMadeUnreachable() {
		return this.suite.canBeMadeUnreachable();
	}

	void setUnreachable(boolean unreachable) {
		this.suite.setUnreachable(unreachable);
	}

	boolean supports(Class<? extends LockStoreExtension> extension) {
		return this.suite.supports(extension);
	}

	/**
	 * Skip the test, saying why, unless the store implements {@code extension}.
	 */
	void assumeSupports(Class<? extends LockStoreExtension> extension) {
		assumeTrue(supports(extension), () -> "the store does not implement " + extension.getSimpleName());
	}

	/**
	 * Skip the test, saying why, when the store cannot expire a lock at a fixed time: it
	 * implements {@link SessionLeaseExtension}, and the client refuses fixed leases.
	 */
	void assumeFixedLeases() {
		assumeTrue(!supports(SessionLeaseExtension.class),
				"the store cannot expire a lock at a fixed time (it implements SessionLeaseExtension)");
	}

	/**
	 * Return the {@code type} extension of {@code store}, skipping the test, saying why,
	 * when the store does not implement it.
	 */
	static <E extends LockStoreExtension> E extensionOf(LockStore store, Class<E> type) {
		E extension = store.extension(type);
		if (extension == null) {
			throw new TestAbortedException("the store does not implement " + type.getSimpleName());
		}
		return extension;
	}

	/**
	 * Skip the test, saying why, unless the store's fair wake-ups carry their grants.
	 */
	void assumeFairWakeUpsCarryGrants() {
		assumeSupports(FairQueueExtension.class);
		assumeTrue(this.suite.fairWakeUpsCarryGrants(), "the store's fair wake-ups do not carry grants");
	}

	DefaultLockClient newClient() {
		return newClient(LockClientSettings.defaults());
	}

	DefaultLockClient newClient(LockClientSettings settings) {
		return newClient(newStore(), settings);
	}

	DefaultLockClient newClient(LockStore store, LockClientSettings settings) {
		return newClient(store, settings, LockClientListener.NONE);
	}

	DefaultLockClient newClient(LockStore store, LockClientSettings settings, LockClientListener listener) {
		return this.suite.newClient(store, settings, listener);
	}

	static String uniqueKey(String name) {
		return LockStoreContractTests.uniqueKey(name);
	}

	/**
	 * Acquire {@code key} with a client of its own, as another instance would hold it.
	 */
	LockHandle heldByAnotherClient(String key) throws InterruptedException {
		LockHandle holder = newClient().obtain(key);
		assertThat(holder.tryLock(Duration.ZERO)).as("%s acquired", key).isTrue();
		return holder;
	}

	/**
	 * Wait until {@code client} has a caller waiting for {@code key}.
	 */
	static void awaitWaiting(DefaultLockClient client, String key) {
		waitAtMost(Duration.ofSeconds(10)).alias("somebody waits for " + key).until(() -> client.waitingCount(key) > 0);
	}

	/**
	 * Return an Awaitility condition factory that polls every 5 ms for at most
	 * {@code timeout}.
	 */
	static ConditionFactory waitAtMost(Duration timeout) {
		return await().atMost(timeout).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5));
	}

	static <T> Future<T> inNewThread(Callable<T> task) {
		FutureTask<T> future = new FutureTask<>(task);
		Thread thread = new Thread(future, "contract-test-caller");
		thread.setDaemon(true);
		thread.start();
		return future;
	}

	static <T> T onOtherThread(Callable<T> task) throws Exception {
		ExecutorService thread = Executors.newSingleThreadExecutor();
		try {
			return thread.submit(task).get(30, TimeUnit.SECONDS);
		}
		finally {
			thread.shutdown();
		}
	}

	/**
	 * The body of the overlap cases: counts overlaps and fencing regressions, and
	 * increments a counter that is not atomic, so that an overlap can lose an increment.
	 */
	static void criticalSection(long fence, AtomicInteger inside, AtomicInteger overlaps, AtomicInteger regressions,
			long[] lastFence, int[] counter) {
		if (inside.incrementAndGet() > 1) {
			overlaps.incrementAndGet();
		}
		int read = counter[0];
		Thread.onSpinWait();
		counter[0] = read + 1;
		if (fence <= lastFence[0]) {
			regressions.incrementAndGet();
		}
		lastFence[0] = fence;
		inside.decrementAndGet();
	}

}
