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

package dev.distlock.store.test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

import dev.distlock.store.ForwardingLockStore;
import dev.distlock.store.InspectionExtension;
import dev.distlock.store.LockStore;
import dev.distlock.memory.InMemoryLockStore;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * The SPI-level checks fail on a deliberately broken store, one mutant per required
 * operation, naming the operation at fault; and pass on the store the mutants break.
 *
 * @author distlock
 */
class LockStoreSpiChecksTests {

	private final InMemoryLockStore backend = new InMemoryLockStore();

	@Test
	void passOnTheUnbrokenStore() {
		LockStoreSpiChecks checks = checks(ForwardingLockStore::new);
		assertThatNoException().isThrownBy(() -> {
			checks.tryAcquireGrantsFreeKeysOnlyWithRisingFencingTokens();
			checks.releaseFreesTheKeyForItsOwnerOnly();
			checks.expireAfterShortensTheOwnersLeaseOnly();
			checks.renewExtendsOwnedLeasesAndReportsOthersLost();
			checks.isOwnerTellsTheOwnerOnly();
			checks.onReleaseHearsAReleaseByAnotherStore();
		});
	}

	@Test
	void nameTryAcquireWhenItsFencingTokensDoNotRise() {
		LockStoreSpiChecks checks = checks((store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
				return super.tryAcquire(key, token, lease)
					.thenApply((attempt) -> attempt.acquired() ? Attempt.granted(1) : attempt);
			}

		});
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(checks::tryAcquireGrantsFreeKeysOnlyWithRisingFencingTokens)
			.withMessageContaining("LockStore.tryAcquire");
	}

	@Test
	void nameReleaseWhenItIsNotOwnerChecked() {
		LockStoreSpiChecks checks = checks((store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<Boolean> release(String key, String token) {
				return delegateExtension(InspectionExtension.class).forceRelease(key)
					.thenApply((owner) -> owner != null);
			}

		});
		assertThatExceptionOfType(AssertionError.class).isThrownBy(checks::releaseFreesTheKeyForItsOwnerOnly)
			.withMessageContaining("LockStore.release");
	}

	@Test
	void nameExpireAfterWhenItIsNotOwnerChecked() {
		LockStoreSpiChecks checks = checks((store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
				return CompletableFuture.completedFuture(true);
			}

		});
		assertThatExceptionOfType(AssertionError.class).isThrownBy(checks::expireAfterShortensTheOwnersLeaseOnly)
			.withMessageContaining("LockStore.expireAfter");
	}

	@Test
	void nameRenewWhenItClaimsRenewalsItDidNotMake() {
		LockStoreSpiChecks checks = checks((store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
				return CompletableFuture
					.completedFuture(renewals.stream().map((renewal) -> RenewalOutcome.RENEWED).toList());
			}

		});
		assertThatExceptionOfType(AssertionError.class).isThrownBy(checks::renewExtendsOwnedLeasesAndReportsOthersLost)
			.withMessageContaining("LockStore.renew");
	}

	@Test
	void nameIsOwnerWhenItAnswersYesToAnyToken() {
		LockStoreSpiChecks checks = checks((store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<Boolean> isOwner(String key, String token) {
				return CompletableFuture.completedFuture(true);
			}

		});
		assertThatExceptionOfType(AssertionError.class).isThrownBy(checks::isOwnerTellsTheOwnerOnly)
			.withMessageContaining("LockStore.isOwner");
	}

	@Test
	void nameOnReleaseWhenItNeverCalls() {
		LockStoreSpiChecks checks = checks((store) -> new ForwardingLockStore(store) {

			@Override
			public Subscription onRelease(String key, Runnable listener) {
				return () -> {
				};
			}

		});
		assertThatExceptionOfType(ConditionTimeoutException.class)
			.isThrownBy(checks::onReleaseHearsAReleaseByAnotherStore)
			.withMessageContaining("LockStore.onRelease");
	}

	/**
	 * Return the checks on stores that all wrap the one in-memory backend.
	 */
	private LockStoreSpiChecks checks(Function<LockStore, LockStore> wrapper) {
		return new LockStoreSpiChecks(() -> wrapper.apply(this.backend));
	}

}
