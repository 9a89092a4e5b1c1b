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

/**
 * The fair view of a client is a view of that one client, not a second client: its locks
 * are the client's held locks, reported to the client's listener, and closing the view
 * closes the client.
 *
 * @author distlock
 */
class FairViewTests {

	private final InMemoryLockStore store = new InMemoryLockStore();

	private final RecordingLockClientListener listener = new RecordingLockClientListener();

	private final DefaultLockClient client = new DefaultLockClient(this.store, LockClientSettings.defaults(),
			this.listener);

	@AfterEach
	void close() {
		this.client.close();
	}

	@Test
	void theFairViewIsOneViewOfTheClientNotASecondClient() {
		LockClient fair = this.client.fair();
		assertThat(fair).isNotInstanceOf(DefaultLockClient.class);
		assertThat(this.client.fair()).isSameAs(fair);
		assertThat(fair.fair()).isSameAs(fair);
		assertThat(fair.readLocks()).isSameAs(this.client.readLocks());
	}

	@Test
	void aFairLockIsHeldByTheClientUnderItsName() throws Exception {
		LockHold hold = this.client.fair().acquire("report", "fair-held", Duration.ZERO, null);
		assertThat(this.client.heldLocks()).singleElement().satisfies((held) -> {
			assertThat(held.name()).isEqualTo("report");
			assertThat(held.key()).isEqualTo("fair-held");
		});
		assertThat(this.listener.events()).contains("report fair-held acquired");
		hold.release();
		assertThat(this.client.heldCount()).isZero();
	}

	@Test
	void closingTheFairViewClosesTheClientAndReleasesItsLocks() throws Exception {
		LockHold fairHold = this.client.fair().acquire("fair-closed", Duration.ZERO, null);
		LockHold hold = this.client.acquire("closed", Duration.ZERO, null);
		this.client.fair().close();
		assertThat(fairHold.isValid()).isFalse();
		assertThat(hold.isValid()).isFalse();
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> this.client.acquire("after-close", Duration.ZERO, null));
		assertThat(this.client.heldCount()).isZero();
	}

}
