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

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.LockAcquisitionException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Exclusion, ownership and reentrancy: one holder at a time across clients, reentrancy,
 * owner-checked unlock, increasing fencing tokens, call-owned holds and the callback
 * form.
 *
 * @author distlock
 */
abstract class ExclusionContract extends ContractGroup {

	ExclusionContract(LockStoreContractTests suite) {
		super(suite);
	}

	@Test
	void anotherClientCannotAcquireAHeldLock() throws Exception {
		String key = uniqueKey("held");
		LockHandle mine = newClient().obtain(key);
		LockHandle theirs = newClient().obtain(key);
		assertThat(mine.tryLock(Duration.ZERO)).isTrue();
		assertThat(isLocked(key)).isTrue();
		assertThat(theirs.tryLock(Duration.ZERO)).isFalse();
		mine.unlock();
		assertThat(isLocked(key)).isFalse();
		assertThat(theirs.tryLock(Duration.ZERO)).isTrue();
		theirs.unlock();
	}

	@Test
	void reentersAndReleasesOnTheLastUnlock() throws Exception {
		DefaultLockClient client = newClient();
		String key = uniqueKey("reentrant");
		LockHandle lock = client.obtain(key);
		assertThat(lock.tryLock(Duration.ZERO)).isTrue();
		long fence = lock.fencingToken();
		assertThat(client.obtain(key).tryLock(Duration.ZERO)).isTrue();
		assertThat(lock.tryLock(Duration.ofSeconds(1), Duration.ofSeconds(5))).isTrue();
		assertThat(lock.getHoldCount()).isEqualTo(3);
		assertThat(lock.fencingToken()).isEqualTo(fence);
		lock.unlock();
		lock.unlock();
		assertThat(isLocked(key)).isTrue();
		assertThat(lock.isHeldByCurrentThread()).isTrue();
		lock.unlock();
		assertThat(isLocked(key)).isFalse();
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		assertThat(lock.getHoldCount()).isZero();
	}

	@Test
	void rejectsUnlockByAnotherThreadAndKeepsTheKey() throws Exception {
		LockHandle lock = newClient().obtain(uniqueKey("owned"));
		lock.lock();
		try {
			CompletableFuture<Void> foreignUnlock = CompletableFuture.runAsync(lock::unlock);
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> foreignUnlock.get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(IllegalMonitorStateException.class);
			assertThat(isLocked(lock.key())).isTrue();
			assertThat(lock.isHeldByCurrentThread()).isTrue();
		}
		finally {
			lock.unlock();
		}
	}

	@Test
	void rejectsUnlockOfALockNeverAcquired() {
		LockHandle lock = newClient().obtain(uniqueKey("free"));
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::unlock)
			.withMessageContaining(lock.key());
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::fencingToken);
	}

	@Test
	void fencingTokensStrictlyIncreaseAcrossClients() throws Exception {
		String key = uniqueKey("fence");
		List<LockClient> pair = List.of(newClient(), newClient());
		List<Long> fences = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			LockClient client = pair.get(i % 2);
			if (i % 3 == 0) {
				try (LockHold hold = client.acquire(key, Duration.ofSeconds(5), null)) {
					fences.add(hold.fencingToken());
				}
			}
			else {
				LockHandle lock = client.obtain(key);
				assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
				fences.add(lock.fencingToken());
				lock.unlock();
			}
		}
		assertThat(fences).isSorted().doesNotHaveDuplicates();
	}

	@Test
	void clientsNeverOverlapOnOneKeyAndFencingNeverRegresses() throws Exception {
		String key = uniqueKey("counter");
		List<DefaultLockClient> pair = List.of(newClient(), newClient());
		int threadsPerClient = 3;
		int rounds = 60;
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger regressions = new AtomicInteger();
		long[] lastFence = new long[1];
		int[] counter = new int[1];
		ExecutorService pool = Executors.newFixedThreadPool(pair.size() * threadsPerClient);
		List<Future<?>> workers = new ArrayList<>();
		for (DefaultLockClient client : pair) {
			for (int t = 0; t < threadsPerClient; t++) {
				boolean callOwned = t % 2 == 0;
				workers.add(pool.submit(() -> {
					for (int i = 0; i < rounds; i++) {
						if (callOwned) {
							LockHold hold = client.acquireAsync(key, Duration.ofSeconds(60), null)
								.toCompletableFuture()
								.get(60, TimeUnit.SECONDS);
							try {
								criticalSection(hold.fencingToken(), inside, overlaps, regressions, lastFence, counter);
							}
							finally {
								hold.release();
							}
						}
						else {
							LockHandle lock = client.obtain(key);
							assertThat(lock.tryLock(Duration.ofSeconds(60))).isTrue();
							try {
								criticalSection(lock.fencingToken(), inside, overlaps, regressions, lastFence, counter);
							}
							finally {
								lock.unlock();
							}
						}
					}
					return null;
				}));
			}
		}
		for (Future<?> worker : workers) {
			worker.get(3, TimeUnit.MINUTES);
		}
		pool.shutdown();
		assertThat(overlaps).hasValue(0);
		assertThat(regressions).hasValue(0);
		assertThat(counter[0]).isEqualTo(pair.size() * threadsPerClient * rounds);
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void aHoldIsReleasedFromAnotherThreadAndOnlyOnce() throws Exception {
		String key = uniqueKey("hold");
		LockClient client = newClient();
		LockHold hold = client.acquire(key, Duration.ZERO, null);
		assertThat(hold.isValid()).isTrue();
		assertThat(isLocked(key)).isTrue();
		CompletableFuture.runAsync(hold::release).get(10, TimeUnit.SECONDS);
		assertThat(isLocked(key)).isFalse();
		assertThat(hold.isValid()).isFalse();
		assertThatIllegalStateException().isThrownBy(hold::release).withMessageContaining("already released");
		hold.close();
	}

	@Test
	void aHoldIsReleasedAsynchronouslyWithItsOutcomeInTheStage() throws Exception {
		String key = uniqueKey("hold-async-release");
		LockClient client = newClient();
		LockHold hold = client.acquire(key, Duration.ZERO, null);
		hold.releaseAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);
		assertThat(isLocked(key)).isFalse();
		assertThat(hold.isValid()).isFalse();
		CompletableFuture<Void> again = hold.releaseAsync().toCompletableFuture();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> again.get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(IllegalStateException.class);
	}

	@Test
	void aHoldExcludesThreadHandlesOfTheSameClient() throws Exception {
		String key = uniqueKey("mixed");
		DefaultLockClient client = newClient();
		try (LockHold hold = client.acquire(key, Duration.ZERO, null)) {
			assertThat(hold.key()).isEqualTo(key);
			assertThat(client.obtain(key).tryLock(Duration.ofMillis(50))).isFalse();
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> client.acquire(key, Duration.ZERO, null));
		}
		LockHandle lock = client.obtain(key);
		assertThat(lock.tryLock(Duration.ZERO)).isTrue();
		lock.unlock();
	}

	@Test
	void executeRunsTheCallbackUnderTheLockAndReturnsItsResult() {
		DefaultLockClient client = newClient();
		String key = uniqueKey("execute");
		String result = client.execute(key, Duration.ZERO, (lock) -> {
			assertThat(lock.isHeldByCurrentThread()).isTrue();
			assertThat(isLocked(key)).isTrue();
			return "done:" + lock.fencingToken();
		});
		assertThat(result).startsWith("done:");
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void executeReleasesWhenTheCallbackThrowsACheckedException() {
		DefaultLockClient client = newClient();
		String key = uniqueKey("execute-fails");
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> client.execute(key, Duration.ZERO, (lock) -> {
			throw new IOException("disk full");
		})).withMessage("disk full");
		assertThat(isLocked(key)).isFalse();
	}

	@Test
	void unlockWithTheInterruptFlagSetSucceedsAndKeepsTheFlag() throws Exception {
		String key = uniqueKey("interrupted-unlock");
		DefaultLockClient client = newClient();
		CompletableFuture<Boolean> flagAfterUnlock = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				LockHandle lock = client.obtain(key);
				lock.lock();
				LockHold hold = client.acquire(key + ":hold", Duration.ZERO, null);
				Thread.currentThread().interrupt();
				lock.unlock();
				hold.release();
				flagAfterUnlock.complete(Thread.currentThread().isInterrupted());
			}
			catch (Throwable ex) {
				flagAfterUnlock.completeExceptionally(ex);
			}
		});
		thread.start();
		assertThat(flagAfterUnlock.get(10, TimeUnit.SECONDS)).isTrue();
		assertThat(isLocked(key)).isFalse();
		assertThat(isLocked(key + ":hold")).isFalse();
	}

}
