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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import dev.distlock.LockAcquisitionException;
import dev.distlock.LockLostException;
import dev.distlock.core.LockClientListener;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import dev.distlock.LossReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link InMemoryLocks}: busy keys, lost leases and the record of holds, seen
 * through the engine's client.
 *
 * @author distlock
 */
class InMemoryLocksTests {

	private final InMemoryLocks locks = new InMemoryLocks();

	@AfterEach
	void close() {
		this.locks.close();
	}

	@Test
	void busyKeyFailsAnAcquisitionUntilMadeFree() throws Exception {
		this.locks.makeBusy("order:42");
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> this.locks.client().acquire("order:42", Duration.ZERO, null))
			.satisfies((ex) -> assertThat(ex.getHolderLeaseRemaining()).isEmpty());
		assertThat(this.locks.heldKeys()).isEmpty();
		this.locks.makeFree("order:42");
		try (LockHold hold = this.locks.client().acquire("order:42", Duration.ZERO, null)) {
			assertThat(hold.isValid()).isTrue();
			assertThat(this.locks.heldKeys()).containsExactly("order:42");
		}
	}

	@Test
	void busyKeyForADurationReportsTheHoldersRemainingLease() {
		this.locks.makeBusy("order:42", Duration.ofMinutes(5));
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> this.locks.client().acquire("order:42", Duration.ZERO, null))
			.satisfies((ex) -> assertThat(ex.getHolderLeaseRemaining()).hasValueSatisfying(
					(remaining) -> assertThat(remaining).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(5))));
	}

	@Test
	void busyKeyForADurationIsFreeWhenItsLeaseEnds() throws Exception {
		this.locks.makeBusy("order:42", Duration.ofMillis(50));
		try (LockHold hold = this.locks.client().acquire("order:42", Duration.ofSeconds(10), null)) {
			assertThat(hold.isValid()).isTrue();
		}
	}

	@Test
	void waitingCallerGetsTheKeyWhenItIsMadeFree() throws Exception {
		this.locks.makeBusy("order:42");
		CompletionStage<LockHold> waiting = this.locks.client().acquireAsync("order:42", Duration.ofSeconds(30), null);
		CompletableFuture<LockHold> future = waiting.toCompletableFuture();
		await().until(() -> this.locks.client().waitingCount("order:42") == 1);
		assertThat(future).isNotDone();
		this.locks.makeFree("order:42");
		try (LockHold hold = future.get(10, TimeUnit.SECONDS)) {
			assertThat(hold.key()).isEqualTo("order:42");
		}
	}

	@Test
	void keyThatIsHeldCannotBeMadeBusy() throws Exception {
		try (LockHold hold = this.locks.client().acquire("order:42", Duration.ZERO, null)) {
			assertThatIllegalStateException().isThrownBy(() -> this.locks.makeBusy("order:42"))
				.withMessageContaining("'order:42' is held already");
		}
		this.locks.makeBusy("order:43");
		assertThatIllegalStateException().isThrownBy(() -> this.locks.makeBusy("order:43", Duration.ofSeconds(1)))
			.withMessageContaining("'order:43' is already held by another instance");
	}

	@Test
	void makeFreeRefusesAKeyThatWasNotMadeBusy() {
		this.locks.makeBusy("order:1");
		assertThatIllegalStateException().isThrownBy(() -> this.locks.makeFree("order:2"))
			.withMessage("Lock 'order:2' was not made busy by makeBusy or loseLease; made busy: [order:1]");
	}

	@Test
	void lostLeaseIsReportedByConfirmOwnershipAndReleaseAndToTheListener() throws Exception {
		LockHold hold = this.locks.client().acquire("order:42", Duration.ZERO, null);
		this.locks.loseLease("order:42");
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::confirmOwnership);
		assertThat(hold.isValid()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release);
		assertThat(this.locks.holds()).singleElement().satisfies((recorded) -> {
			assertThat(recorded.lossReason()).isEqualTo(LossReason.TAKEN);
			assertThat(recorded.isOpen()).isFalse();
		});
	}

	@Test
	void lostLeaseIsReportedAtReleaseWithoutAnEarlierCheck() throws Exception {
		LockHold hold = this.locks.client().acquire("order:42", Duration.ZERO, null);
		this.locks.loseLease("order:42");
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release);
		assertThat(this.locks.holds()).singleElement()
			.satisfies((recorded) -> assertThat(recorded.lossReason()).isEqualTo(LossReason.TAKEN));
	}

	@Test
	void lostLeaseIsFoundByTheWatchdog() throws Exception {
		try (InMemoryLocks fast = new InMemoryLocks(
				LockClientSettings.defaults().withWatchdogLease(Duration.ofMillis(600)), LockClientListener.NONE)) {
			LockHold hold = fast.client().acquire("job", Duration.ZERO, null);
			fast.loseLease("job");
			await().atMost(Duration.ofSeconds(10)).until(() -> !hold.isValid());
			assertThat(fast.holds()).singleElement()
				.satisfies((recorded) -> assertThat(recorded.lossReason()).isEqualTo(LossReason.TAKEN));
		}
	}

	@Test
	void lostKeyStaysWithTheOtherInstanceUntilMadeFree() throws Exception {
		LockHold hold = this.locks.client().acquire("order:42", Duration.ZERO, null);
		this.locks.loseLease("order:42");
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release);
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> this.locks.client().acquire("order:42", Duration.ZERO, null));
		this.locks.makeFree("order:42");
		this.locks.client().acquire("order:42", Duration.ZERO, null).release();
	}

	@Test
	void leaseOfAKeyTheClientDoesNotHoldCannotBeLost() {
		this.locks.makeBusy("order:1");
		assertThatIllegalStateException().isThrownBy(() -> this.locks.loseLease("order:1"))
			.withMessage("This client does not hold lock 'order:1', so it has no lease to lose; it holds []");
	}

	@Test
	void recordsEveryHoldWithItsThreadAndFencingToken() throws Exception {
		this.locks.client().acquire("a", Duration.ZERO, null).release();
		LockHold open = this.locks.client().acquire("b", Duration.ZERO, null);
		assertThat(this.locks.holds()).extracting(RecordedHold::key).containsExactly("a", "b");
		assertThat(this.locks.holds()).extracting(RecordedHold::isOpen).containsExactly(false, true);
		assertThat(this.locks.holds()).extracting(RecordedHold::threadName)
			.containsOnly(Thread.currentThread().getName());
		assertThat(this.locks.holds().get(1).fencingToken()).isEqualTo(open.fencingToken());
		open.release();
		this.locks.clearHolds();
		assertThat(this.locks.holds()).isEmpty();
	}

}
