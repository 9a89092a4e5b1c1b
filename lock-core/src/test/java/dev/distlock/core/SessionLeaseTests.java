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

import dev.distlock.LossReason;
import dev.distlock.store.ForwardingLockStore;
import dev.distlock.store.LockStoreExtension;
import dev.distlock.store.SessionLeaseExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.distlock.LockLostException;
import dev.distlock.memory.ControllableInMemoryLockStore;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A client on a store that implements {@link SessionLeaseExtension}: a fixed lease is
 * refused before any request, by every way of asking for one, naming the store, while
 * locks kept by the watchdog work; and a lock the watchdog finds lost carries the store's
 * reason and kind.
 *
 * @author distlock
 */
class SessionLeaseTests {

	private final SessionStore store = new SessionStore();

	private final DefaultLockClient client = new DefaultLockClient(this.store,
			LockClientSettings.defaults().withWatchdogLease(Duration.ofMillis(300)));

	@AfterEach
	void close() {
		this.client.close();
	}

	@Test
	void refusesAFixedLeaseNamingTheStoreAndTheExtension() {
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> this.client.acquire("fixed", Duration.ZERO, Duration.ofSeconds(5)))
			.withMessageContaining("leaseTime = PT5S")
			.withMessageContaining(SessionStore.class.getName())
			.withMessageContaining(SessionLeaseExtension.class.getName());
		assertThat(this.store.acquires).isZero();
	}

	@Test
	void refusesAFixedLeaseOfAsynchronousHandleAndSeveralKeyCalls() {
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> this.client.acquireAsync("fixed-async", Duration.ZERO, Duration.ofSeconds(5)));
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> this.client.obtain("fixed-handle").tryLock(Duration.ZERO, Duration.ofSeconds(5)));
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> this.client.acquireAll(List.of("a", "b"), Duration.ZERO, Duration.ofSeconds(5)));
		assertThat(this.store.acquires).isZero();
	}

	@Test
	void locksWithoutAFixedLeaseAreKeptByTheWatchdog() throws Exception {
		try (LockHold hold = this.client.acquire("watched", Duration.ZERO, null)) {
			assertThat(this.client.renewedLeaseCount()).isOne();
			// Three leases pass: nothing may happen meanwhile, the watchdog keeps the
			// lock
			await().pollDelay(Duration.ofMillis(900)).atMost(Duration.ofSeconds(10)).until(hold::isValid);
			assertThat(this.client.watchdogStatus().lastBatch()).isNotNull();
		}
	}

	@Test
	void aLockTheStoreFoundLostCarriesTheStoresReason() throws Exception {
		LockHold hold = this.client.acquire("session", Duration.ZERO, null);
		CompletableFuture<LossReason> lost = hold.whenLost().toCompletableFuture();
		this.store.sessionExpired = true;
		this.store.expire("session");
		await().atMost(Duration.ofSeconds(10)).until(() -> !hold.isValid());
		assertThat(lost).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(LossReason.SESSION_EXPIRED);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release)
			.withMessageContaining("the test session expired");
	}

	@Test
	void aSessionInterruptionEndsEveryLeasesViewForGood() throws Exception {
		LockHold first = this.client.acquire("interrupted:1", Duration.ZERO, null);
		LockHold second = this.client.acquire("interrupted:2", Duration.ZERO, null);
		Runnable interruption = this.store.interruption;
		assertThat(interruption).as("the client's registration").isNotNull();
		this.store.sessionExpired = true;
		interruption.run();
		assertThat(first.isValid()).isFalse();
		assertThat(second.isValid()).isFalse();
		// The store still renews both (it does not know of the interruption): renewals
		// answered meanwhile must not make either valid again, over three leases
		await().pollDelay(Duration.ofMillis(900))
			.atMost(Duration.ofSeconds(10))
			.until(() -> !first.isValid() && !second.isValid());
		assertThat(this.client.watchdogStatus().lastBatch()).isNotNull();
		// The session ended: its locks are gone, and the holders are told why
		this.store.expire("interrupted:1");
		assertThatExceptionOfType(LockLostException.class).isThrownBy(first::release)
			.withMessageContaining("the test session expired");
		this.store.sessionExpired = false;
		second.release();
	}

	@Test
	void theClientStopsFollowingTheSessionWhenClosed() {
		assertThat(this.store.interruption).isNotNull();
		this.client.close();
		assertThat(this.store.interruption).isNull();
	}

	/**
	 * The in-memory store, saying that its locks live as long as a session.
	 */
	static final class SessionStore extends ForwardingLockStore implements SessionLeaseExtension {

		private final ControllableInMemoryLockStore memory;

		volatile int acquires;

		volatile boolean sessionExpired;

		volatile @Nullable Runnable interruption;

		SessionStore() {
			this(new ControllableInMemoryLockStore());
		}

		private SessionStore(ControllableInMemoryLockStore memory) {
			super(memory);
			this.memory = memory;
		}

		@Override
		public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
			this.acquires++;
			return super.tryAcquire(key, token, lease);
		}

		void expire(String key) {
			this.memory.expire(key);
		}

		@Override
		public <E extends LockStoreExtension> @Nullable E extension(Class<E> type) {
			return (type == SessionLeaseExtension.class) ? type.cast(this) : super.extension(type);
		}

		@Override
		public Duration sessionTimeout() {
			return Duration.ofSeconds(10);
		}

		@Override
		public @Nullable String lossReason(String key, String token) {
			return this.sessionExpired ? "the test session expired" : null;
		}

		@Override
		public @Nullable LossReason lossKind(String key, String token) {
			return this.sessionExpired ? LossReason.SESSION_EXPIRED : null;
		}

		@Override
		public Subscription onSessionInterrupted(Runnable listener) {
			this.interruption = listener;
			return () -> this.interruption = null;
		}

	}

}
