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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.LockLostException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientListener;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockTracker;
import dev.distlock.LossReason;
import dev.distlock.core.LockHold;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Leases and renewal: the watchdog renews, fixed leases expire, a minimum hold time
 * outlasts the release, a release racing a renewal is no loss.
 *
 * @author distlock
 */
abstract class LeaseContract extends ContractGroup {

	LeaseContract(LockStoreContractTests suite) {
		super(suite);
	}

	@Test
	void watchdogKeepsALockForThreeLeasesWhileAFixedLeaseExpires() throws Exception {
		assumeFixedLeases();
		DefaultLockClient client = newClient(LockClientSettings.defaults().withWatchdogLease(SHORT_LEASE));
		DefaultLockClient other = newClient();
		String renewedKey = uniqueKey("renewed");
		String fixedKey = uniqueKey("fixed");
		LockHandle renewed = client.obtain(renewedKey);
		LockHandle fixed = client.obtain(fixedKey);
		assertThat(renewed.tryLock(Duration.ZERO)).isTrue();
		assertThat(fixed.tryLock(Duration.ZERO, SHORT_LEASE)).isTrue();
		// Nothing may happen to the renewed lock for three leases
		await().pollInSameThread()
			.during(SHORT_LEASE.multipliedBy(3))
			.atMost(SHORT_LEASE.multipliedBy(10))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> renewed.isHeldByCurrentThread() && isLocked(renewedKey));
		waitAtMost(Duration.ofSeconds(10)).until(() -> !isLocked(fixedKey));
		assertThat(renewed.isHeldByCurrentThread()).isTrue();
		assertThat(fixed.isHeldByCurrentThread()).isFalse();
		assertThat(other.obtain(renewedKey).tryLock(Duration.ZERO)).isFalse();
		LockHandle taker = other.obtain(fixedKey);
		assertThat(taker.tryLock(Duration.ZERO)).isTrue();
		renewed.unlock();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(fixed::unlock);
		assertThat(isLocked(fixedKey)).isTrue();
		taker.unlock();
	}

	@Test
	void aMinimumHoldTimeKeepsTheLockAfterTheReleaseUntilItIsOver() throws Exception {
		String key = uniqueKey("hold-at-least");
		DefaultLockClient client = newClient();
		LockHandle lock = client.obtain(key);
		// the hold time counts from before the request, so measure from before it too
		long askedAt = System.nanoTime();
		assertThat(lock.tryLock(Duration.ZERO)).isTrue();
		lock.unlock(Duration.ofMillis(600));
		assertThat(isLocked(key)).isTrue();
		LockHandle other = newClient().obtain(key);
		assertThat(other.tryLock(Duration.ZERO)).isFalse();
		assertThat(other.tryLock(Duration.ofSeconds(5))).isTrue();
		// 600 ms less the store's millisecond rounding
		assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - askedAt)).isGreaterThanOrEqualTo(590);
		other.unlock(Duration.ZERO);
		assertThat(isLocked(key)).as("a minimum hold time already over releases at once").isFalse();
		LockHold hold = client.acquire(key, Duration.ZERO, null);
		hold.release(Duration.ofMillis(300));
		assertThat(isLocked(key)).isTrue();
		assertThat(client.obtain(key).tryLock(Duration.ofSeconds(5))).isTrue();
		client.obtain(key).unlock();
	}

	@Test
	void aReleaseRacingARenewalNeverReportsALoss() throws Exception {
		AtomicInteger losses = new AtomicInteger();
		DefaultLockClient client = newClient(newStore(),
				// Renewal rounds every half second race the churners' releases; the lease
				// is
				// long enough not to run out between two rounds on a loaded machine
				LockClientSettings.defaults().withWatchdogLease(Duration.ofMillis(1500)), new LossCounter(losses));
		int threads = 6;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		List<Future<Integer>> churners = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			String key = uniqueKey("churn-" + t);
			churners.add(pool.submit(() -> {
				LockHandle lock = client.obtain(key);
				long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
				int rounds = 0;
				while (System.nanoTime() - deadline < 0) {
					assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
					try {
						assertThat(lock.tryLock(Duration.ZERO)).as("re-entry in round %d", rounds).isTrue();
						lock.unlock();
					}
					finally {
						lock.unlock();
					}
					rounds++;
				}
				return rounds;
			}));
		}
		for (Future<Integer> churner : churners) {
			assertThat(churner.get(30, TimeUnit.SECONDS)).isGreaterThan(10);
		}
		pool.shutdown();
		assertThat(losses).as("losses reported to a holder").hasValue(0);
	}

	/**
	 * Counts the losses a client reports to the holders of its locks (what the watchdog
	 * logs as "was lost"); a renewal that finds a lock released meanwhile is no loss.
	 */
	private static final class LossCounter implements LockClientListener {

		private final AtomicInteger losses;

		LossCounter(AtomicInteger losses) {
			this.losses = losses;
		}

		@Override
		public LockTracker acquisitionStarted(String name, String key) {
			return new LockTracker() {

				@Override
				public void lost(LossReason reason) {
					LossCounter.this.losses.incrementAndGet();
				}

			};
		}

	}

}
