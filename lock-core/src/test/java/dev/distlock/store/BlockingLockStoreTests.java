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

package dev.distlock.store;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.distlock.LockBackendException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link BlockingLockStore} turns blocking operations into the non-blocking SPI: on its
 * own bounded executor (or a marked caller's thread while it has a thread to spare),
 * bounded by the command timeout with queueing included, failing with
 * {@link LockBackendException}, refusing at once when full, and never sending an
 * operation whose stage already failed.
 *
 * @author distlock
 */
class BlockingLockStoreTests {

	private final CountDownLatch unblock = new CountDownLatch(1);

	private final AtomicInteger acquiresRun = new AtomicInteger();

	private final List<String> releases = new CopyOnWriteArrayList<>();

	private final AtomicReference<String> acquireThread = new AtomicReference<>();

	private final AtomicReference<Boolean> gaveUpAfterUnblock = new AtomicReference<>();

	private final AtomicReference<String> ownerCheckThread = new AtomicReference<>();

	private final TestStore store = new TestStore(Duration.ofMillis(200), 1, 1);

	@AfterEach
	void close() {
		this.unblock.countDown();
		this.store.close();
	}

	@Test
	void runsAnUnmarkedCallersOperationOnAThreadOfItsOwn() {
		assertThat(this.store.isOwner("key", "token").toCompletableFuture().join()).isTrue();
		assertThat(this.ownerCheckThread.get()).startsWith("distlock-test-")
			.isNotEqualTo(Thread.currentThread().getName());
	}

	@Test
	void anOperationACallerMarkedAsBlockingForItStartsRunsOnTheCallersThread() {
		CompletableFuture<Boolean> owner = BlockingCaller.run(() -> this.store.isOwner("key", "token"))
			.toCompletableFuture();
		assertThat(owner).isCompletedWithValue(true);
		assertThat(this.ownerCheckThread.get()).isEqualTo(Thread.currentThread().getName());
	}

	@Test
	void aMarkedCallerQueuesForAThreadWhileAsManyOperationsRunAsTheStoreHasThreads() {
		// A command timeout the queued operation cannot reach however loaded the machine
		try (TestStore patient = new TestStore(Duration.ofSeconds(60), 1, 1)) {
			CompletableFuture<LockStore.Attempt> stuck = patient.tryAcquire("stuck", "token", Duration.ofSeconds(30))
				.toCompletableFuture();
			await().atMost(Duration.ofSeconds(5)).until(() -> this.acquiresRun.get() == 1);
			CompletableFuture<Boolean> owner = BlockingCaller.run(() -> patient.isOwner("key", "token"))
				.toCompletableFuture();
			assertThat(owner).isNotDone();
			assertThat(this.ownerCheckThread.get()).isNull();
			this.unblock.countDown();
			await().atMost(Duration.ofSeconds(35)).until(() -> stuck.isDone() && owner.isDone());
			assertThat(owner).isCompletedWithValue(true);
			assertThat(this.ownerCheckThread.get()).startsWith("distlock-test-");
		}
	}

	@Test
	void anOperationRunningOnACallersThreadCountsAsRunningForTheNextMarkedCaller() {
		CompletableFuture<LockStore.Attempt> stuckOnCaller = CompletableFuture.supplyAsync(() -> BlockingCaller
			.run(() -> this.store.tryAcquire("stuck", "token", Duration.ofSeconds(30)).toCompletableFuture().join()));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.acquiresRun.get() == 1);
		assertThat(this.acquireThread.get()).doesNotStartWith("distlock-test-");
		CompletableFuture<Boolean> owner = BlockingCaller.run(() -> this.store.isOwner("key", "token"))
			.toCompletableFuture();
		await().atMost(Duration.ofSeconds(5)).until(owner::isDone);
		assertThat(owner).as("queued for the one thread, and timed out there").isCompletedExceptionally();
		assertThat(this.ownerCheckThread.get()).as("run nowhere, the caller's thread included").isNull();
		this.unblock.countDown();
		await().atMost(Duration.ofSeconds(35)).until(stuckOnCaller::isDone);
		assertThat(stuckOnCaller).isCompletedExceptionally();
		CompletableFuture<Boolean> next = BlockingCaller.run(() -> this.store.isOwner("key", "token"))
			.toCompletableFuture();
		assertThat(next).isCompletedWithValue(true);
		assertThat(this.ownerCheckThread.get()).isEqualTo(Thread.currentThread().getName());
	}

	@Test
	void anOperationOfTheExecutorWaitsWhileMarkedCallersRunAsManyAsTheStoreHasThreads() {
		CompletableFuture<LockStore.Attempt> stuckOnCaller = CompletableFuture.supplyAsync(() -> BlockingCaller
			.run(() -> this.store.tryAcquire("stuck", "token", Duration.ofSeconds(30)).toCompletableFuture().join()));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.acquiresRun.get() == 1);
		assertThat(this.acquireThread.get()).doesNotStartWith("distlock-test-");
		CompletableFuture<Boolean> owner = this.store.isOwner("key", "token").toCompletableFuture();
		await().atMost(Duration.ofSeconds(5)).until(owner::isDone);
		assertThat(owner).as("timed out waiting for the caller's operation").isCompletedExceptionally();
		assertThat(this.ownerCheckThread.get()).as("never run beside the caller's operation").isNull();
		this.unblock.countDown();
		await().atMost(Duration.ofSeconds(35)).until(stuckOnCaller::isDone);
		CompletableFuture<Boolean> next = this.store.isOwner("key", "token").toCompletableFuture();
		await().atMost(Duration.ofSeconds(5)).until(next::isDone);
		assertThat(next).isCompletedWithValue(true);
		assertThat(this.ownerCheckThread.get()).startsWith("distlock-test-");
	}

	@Test
	void anOperationThatThrowsFailsWithALockBackendExceptionNamingTheKeyAndTheOperation() {
		CompletableFuture<Boolean> release = this.store.expireAfter("broken", "token", Duration.ofSeconds(1))
			.toCompletableFuture();
		await().atMost(Duration.ofSeconds(5)).until(release::isDone);
		assertThat(release).failsWithin(Duration.ZERO)
			.withThrowableOfType(Exception.class)
			.havingCause()
			.isInstanceOf(LockBackendException.class)
			.withMessageContaining("'broken'")
			.withMessageContaining("shorten");
	}

	@Test
	void anOperationThatDoesNotAnswerWithinTheCommandTimeoutFails() {
		CompletableFuture<LockStore.Attempt> stuck = this.store.tryAcquire("stuck", "token", Duration.ofSeconds(1))
			.toCompletableFuture();
		await().atMost(Duration.ofSeconds(5)).until(stuck::isDone);
		assertThat(stuck).failsWithin(Duration.ZERO)
			.withThrowableOfType(Exception.class)
			.havingCause()
			.isInstanceOf(LockBackendException.class)
			.withMessageContaining("within 200 ms");
	}

	@Test
	void anOperationThatTimedOutWhileQueuedIsNeverSentLate() throws InterruptedException {
		CompletableFuture<LockStore.Attempt> stuck = this.store.tryAcquire("stuck", "token", Duration.ofSeconds(1))
			.toCompletableFuture();
		CompletableFuture<Boolean> queued = this.store.release("queued", "token").toCompletableFuture();
		await().atMost(Duration.ofSeconds(5)).until(() -> stuck.isDone() && queued.isDone());
		assertThat(queued).isCompletedExceptionally();
		this.unblock.countDown();
		// The thread is free again; the release that timed out in the queue must not run
		CompletableFuture<Boolean> next = this.store.isOwner("stuck", "token").toCompletableFuture();
		await().atMost(Duration.ofSeconds(5)).until(next::isDone);
		assertThat(this.releases).noneMatch((release) -> release.startsWith("queued@"));
	}

	@Test
	void aGrantThatCameAfterItsStageFailedIsReleasedOnTheSameThreadRightAfterIt() {
		CompletableFuture<LockStore.Attempt> stuck = this.store.tryAcquire("stuck", "token", Duration.ofSeconds(1))
			.toCompletableFuture();
		await().atMost(Duration.ofSeconds(5)).until(stuck::isDone);
		assertThat(stuck).isCompletedExceptionally();
		assertThat(this.releases).isEmpty();
		this.unblock.countDown();
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.releases.isEmpty());
		assertThat(this.releases).containsExactly("stuck@" + this.acquireThread.get());
	}

	@Test
	void anOperationRunningWhenItsStageFailedIsToldThatItsCallerGaveUp() {
		CompletableFuture<LockStore.Attempt> stuck = this.store.tryAcquire("stuck", "token", Duration.ofSeconds(1))
			.toCompletableFuture();
		await().atMost(Duration.ofSeconds(5)).until(stuck::isDone);
		this.unblock.countDown();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.gaveUpAfterUnblock.get() != null);
		assertThat(this.gaveUpAfterUnblock.get()).isTrue();
		assertThat(BlockingLockStore.callerGaveUp()).isFalse();
	}

	@Test
	void aFullQueueRefusesAtOnceInsteadOfBlockingTheCaller() {
		this.store.tryAcquire("stuck", "token", Duration.ofSeconds(1));
		this.store.release("queued", "token");
		CompletableFuture<Boolean> refused = this.store.release("refused", "token").toCompletableFuture();
		assertThat(refused).isCompletedExceptionally();
		assertThat(refused).failsWithin(Duration.ZERO)
			.withThrowableOfType(Exception.class)
			.havingCause()
			.isInstanceOf(LockBackendException.class)
			.havingCause()
			.isInstanceOf(RejectedExecutionException.class);
	}

	/**
	 * A store whose acquire of "stuck" blocks until the test unblocks it, and whose
	 * shortening throws.
	 */
	private final class TestStore extends BlockingLockStore {

		TestStore(Duration commandTimeout, int threads, int queueCapacity) {
			super("test", commandTimeout, threads, queueCapacity);
		}

		@Override
		protected Attempt doTryAcquire(String key, String token, Duration lease) throws InterruptedException {
			BlockingLockStoreTests.this.acquiresRun.incrementAndGet();
			BlockingLockStoreTests.this.acquireThread.set(Thread.currentThread().getName());
			if (key.equals("stuck")) {
				BlockingLockStoreTests.this.unblock.await(30, TimeUnit.SECONDS);
				BlockingLockStoreTests.this.gaveUpAfterUnblock.set(callerGaveUp());
			}
			return Attempt.granted(1);
		}

		@Override
		protected boolean doRelease(String key, String token) {
			BlockingLockStoreTests.this.releases.add(key + "@" + Thread.currentThread().getName());
			return true;
		}

		@Override
		protected boolean doExpireAfter(String key, String token, Duration remaining) {
			throw new IllegalStateException("the backend refused");
		}

		@Override
		protected List<RenewalOutcome> doRenew(List<Renewal> renewals, Duration lease) {
			return renewals.stream().map((renewal) -> RenewalOutcome.RENEWED).toList();
		}

		@Override
		protected boolean doIsOwner(String key, String token) {
			BlockingLockStoreTests.this.ownerCheckThread.set(Thread.currentThread().getName());
			return true;
		}

		@Override
		public Subscription onRelease(String key, Runnable listener) {
			return () -> {
			};
		}

	}

}
