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

import dev.distlock.LockAcquisitionException;
import dev.distlock.LockLostException;
import dev.distlock.core.LockHold;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link LockAssertions}: each assertion passes for code that ran under the
 * lock and fails, naming the locks held, for code that did not.
 *
 * @author distlock
 */
class LockAssertionsTests {

	private final InMemoryLocks locks = new InMemoryLocks();

	@AfterEach
	void close() {
		this.locks.close();
	}

	@Test
	void callThatHeldTheLockPassesAndReturnsItsResult() {
		String result = LockAssertions.assertRanUnderLock(this.locks, "order:42",
				() -> this.locks.client().execute("order:42", Duration.ZERO, (lock) -> "ordered"));
		assertThat(result).isEqualTo("ordered");
	}

	@Test
	void callWithoutResultThatHeldTheLockPasses() {
		LockAssertions.assertRanUnderLock(this.locks, "order:42", () -> {
			this.locks.client().execute("order:42", Duration.ZERO, (lock) -> null);
		});
		assertThat(this.locks.holds()).extracting(RecordedHold::key).containsExactly("order:42");
	}

	@Test
	void callThatHeldAnotherLockFailsNamingIt() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> LockAssertions.assertRanUnderLock(this.locks, "order:42",
					() -> this.locks.client().execute("order:41", Duration.ZERO, (lock) -> "ordered")))
			.withMessageStartingWith(
					"Expected the call to run under lock 'order:42', but the locks it took were ['order:41'");
	}

	@Test
	void callThatTookNoLockFails() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> LockAssertions.assertRanUnderLock(this.locks, "order:42", () -> "ordered"))
			.withMessage("Expected the call to run under lock 'order:42', but it took no lock");
	}

	@Test
	void lockHeldBeforeTheCallDoesNotCount() throws Exception {
		try (LockHold hold = this.locks.client().acquire("order:42", Duration.ZERO, null)) {
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> LockAssertions.assertRanUnderLock(this.locks, "order:42", () -> "ordered"))
				.withMessage("Expected the call to run under lock 'order:42', but it took no lock");
		}
	}

	@Test
	void callThatThrewFailsWithItsException() {
		this.locks.makeBusy("order:42");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> LockAssertions.assertRanUnderLock(this.locks, "order:42",
					() -> this.locks.client().execute("order:42", Duration.ZERO, (lock) -> "ordered")))
			.withMessageStartingWith("Expected the call to run under lock 'order:42', but it threw "
					+ "dev.distlock.LockAcquisitionException")
			.withCauseInstanceOf(LockAcquisitionException.class);
	}

	@Test
	void callWhoseHoldWasLostFails() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> LockAssertions.assertRanUnderLock(this.locks, "order:42", () -> {
				LockHold hold = this.locks.client().acquire("order:42", Duration.ZERO, null);
				this.locks.loseLease("order:42");
				hold.confirmOwnership();
			}))
			.withMessageContaining("LockLostException");
	}

	@Test
	void callWhoseLostHoldWentUnnoticedFails() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> LockAssertions.assertRanUnderLock(this.locks, "order:42", () -> {
				LockHold hold = this.locks.client().acquire("order:42", Duration.ZERO, null);
				this.locks.loseLease("order:42");
				try {
					hold.release();
				}
				catch (LockLostException ex) {
					// swallowed by careless code under test
				}
			}))
			.withMessageStartingWith("Expected the call to run under lock 'order:42', but its hold was lost");
	}

	@Test
	void lockTakenOnAnotherThreadDoesNotCount() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> LockAssertions.assertRanUnderLock(this.locks, "order:42",
					() -> CompletableFuture
						.supplyAsync(() -> this.locks.client().execute("order:42", Duration.ZERO, (lock) -> "ordered"))
						.get()))
			.withMessageContaining("the locks it took were ['order:42'");
	}

	@Test
	void heldByCurrentThreadPassesInsideTheLock() {
		this.locks.client().execute("order:42", Duration.ZERO, (lock) -> {
			LockAssertions.assertHeldByCurrentThread(this.locks, "order:42");
			return null;
		});
	}

	@Test
	void heldByCurrentThreadFailsOutsideTheLockNamingTheHeldLocks() throws Exception {
		try (LockHold other = this.locks.client().acquire("order:41", Duration.ZERO, null)) {
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> LockAssertions.assertHeldByCurrentThread(this.locks, "order:42"))
				.withMessageStartingWith("Expected thread " + Thread.currentThread().getName()
						+ " to hold lock 'order:42', but the locks held now are ['order:41'");
		}
	}

	@Test
	void heldByCurrentThreadFailsAfterTheLeaseWasLost() throws Exception {
		LockHold hold = this.locks.client().acquire("order:42", Duration.ZERO, null);
		this.locks.loseLease("order:42");
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::confirmOwnership);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> LockAssertions.assertHeldByCurrentThread(this.locks, "order:42"))
			.withMessageContaining("lost: TAKEN");
	}

}
