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
 * The replay rule, one check per operation the client may send again
 * ({@link LockStoreReplayChecks}): a failure names the operation replayed.
 *
 * @author distlock
 */
abstract class StoreReplayContract extends ContractGroup {

	private final LockStoreReplayChecks checks = new LockStoreReplayChecks(this::newStore);

	StoreReplayContract(LockStoreContractTests suite) {
		super(suite);
	}

	@Test
	void releaseAnswersAReplayAsTheFirstDid() {
		this.checks.releaseAnswersAReplayAsTheFirstDid();
	}

	@Test
	void expireAfterAnswersAReplayAsTheFirstDid() {
		this.checks.expireAfterAnswersAReplayAsTheFirstDid();
	}

	@Test
	void renewAnswersAReplayAsTheFirstDid() {
		this.checks.renewAnswersAReplayAsTheFirstDid();
	}

	@Test
	void isOwnerAnswersAReplayAsTheFirstDid() {
		this.checks.isOwnerAnswersAReplayAsTheFirstDid();
	}

	@Test
	void readLockRequestsAnswerAReplayAsTheFirstDid() {
		this.checks.readLockRequestsAnswerAReplayAsTheFirstDid();
	}

	@Test
	void fairRequestsAnswerAReplayAsTheFirstDid() {
		this.checks.fairRequestsAnswerAReplayAsTheFirstDid();
	}

	@Test
	void wakeOneRequestsAnswerAReplayAsTheFirstDid() {
		this.checks.wakeOneRequestsAnswerAReplayAsTheFirstDid();
	}

	@Test
	void handOverAnswersAReplayAsTheFirstDid() {
		this.checks.handOverAnswersAReplayAsTheFirstDid();
	}

	@Test
	void tryAcquireAllAnswersAReplayAsTheFirstDid() {
		this.checks.tryAcquireAllAnswersAReplayAsTheFirstDid();
	}

}
