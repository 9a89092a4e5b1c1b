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

import dev.distlock.memory.InMemoryLockStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Keys (and lock names) are written with their control characters escaped in every
 * exception message and {@code toString()} of the client's holds and handles, so a key
 * can never end a log line and forge the next one.
 *
 * @author distlock
 */
class KeyEscapingTests {

	private static final String KEY = "order:1\nINFO forged\u001b[31m";

	private static final String ESCAPED = "order:1\\nINFO forged\\u001b[31m";

	private final DefaultLockClient client = new DefaultLockClient(new InMemoryLockStore(),
			LockClientSettings.defaults());

	@AfterEach
	void closeClient() {
		this.client.close();
	}

	@Test
	void aHoldEscapesItsKeyInToStringAndWhenReleasedTwice() throws InterruptedException {
		LockHold hold = this.client.acquire(KEY, Duration.ZERO, null);
		assertThat(hold.toString()).contains(ESCAPED).doesNotContain("\n", "\u001b");
		hold.release();
		assertThatIllegalStateException().isThrownBy(hold::release).satisfies(KeyEscapingTests::escaped);
		assertThat(hold.releaseAsync().toCompletableFuture()).isCompletedExceptionally()
			.failsWithin(Duration.ZERO)
			.withThrowableOfType(Exception.class)
			.havingCause()
			.satisfies(KeyEscapingTests::escaped);
	}

	@Test
	void aHandleEscapesItsKeyInToStringAndWhenUnlockedByAThreadThatDoesNotHoldIt() {
		LockHandle handle = this.client.obtain(KEY);
		assertThat(handle.toString()).contains(ESCAPED).doesNotContain("\n", "\u001b");
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(handle::unlock)
			.satisfies(KeyEscapingTests::escaped);
	}

	@Test
	void aReadLockHeldByTheThreadEscapesTheKeyWhenRefusingTheUpgrade() throws InterruptedException {
		LockHandle read = this.client.readLocks().obtain(KEY);
		read.acquire(Duration.ZERO, null);
		try {
			assertThatIllegalStateException().isThrownBy(() -> this.client.obtain(KEY).tryLock(Duration.ZERO))
				.satisfies(KeyEscapingTests::escaped);
		}
		finally {
			read.unlock();
		}
	}

	@Test
	void invalidArgumentsEscapeTheKeyAndTheName() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.client.acquire(KEY, Duration.ofSeconds(-1), null))
			.satisfies(KeyEscapingTests::escaped);
		assertThatIllegalArgumentException().isThrownBy(() -> this.client.acquire(KEY, Duration.ZERO, Duration.ZERO))
			.satisfies(KeyEscapingTests::escaped);
		assertThatIllegalArgumentException().isThrownBy(() -> this.client.acquire("\n", KEY, Duration.ZERO, null))
			.satisfies((ex) -> assertThat(ex.getMessage()).contains("'\\n'").doesNotContain("\n"));
	}

	private static void escaped(Throwable ex) {
		assertThat(ex.getMessage()).contains(ESCAPED).doesNotContain("\n", "\u001b");
	}

}
