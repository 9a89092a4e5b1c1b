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

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;
import dev.distlock.memory.InMemoryLockStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link LockOrderChecker} as the listener of a lock client on the in-memory
 * store.
 *
 * @author distlock
 */
class LockOrderCheckerTests {

	private final LockOrderChecker checker = new LockOrderChecker();

	private final LockClient client = new DefaultLockClient(new InMemoryLockStore(), LockClientSettings.defaults(),
			this.checker);

	@AfterEach
	void close() {
		this.client.close();
	}

	@Test
	void reportsTwoNamesTakenInBothOrdersWithBothCallPaths() {
		takeAccountThenLedger();
		assertThatNoException().isThrownBy(this.checker::verify);
		takeLedgerThenAccount();
		assertThatExceptionOfType(AssertionError.class).isThrownBy(this.checker::verify)
			.withMessageStartingWith("Lock order inversion: 'ledger' -> 'account' -> 'ledger'")
			.withMessageContaining("This test: 'account' taken while holding 'ledger'")
			.withMessageContaining("Earlier: 'ledger' taken while holding 'account'")
			.withMessageContaining("(key 'account:1') on thread " + Thread.currentThread().getName())
			.withMessageContaining("LockOrderCheckerTests.takeAccountThenLedger(LockOrderCheckerTests.java:")
			.withMessageContaining("LockOrderCheckerTests.takeLedgerThenAccount(LockOrderCheckerTests.java:")
			.withMessageNotContaining("dev.distlock.core.");
		assertThatNoException().as("reported once").isThrownBy(this.checker::verify);
		assertThat(this.checker.inversions()).hasSize(1);
	}

	@Test
	void acceptsTheSameOrderEverywhereAndLocksTakenOneAfterTheOther() {
		takeAccountThenLedger();
		takeAccountThenLedger();
		locked("ledger", "ledger:1", () -> {
		});
		locked("account", "account:1", () -> {
		});
		assertThatNoException().isThrownBy(this.checker::verify);
		assertThat(this.checker.inversions()).isEmpty();
	}

	@Test
	void findsALongerCycle() {
		locked("a", "a", () -> locked("b", "b", () -> {
		}));
		locked("b", "b", () -> locked("c", "c", () -> {
		}));
		assertThat(this.checker.inversions()).isEmpty();
		locked("c", "c", () -> locked("a", "a", () -> {
		}));
		assertThat(this.checker.inversions()).singleElement()
			.asString()
			.startsWith("Lock order inversion: 'c' -> 'a' -> 'b' -> 'c'")
			.contains("Earlier: 'b' taken while holding 'a'")
			.contains("Earlier: 'c' taken while holding 'b'");
	}

	@Test
	void severalKeysOfOneCallAreNoInversion() throws InterruptedException {
		for (List<String> keys : List.of(List.of("account:1", "account:2"), List.of("account:2", "account:1"))) {
			List<LockHold> holds = this.client.acquireAll("transfer", keys, Duration.ofSeconds(5), null);
			holds.forEach(LockHold::release);
		}
		locked("transfer", "account:1", () -> locked("transfer", "account:2", () -> {
		}));
		assertThatNoException().isThrownBy(this.checker::verify);
	}

	@Test
	void ignoresUnnamedLocks() {
		locked(LockClient.UNNAMED, "account:1", () -> locked("ledger", "ledger:1", () -> {
		}));
		locked("ledger", "ledger:1", () -> {
			LockHandle unnamed = this.client.obtain("account:1");
			unnamed.lock();
			unnamed.unlock();
		});
		assertThatNoException().isThrownBy(this.checker::verify);
	}

	@Test
	void forgetsTheOrderWhenReset() {
		takeAccountThenLedger();
		this.checker.reset();
		takeLedgerThenAccount();
		assertThatNoException().isThrownBy(this.checker::verify);
	}

	private void takeAccountThenLedger() {
		locked("account", "account:1", () -> locked("ledger", "ledger:1", () -> {
		}));
	}

	private void takeLedgerThenAccount() {
		locked("ledger", "ledger:1", () -> locked("account", "account:1", () -> {
		}));
	}

	private void locked(String name, String key, Runnable body) {
		LockHandle lock = this.client.obtain(name, key);
		lock.lock();
		try {
			body.run();
		}
		finally {
			lock.unlock();
		}
	}

}
