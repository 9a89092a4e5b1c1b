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
 * The optional store operations, extension by extension, each called directly
 * ({@link LockStoreSpiChecks}): a failure names the operation at fault, and the checks of
 * an extension the store does not implement are skipped.
 *
 * @author distlock
 */
abstract class StoreExtensionSpiContract extends ContractGroup {

	private final LockStoreSpiChecks checks = new LockStoreSpiChecks(this::newStore);

	StoreExtensionSpiContract(LockStoreContractTests suite) {
		super(suite);
	}

	@Test
	void readLocksAreSharedAndKeepWritersOut() {
		this.checks.readLocksAreSharedAndKeepWritersOut();
	}

	@Test
	void severalKeysAreTakenAllOrNothing() {
		this.checks.severalKeysAreTakenAllOrNothing();
	}

	@Test
	void handOverPassesTheLockToTheNextTokenWithAHigherFence() {
		this.checks.handOverPassesTheLockToTheNextTokenWithAHigherFence();
	}

	@Test
	void inspectTellsTheOwnerAndForceReleaseFreesTheKey() {
		this.checks.inspectTellsTheOwnerAndForceReleaseFreesTheKey();
	}

	@Test
	void aReleaseWakesARegisteredWaiter() {
		this.checks.aReleaseWakesARegisteredWaiter();
	}

}
