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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.distlock.LockBackendException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;
import dev.distlock.store.ReadLockExtension;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Failures and arguments: the client fails closed while the backend is unreachable,
 * rejects invalid arguments, and refuses read locks a store does not implement.
 *
 * @author distlock
 */
abstract class FailureContract extends ContractGroup {

	FailureContract(LockStoreContractTests suite) {
		super(suite);
	}

	@Test
	void acquisitionFailsClosedWhileTheStoreIsUnreachableAndRecovers() throws Exception {
		assumeTrue(canBeMadeUnreachable(), "this backend cannot be made unreachable from the suite");
		String key = uniqueKey("outage");
		DefaultLockClient client = newClient();
		setUnreachable(true);
		try {
			assertThatExceptionOfType(LockBackendException.class)
				.isThrownBy(() -> client.obtain(key).tryLock(Duration.ZERO))
				.withMessageContaining(key);
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(
					() -> client.acquireAsync(key, Duration.ZERO, null).toCompletableFuture().get(5, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockBackendException.class);
		}
		finally {
			setUnreachable(false);
		}
		try (LockHold hold = client.acquire(key, Duration.ZERO, null)) {
			assertThat(hold.isValid()).isTrue();
		}
	}

	@Test
	void rejectsInvalidArgumentsWithTheirName() {
		DefaultLockClient client = newClient();
		assertThatIllegalArgumentException().isThrownBy(() -> client.obtain(" ")).withMessageContaining("blank");
		assertThatIllegalArgumentException().isThrownBy(() -> client.acquire(" ", Duration.ZERO, null))
			.withMessageContaining("blank");
		LockHandle lock = client.obtain(uniqueKey("args"));
		assertThatIllegalArgumentException().isThrownBy(() -> lock.tryLock(Duration.ofSeconds(-1)))
			.withMessageContaining("'waitTime'");
		assertThatIllegalArgumentException().isThrownBy(() -> lock.tryLock(Duration.ZERO, Duration.ZERO))
			.withMessageContaining("'leaseTime'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> client.acquireAsync(lock.key(), Duration.ZERO, Duration.ZERO))
			.withMessageContaining("'leaseTime'");
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(lock::newCondition);
	}

	@Test
	void readLocksNeedAStoreThatHasThem() {
		assumeTrue(!supports(ReadLockExtension.class), "the store declares READ_LOCKS");
		DefaultLockClient client = newClient();
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> client.readLocks().acquire(uniqueKey("no-read"), Duration.ZERO, null))
			.withMessageContaining("no-read");
	}

}
