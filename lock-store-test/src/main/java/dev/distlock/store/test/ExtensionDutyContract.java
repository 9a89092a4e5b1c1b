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
 * What each extension obliges the required operations to do, one check per duty
 * ({@link ExtensionDutyChecks}): a failure names the duty, and the checks of an extension
 * the store does not implement are skipped.
 *
 * @author distlock
 */
abstract class ExtensionDutyContract extends ContractGroup {

	private final ExtensionDutyChecks checks = new ExtensionDutyChecks(this::newStore);

	ExtensionDutyContract(LockStoreContractTests suite) {
		super(suite);
	}

	@Test
	void readLocksMakeTryAcquireRefuseAKeyReadersHold() {
		this.checks.readLocksMakeTryAcquireRefuseAKeyReadersHold();
	}

	@Test
	void readLocksMakeARefusedWriterKeepNewReadersOut() {
		this.checks.readLocksMakeARefusedWriterKeepNewReadersOut();
	}

	@Test
	void fairQueueMakesReleaseGrantTheLockToTheQueueHead() {
		this.checks.fairQueueMakesReleaseGrantTheLockToTheQueueHead();
	}

	@Test
	void fairGrantWakeUpsMakeReleaseCarryTheGrant() {
		this.checks.fairGrantWakeUpsMakeReleaseCarryTheGrant();
	}

	@Test
	void fairGrantWakeUpsTellTheStoreClock() {
		this.checks.fairGrantWakeUpsTellTheStoreClock();
	}

	@Test
	void wakeOneMakesReleaseWakeTheRegisteredWaiterAlone() {
		this.checks.wakeOneMakesReleaseWakeTheRegisteredWaiterAlone();
	}

	@Test
	void sessionLeasesKeepALockPastItsLease() {
		this.checks.sessionLeasesKeepALockPastItsLease();
	}

	@Test
	void localHandOversFindRoomBetweenTwoGrants() {
		this.checks.localHandOversFindRoomBetweenTwoGrants();
	}

}
