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

import org.junit.jupiter.api.Test;

/**
 * The required store operations, each called directly ({@link LockStoreSpiChecks}): a
 * failure names the operation at fault.
 *
 * @author distlock
 */
abstract class StoreSpiContract extends ContractGroup {

	private final LockStoreSpiChecks checks = new LockStoreSpiChecks(this::newStore);

	StoreSpiContract(LockStoreContractTests suite) {
		super(suite);
	}

	@Test
	void tryAcquireGrantsFreeKeysOnlyWithRisingFencingTokens() {
		this.checks.tryAcquireGrantsFreeKeysOnlyWithRisingFencingTokens();
	}

	@Test
	void tryAcquireAnswersAReplayWithTheSameGrant() {
		this.checks.tryAcquireAnswersAReplayWithTheSameGrant();
	}

	@Test
	void releaseFreesTheKeyForItsOwnerOnly() {
		this.checks.releaseFreesTheKeyForItsOwnerOnly();
	}

	@Test
	void expireAfterShortensTheOwnersLeaseOnly() {
		this.checks.expireAfterShortensTheOwnersLeaseOnly();
	}

	@Test
	void renewExtendsOwnedLeasesAndReportsOthersLost() {
		this.checks.renewExtendsOwnedLeasesAndReportsOthersLost();
	}

	@Test
	void isOwnerTellsTheOwnerOnly() {
		this.checks.isOwnerTellsTheOwnerOnly();
	}

	@Test
	void onReleaseHearsAReleaseByAnotherStore() {
		this.checks.onReleaseHearsAReleaseByAnotherStore();
	}

}
