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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.distlock.LockBackendException;
import dev.distlock.store.FairGrantWakeUpExtension.FairGrant;
import dev.distlock.store.LocalHandOverExtension;
import dev.distlock.store.LockStore.RenewalOutcome;
import dev.distlock.memory.InMemoryLockStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.then;
import static org.mockito.BDDMockito.willReturn;
import static org.mockito.Mockito.spy;
import static org.mockito.Mockito.mockingDetails;
import static org.mockito.Mockito.times;

/**
 * A fair waiter whose wake-up carries its grant holds the lock at once and extends it in
 * the background: what its local view of the grant is until then, and what becomes of it
 * when the extension finds the grant gone or fails. The in-memory store answers, with the
 * extension's outcome stubbed in where a test needs one the store would not give.
 *
 * @author distlock
 */
class FairGrantInWakeUpTests {

	private static final Duration GRANT_TIMEOUT = Duration.ofSeconds(3);

	private final InMemoryLockStore store = spy(new InMemoryLockStore());

	private final RecordingLockClientListener listener = new RecordingLockClientListener();

	private final DefaultLockClient client = new DefaultLockClient(this.store,
			LockClientSettings.defaults().withFairGrantTimeout(GRANT_TIMEOUT), this.listener);

	private final LockClient fair = this.client.fair();

	@AfterEach
	void close() {
		this.client.close();
	}

	@Test
	void theGrantIsExtendedToTheLeaseInTheBackground() throws Exception {
		LockHold hold = handedOff("extended", Duration.ofSeconds(60));
		assertThat(hold.isValid()).isTrue();
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(leaseRemaining()).isGreaterThan(GRANT_TIMEOUT));
		assertThat(this.store.inspect("extended").toCompletableFuture().join().ttl()).isGreaterThan(GRANT_TIMEOUT);
		hold.release();
	}

	@Test
	void aGrantTheExtensionFindsGoneIsReportedLost() throws Exception {
		willReturn(CompletableFuture.completedFuture(List.of(RenewalOutcome.LOST))).given(this.store)
			.renew(anyList(), any());
		LockHold hold = handedOff("gone", Duration.ofSeconds(60));
		await().atMost(Duration.ofSeconds(5)).until(() -> !hold.isValid());
		assertThat(this.listener.events()).containsExactly("unnamed gone started", "unnamed gone acquired",
				"unnamed gone lost expired");
	}

	@Test
	void aFailedExtensionLeavesTheGrantValidUntilItsEndInTheStoreAtTheLatest() throws Exception {
		willReturn(CompletableFuture.failedFuture(
				new LockBackendException("unanswered", "renew", new IllegalStateException("store did not answer"))))
			.given(this.store)
			.renew(anyList(), any());
		LockHold hold = handedOff("unanswered", Duration.ofSeconds(60));
		assertThat(hold.isValid()).isTrue();
		Duration storeTtl = this.store.inspect("unanswered").toCompletableFuture().join().ttl();
		assertThat(storeTtl).isNotNull().isLessThanOrEqualTo(GRANT_TIMEOUT);
		long storeEnd = System.nanoTime() + storeTtl.toNanos();
		long localEnd = System.nanoTime() + leaseRemaining().toNanos();
		assertThat(localEnd).as("the local view ends no later than the grant in the store")
			.isLessThanOrEqualTo(storeEnd)
			.isGreaterThan(storeEnd - Duration.ofMillis(100).toNanos());
		await().atMost(GRANT_TIMEOUT.plusSeconds(2)).until(() -> !hold.isValid());
	}

	@Test
	void aFailedExtensionIsAskedForAgainAndTheLockEndsUpExtended() throws Exception {
		willReturn(failedRenewal("retried"), failedRenewal("retried")).willCallRealMethod()
			.given(this.store)
			.renew(anyList(), any());
		LockHold hold = handedOff("retried", Duration.ofSeconds(60));
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.store.inspect("retried").toCompletableFuture().join().ttl())
				.isGreaterThan(GRANT_TIMEOUT));
		then(this.store).should(times(3)).renew(anyList(), any());
		assertThat(leaseRemaining()).isGreaterThan(GRANT_TIMEOUT);
		assertThat(hold.isValid()).isTrue();
		assertThat(this.listener.events()).doesNotContain("unnamed retried lost expired");
		hold.release();
	}

	@Test
	void aGrantThatEndsBeforeAnExtensionSucceedsIsReportedLostAndNotAskedForAgain() throws Exception {
		willReturn(failedRenewal("never")).given(this.store).renew(anyList(), any());
		LockHold hold = handedOff("never", Duration.ofSeconds(60));
		await().atMost(GRANT_TIMEOUT.plusSeconds(2))
			.until(() -> this.listener.events().contains("unnamed never lost expired"));
		assertThat(hold.isValid()).isFalse();
		int extensions = mockingDetails(this.store).getInvocations()
			.stream()
			.filter((invocation) -> invocation.getMethod().getName().equals("renew"))
			.mapToInt((invocation) -> 1)
			.sum();
		assertThat(extensions).as("extensions asked for until the grant ended").isGreaterThan(1);
		// Nothing happens: the fixed wait is what this asserts
		Thread.sleep(500);
		then(this.store).should(times(extensions)).renew(anyList(), any());
	}

	@Test
	void theStoreClockPlacesTheGrantsEndNoLaterThanTheStore() {
		// Sent at local 1,000 ms; the store read 50,000 ms; granted at store 50,400 ms
		StoreClockReading reading = new StoreClockReading(TimeUnit.MILLISECONDS.toNanos(1_000), 50_000);
		FairGrant grant = new FairGrant(7, 50_400, Duration.ofSeconds(2));
		long drift = Duration.ofMillis(20 + 2).toNanos();
		assertThat(reading.grantEndNanos(grant)).isEqualTo(TimeUnit.MILLISECONDS.toNanos(1_000 + 400 + 2_000) - drift);
	}

	private static CompletableFuture<List<RenewalOutcome>> failedRenewal(String key) {
		return CompletableFuture
			.failedFuture(new LockBackendException(key, "renew", new IllegalStateException("store did not answer")));
	}

	private Duration leaseRemaining() {
		return this.client.heldLocks().get(0).leaseRemaining();
	}

	/**
	 * Hold {@code key} with another token, queue this client's fair waiter, release: the
	 * release grants the lock to the waiter and its wake-up carries the grant.
	 */
	private LockHold handedOff(String key, Duration lease) throws Exception {
		String holder = "other-client:1";
		assertThat(this.store.tryAcquireFair(key, holder, lease, null).toCompletableFuture().join().acquired())
			.isTrue();
		CompletableFuture<LockHold> waiter = this.fair.acquireAsync(key, Duration.ofSeconds(30), lease)
			.toCompletableFuture();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.client.waitingCount(key) > 0);
		assertThat(this.store.release(key, holder).toCompletableFuture().join()).isTrue();
		LockHold hold = waiter.get(5, TimeUnit.SECONDS);
		// The store's second grant: its fencing tokens are spaced for hand-overs without
		// a request
		assertThat(hold.fencingToken()).isEqualTo(2 * LocalHandOverExtension.DEFAULT_FENCE_ROOM);
		// The holder's attempt and the waiter's two refused ones: none after the release
		then(this.store).should(times(3)).tryAcquireFairClocked(eq(key), anyString(), any(), any());
		return hold;
	}

}
