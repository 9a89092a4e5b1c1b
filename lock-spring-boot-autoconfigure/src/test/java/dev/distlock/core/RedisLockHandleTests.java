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

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.distlock.LockAcquisitionException;
import dev.distlock.LockLostException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Lock semantics of {@link RedisLockHandle} against a real Redis: reentrancy, ownership,
 * fencing tokens and the callback form.
 *
 * @author distlock
 */
class RedisLockHandleTests extends RedisLockTestSupport {

	@Test
	void reentersWithoutRedisAndReleasesOnTheLastUnlock() throws Exception {
		RedisLockClient client = newClient();
		String key = uniqueKey("reentrant");
		LockHandle lock = client.obtain(key);
		assertThat(lock.tryLock(Duration.ZERO)).isTrue();
		long fence = lock.fencingToken();
		long scriptsAfterFirst = scriptCalls();
		assertThat(client.obtain(key).tryLock(Duration.ZERO)).isTrue();
		assertThat(lock.tryLock(Duration.ofSeconds(1), Duration.ofSeconds(5))).isTrue();
		assertThat(scriptCalls()).isEqualTo(scriptsAfterFirst);
		assertThat(lock.getHoldCount()).isEqualTo(3);
		assertThat(lock.fencingToken()).isEqualTo(fence);
		lock.unlock();
		lock.unlock();
		assertThat(redis.hasKey(lockKey(key))).isTrue();
		assertThat(lock.isHeldByCurrentThread()).isTrue();
		lock.unlock();
		assertThat(redis.hasKey(lockKey(key))).isFalse();
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		assertThat(lock.getHoldCount()).isZero();
	}

	@Test
	void rejectsUnlockByAnotherThreadAndKeepsTheKey() throws Exception {
		LockHandle lock = newClient().obtain(uniqueKey("owned"));
		lock.lock();
		CompletableFuture<Void> foreignUnlock = CompletableFuture.runAsync(lock::unlock);
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> foreignUnlock.get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(IllegalMonitorStateException.class);
		assertThat(redis.hasKey(lockKey(lock.key()))).isTrue();
		assertThat(lock.isHeldByCurrentThread()).isTrue();
		lock.unlock();
	}

	@Test
	void rejectsUnlockOfALockNeverAcquired() {
		LockHandle lock = newClient().obtain(uniqueKey("free"));
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::unlock)
			.withMessageContaining(lock.key());
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::fencingToken);
	}

	@Test
	void anotherClientCannotAcquireAHeldLock() throws Exception {
		String key = uniqueKey("held");
		LockHandle mine = newClient().obtain(key);
		LockHandle theirs = newClient().obtain(key);
		assertThat(mine.tryLock(Duration.ZERO)).isTrue();
		assertThat(theirs.tryLock(Duration.ZERO)).isFalse();
		mine.unlock();
		assertThat(theirs.tryLock(Duration.ZERO)).isTrue();
		theirs.unlock();
	}

	@Test
	void unlockAfterTheLeaseExpiredLeavesTheNewOwnersKey() throws Exception {
		String key = uniqueKey("expired");
		LockHandle first = newClient().obtain(key);
		LockHandle second = newClient().obtain(key);
		assertThat(first.tryLock(Duration.ZERO, Duration.ofMillis(200))).isTrue();
		assertThat(second.tryLock(Duration.ofSeconds(5), Duration.ofSeconds(30))).isTrue();
		String secondOwner = redis.opsForValue().get(lockKey(key));
		assertThat(first.isHeldByCurrentThread()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(first::unlock).withMessageContaining(key);
		assertThat(redis.opsForValue().get(lockKey(key))).isEqualTo(secondOwner);
		assertThat(first.getHoldCount()).isZero();
		second.unlock();
		assertThat(redis.hasKey(lockKey(key))).isFalse();
	}

	@Test
	void fencingTokensStrictlyIncreaseAcrossClients() throws Exception {
		String key = uniqueKey("fence");
		List<LockHandle> locks = List.of(newClient().obtain(key), newClient().obtain(key));
		List<Long> fences = new ArrayList<>();
		for (int i = 0; i < 200; i++) {
			LockHandle lock = locks.get(i % 2);
			assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
			fences.add(lock.fencingToken());
			lock.unlock();
		}
		assertThat(fences).isSorted().doesNotHaveDuplicates();
	}

	@Test
	void fencingTokensKeepIncreasingAfterTheFenceKeyExpired() throws Exception {
		LockHandle lock = newClient().obtain(uniqueKey("fence-expiry"));
		assertThat(lock.tryLock(Duration.ZERO, Duration.ofMillis(50))).isTrue();
		long first = lock.fencingToken();
		lock.unlock();
		Thread.sleep(150);
		assertThat(redis.hasKey(lockKey(lock.key()) + ":fence")).isFalse();
		assertThat(lock.tryLock(Duration.ZERO, Duration.ofMillis(50))).isTrue();
		assertThat(lock.fencingToken()).isGreaterThan(first);
		lock.unlock();
	}

	@Test
	void confirmOwnershipDetectsAForeignOwner() throws Exception {
		LockHandle lock = newClient().obtain(uniqueKey("confirm"));
		assertThat(lock.tryLock(Duration.ZERO)).isTrue();
		lock.confirmOwnership();
		redis.opsForValue().set(lockKey(lock.key()), "someone-else");
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::confirmOwnership);
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
		assertThat(redis.opsForValue().get(lockKey(lock.key()))).isEqualTo("someone-else");
	}

	@Test
	void reenteringALostLockFails() throws Exception {
		LockHandle lock = newClient().obtain(uniqueKey("lost-reentry"));
		assertThat(lock.tryLock(Duration.ZERO, Duration.ofMillis(100))).isTrue();
		Thread.sleep(200);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> lock.tryLock(Duration.ZERO));
		assertThat(lock.getHoldCount()).isEqualTo(1);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
	}

	@Test
	void executeRunsTheCallbackUnderTheLockAndReturnsItsResult() {
		RedisLockClient client = newClient();
		String key = uniqueKey("execute");
		String result = client.execute(key, Duration.ZERO, (lock) -> {
			assertThat(lock.isHeldByCurrentThread()).isTrue();
			assertThat(redis.hasKey(lockKey(key))).isTrue();
			return "done:" + lock.fencingToken();
		});
		assertThat(result).startsWith("done:");
		assertThat(redis.hasKey(lockKey(key))).isFalse();
	}

	@Test
	void executeReleasesWhenTheCallbackThrowsACheckedException() {
		RedisLockClient client = newClient();
		String key = uniqueKey("execute-fails");
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> client.execute(key, Duration.ZERO, (lock) -> {
			throw new IOException("disk full");
		})).withMessage("disk full");
		assertThat(redis.hasKey(lockKey(key))).isFalse();
	}

	@Test
	void executeFailsWithoutRunningTheCallbackWhenTheLockIsBusy() throws Exception {
		String key = uniqueKey("execute-busy");
		LockHandle holder = heldByAnotherClient(key);
		List<String> ran = new ArrayList<>();
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> newClient().execute(key, Duration.ofMillis(100), (lock) -> ran.add("ran")))
			.withMessageContaining(key)
			.satisfies((ex) -> assertThat(ex.getWaitTime()).isEqualTo(Duration.ofMillis(100)));
		assertThat(ran).isEmpty();
		holder.unlock();
	}

	@Test
	void executeReportsALockLostWhileTheCallbackRan() {
		RedisLockClient client = newClient();
		String key = uniqueKey("execute-lost");
		assertThatExceptionOfType(LockLostException.class)
			.isThrownBy(() -> client.execute(key, Duration.ZERO, Duration.ofMillis(100), (lock) -> {
				Thread.sleep(250);
				return "late";
			}));
	}

	@Test
	void rejectsInvalidArgumentsWithTheirName() {
		RedisLockClient client = newClient();
		assertThatIllegalArgumentException().isThrownBy(() -> client.obtain(" ")).withMessageContaining("blank");
		LockHandle lock = client.obtain(uniqueKey("args"));
		assertThatIllegalArgumentException().isThrownBy(() -> lock.tryLock(Duration.ofSeconds(-1)))
			.withMessageContaining("'waitTime'");
		assertThatIllegalArgumentException().isThrownBy(() -> lock.tryLock(Duration.ZERO, Duration.ZERO))
			.withMessageContaining("'leaseTime'");
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(lock::newCondition);
	}

}
