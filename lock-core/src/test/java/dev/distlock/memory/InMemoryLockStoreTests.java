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

package dev.distlock.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.LockBackendException;
import dev.distlock.store.FairQueueExtension;
import dev.distlock.store.HandOverExtension;
import dev.distlock.store.InspectionExtension;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.LockStore.Renewal;
import dev.distlock.store.LockStore.RenewalOutcome;
import dev.distlock.store.ReadLockExtension;
import dev.distlock.store.SeveralKeysExtension;
import dev.distlock.store.WakeOneExtension;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link InMemoryLockStore}'s own behaviour: its extensions and the protected
 * extension points its subclasses (the test kit's store,
 * {@link ControllableInMemoryLockStore}) build their controls on. The lock contract
 * itself runs on it in {@code lock-spring-boot-test}
 * ({@code InMemoryLockStoreContractTests}).
 *
 * @author distlock
 */
class InMemoryLockStoreTests {

	private static final Duration LEASE = Duration.ofSeconds(30);

	private final InMemoryLockStore store = new InMemoryLockStore();

	@Test
	void implementsEveryExtension() {
		assertThat(List.of(ReadLockExtension.class, FairQueueExtension.class, WakeOneExtension.class,
				HandOverExtension.class, SeveralKeysExtension.class, InspectionExtension.class))
			.allSatisfy((type) -> assertThat(this.store.extension(type)).isSameAs(this.store));
	}

	@Test
	void repliesAreCompleteWhenNotPaused() {
		assertThat(this.store.tryAcquire("free", "one", LEASE).toCompletableFuture()).isCompleted();
	}

	@Test
	void anUnreachableStoreFailsRequestsAndRenewalsAndKeepsItsLocks() {
		ControllableInMemoryLockStore controlled = new ControllableInMemoryLockStore();
		assertThat(join(controlled.tryAcquire("key", "one", LEASE)).acquired()).isTrue();
		controlled.setUnreachable(true);
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> controlled.isOwner("key", "one").toCompletableFuture().get())
			.withCauseInstanceOf(LockBackendException.class);
		assertThat(join(controlled.renew(List.of(new Renewal("key", "one")), LEASE)))
			.containsExactly(RenewalOutcome.FAILED);
		assertThat(controlled.isLocked("key")).isTrue();
		controlled.setUnreachable(false);
		assertThat(join(controlled.isOwner("key", "one"))).isTrue();
	}

	@Test
	void aKeyAssignedToAForeignOwnerIsLostToItsHolderWithoutNotifying() {
		ControllableInMemoryLockStore controlled = new ControllableInMemoryLockStore();
		AtomicInteger heard = new AtomicInteger();
		assertThat(join(controlled.tryAcquire("key", "one", LEASE)).acquired()).isTrue();
		controlled.onRelease("key", heard::incrementAndGet);
		controlled.takeOver("key", "someone-else");
		assertThat(join(controlled.renew(List.of(new Renewal("key", "one")), LEASE)))
			.containsExactly(RenewalOutcome.LOST);
		assertThat(join(controlled.inspect("key")).ownerToken()).isEqualTo("someone-else");
		assertThat(join(controlled.inspect("key")).ttl()).as("never expires").isNull();
		assertThat(heard).hasValue(0);
	}

	@Test
	void aDroppedKeyIsFreeWithoutNotifying() {
		ControllableInMemoryLockStore controlled = new ControllableInMemoryLockStore();
		AtomicInteger heard = new AtomicInteger();
		assertThat(join(controlled.tryAcquireRead("key", "reader", LEASE)).acquired()).isTrue();
		controlled.onRelease("key", heard::incrementAndGet);
		assertThat(controlled.isLocked("key")).isTrue();
		controlled.expire("key");
		assertThat(controlled.isLocked("key")).isFalse();
		assertThat(join(controlled.tryAcquire("key", "writer", LEASE)).acquired()).isTrue();
		assertThat(heard).hasValue(0);
	}

	@Test
	void theReplyHookGetsEachExecutedRequestInOrderBeforeItsNotificationsAreSent() {
		List<String> seen = new ArrayList<>();
		CompletableFuture<Boolean> held = new CompletableFuture<>();
		InMemoryLockStore holding = new InMemoryLockStore() {

			@Override
			@SuppressWarnings("unchecked")
			protected <T extends @Nullable Object> CompletionStage<T> reply(CompletableFuture<T> executed) {
				seen.add("reply " + executed.join());
				return (seen.size() == 2) ? (CompletionStage<T>) held : executed;
			}

		};
		assertThat(join(holding.tryAcquire("key", "one", LEASE)).acquired()).isTrue();
		holding.onRelease("key", () -> seen.add("released"));
		CompletableFuture<Boolean> release = holding.release("key", "one").toCompletableFuture();
		assertThat(release).isSameAs(held).isNotDone();
		assertThat(seen).hasSize(3).element(1).isEqualTo("reply true");
		assertThat(seen).last().isEqualTo("released");
	}

	@Test
	void theRegisteredWaiterCountCountsRefusedAttemptsThatRegistered() {
		ControllableInMemoryLockStore controlled = new ControllableInMemoryLockStore();
		assertThat(join(controlled.tryAcquire("key", "one", LEASE)).acquired()).isTrue();
		assertThat(join(controlled.tryAcquire("key", "two", LEASE, "waiter-2", LEASE)).acquired()).isFalse();
		assertThat(join(controlled.tryAcquire("key", "three", LEASE, "waiter-3", LEASE)).acquired()).isFalse();
		assertThat(controlled.registeredWaiterCount("key")).isEqualTo(2);
		join(controlled.leave("key", "waiter-2"));
		assertThat(controlled.registeredWaiterCount("key")).isEqualTo(1);
	}

	private static <T> T join(CompletionStage<T> stage) {
		return stage.toCompletableFuture().join();
	}

}
