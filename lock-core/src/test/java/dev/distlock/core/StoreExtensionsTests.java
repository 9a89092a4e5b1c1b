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

import dev.distlock.store.FairQueueExtension;
import dev.distlock.store.ForwardingLockStore;
import dev.distlock.store.InspectionExtension;
import dev.distlock.store.LockStoreExtension;
import dev.distlock.store.ReadLockExtension;
import java.time.Duration;
import java.util.List;

import dev.distlock.memory.InMemoryLockStore;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A client on a store with the required operations only: what needs an extension is
 * refused before any request, naming the attribute and the missing extension, and the
 * rest works (several keys one by one, waiting without wake-one, releasing without
 * hand-over).
 *
 * @author distlock
 */
class StoreExtensionsTests {

	private final DefaultLockClient client = new DefaultLockClient(new RequiredOperationsOnly());

	@AfterEach
	void close() {
		this.client.close();
	}

	@Test
	void refusesAFairLockNamingTheAttributeAndTheMissingExtension() {
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> this.client.fair().acquire("fair-key", Duration.ZERO, null))
			.withMessageContaining("fair = true")
			.withMessageContaining(RequiredOperationsOnly.class.getName())
			.withMessageContaining(FairQueueExtension.class.getName());
	}

	@Test
	void refusesAReadLockNamingTheAttributeAndTheMissingExtension() {
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> this.client.readLocks().acquire("read-key", Duration.ZERO, null))
			.withMessageContaining("mode = READ")
			.withMessageContaining(RequiredOperationsOnly.class.getName())
			.withMessageContaining(ReadLockExtension.class.getName());
	}

	@Test
	void refusesInspectionNamingTheMissingExtension() {
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> this.client.inspect("inspected-key"))
			.withMessageContaining(InspectionExtension.class.getName());
	}

	@Test
	void takesSeveralKeysOneByOneAndHandsNothingOver() throws Exception {
		List<LockHold> holds = this.client.acquireAll(List.of("b", "a"), Duration.ZERO, null);
		assertThat(holds).extracting(LockHold::key).containsExactly("a", "b");
		assertThat(holds).allMatch(LockHold::isValid);
		holds.forEach(LockHold::release);
		LockHold again = this.client.acquire("a", Duration.ofSeconds(5), null);
		again.release();
	}

	/**
	 * An in-memory store that offers none of its extensions.
	 */
	static final class RequiredOperationsOnly extends ForwardingLockStore {

		RequiredOperationsOnly() {
			super(new InMemoryLockStore());
		}

		@Override
		public <E extends LockStoreExtension> @Nullable E extension(Class<E> type) {
			return null;
		}

	}

}
