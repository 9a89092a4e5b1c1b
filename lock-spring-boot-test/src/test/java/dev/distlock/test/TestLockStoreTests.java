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

package dev.distlock.test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.LockBackendException;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.test.TestLockStore.PausedReplies;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link TestLockStore}'s controls: the pause of its replies, the outage, and
 * the state it reads and changes as another owner or the end of a lease would.
 *
 * @author distlock
 */
class TestLockStoreTests {

	private static final Duration LEASE = Duration.ofSeconds(30);

	private final TestLockStore store = new TestLockStore();

	@Test
	void aPausedRequestIsExecutedAtOnceAndItsStageCompletesOnResume() throws Exception {
		PausedReplies pause = this.store.pauseReplies();
		CompletableFuture<Attempt> first = this.store.tryAcquire("key", "one", LEASE).toCompletableFuture();
		assertThat(first).isNotDone();
		assertThat(this.store.isLocked("key")).as("executed before its reply").isTrue();
		CompletableFuture<Attempt> second = this.store.tryAcquire("key", "two", LEASE).toCompletableFuture();
		assertThat(second).isNotDone();
		assertThat(pause.heldCount()).isEqualTo(2);
		pause.resume();
		assertThat(first.get().acquired()).isTrue();
		assertThat(second.get().acquired()).as("refused: the first request ran first").isFalse();
		assertThat(pause.heldCount()).isZero();
		assertThat(this.store.release("key", "one").toCompletableFuture()).as("no longer paused").isCompleted();
	}

	@Test
	void resumeCompletesTheHeldStagesInTheOrderTheRequestsRan() {
		List<String> completed = new CopyOnWriteArrayList<>();
		PausedReplies pause = this.store.pauseReplies();
		this.store.tryAcquire("a", "one", LEASE).thenRun(() -> completed.add("acquire a"));
		this.store.isOwner("a", "one").thenRun(() -> completed.add("is owner a"));
		this.store.release("a", "one").thenRun(() -> completed.add("release a"));
		assertThat(completed).isEmpty();
		pause.resume();
		assertThat(completed).containsExactly("acquire a", "is owner a", "release a");
	}

	@Test
	void aRequestMadeWhileResumingIsHeldBehindTheEarlierOnesAndCompletedToo() {
		List<String> completed = new CopyOnWriteArrayList<>();
		PausedReplies pause = this.store.pauseReplies();
		this.store.tryAcquire("a", "one", LEASE).thenRun(() -> {
			completed.add("acquire a");
			this.store.release("a", "one").thenRun(() -> completed.add("release a"));
		});
		this.store.tryAcquire("b", "one", LEASE).thenRun(() -> completed.add("acquire b"));
		pause.resume();
		assertThat(completed).containsExactly("acquire a", "acquire b", "release a");
		assertThat(this.store.isLocked("a")).isFalse();
	}

	@Test
	void aFailedRequestHoldsItsFailureUntilResumed() {
		this.store.setUnreachable(true);
		PausedReplies pause = this.store.pauseReplies();
		CompletableFuture<Boolean> release = this.store.release("key", "one").toCompletableFuture();
		assertThat(release).isNotDone();
		pause.close();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(release::get)
			.withCauseInstanceOf(LockBackendException.class);
	}

	@Test
	void releaseNotificationsAreSentWhenTheReleaseRunsNotWhenItsReplyArrives() {
		AtomicInteger heard = new AtomicInteger();
		assertThat(this.store.tryAcquire("key", "one", LEASE).toCompletableFuture().join().acquired()).isTrue();
		this.store.onRelease("key", heard::incrementAndGet);
		PausedReplies pause = this.store.pauseReplies();
		CompletableFuture<Boolean> release = this.store.release("key", "one").toCompletableFuture();
		assertThat(heard).hasValue(1);
		assertThat(release).isNotDone();
		pause.resume();
		assertThat(release.join()).isTrue();
	}

	@Test
	void onePauseAtATime() {
		PausedReplies pause = this.store.pauseReplies();
		assertThatIllegalStateException().isThrownBy(this.store::pauseReplies).withMessageContaining("paused already");
		pause.resume();
		pause.resume();
		this.store.pauseReplies().resume();
	}

	@Test
	void anUnreachableStoreFailsEveryRequestUntilReachableAgain() {
		assertThat(this.store.tryAcquire("key", "one", LEASE).toCompletableFuture().join().acquired()).isTrue();
		this.store.setUnreachable(true);
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> this.store.tryAcquire("other", "one", LEASE).toCompletableFuture().get())
			.withCauseInstanceOf(LockBackendException.class);
		assertThat(this.store.isLocked("key")).as("its locks are kept").isTrue();
		this.store.setUnreachable(false);
		assertThat(this.store.isOwner("key", "one").toCompletableFuture().join()).isTrue();
	}

	@Test
	void aKeyTakenOverIsNoLongerOwnedByItsHolderAndAnExpiredKeyIsFree() {
		assertThat(this.store.tryAcquire("key", "one", LEASE).toCompletableFuture().join().acquired()).isTrue();
		this.store.takeOver("key", "someone-else");
		assertThat(this.store.isOwner("key", "one").toCompletableFuture().join()).isFalse();
		assertThat(this.store.isLocked("key")).isTrue();
		this.store.expire("key");
		assertThat(this.store.isLocked("key")).isFalse();
		assertThat(this.store.tryAcquire("key", "two", LEASE).toCompletableFuture().join().acquired()).isTrue();
	}

	@Test
	void countsTheRegisteredWaitersOfAKey() {
		assertThat(this.store.tryAcquire("key", "one", LEASE).toCompletableFuture().join().acquired()).isTrue();
		this.store.tryAcquire("key", "two", LEASE, "waiter", LEASE).toCompletableFuture().join();
		assertThat(this.store.registeredWaiters("key")).isOne();
		this.store.release("key", "one").toCompletableFuture().join();
		assertThat(this.store.registeredWaiters("key")).as("woken by the release").isZero();
	}

}
