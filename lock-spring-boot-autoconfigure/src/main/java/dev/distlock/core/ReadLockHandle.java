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
import java.util.concurrent.TimeUnit;

import dev.distlock.LockAcquisitionException;
import dev.distlock.core.DefaultLockClient.Acquisition;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * A read {@link LockHandle} of a {@link DefaultLockClient} ({@link ReadLocks}): the
 * shared read lock of one key, owned by the thread that locks it and reentrant for that
 * thread. Its fencing token is {@code 0}, unless the thread holds the key's write lock,
 * which it then re-enters.
 *
 * @author distlock
 * @since 0.2.0
 */
final class ReadLockHandle implements LockHandle {

	private final ReadLocks locks;

	private final String key;

	private final String name;

	ReadLockHandle(ReadLocks locks, String key, String name) {
		this.locks = locks;
		this.key = key;
		this.name = name;
	}

	@Override
	public String key() {
		return this.key;
	}

	@Override
	public void lock() {
		boolean interrupted = false;
		try {
			while (true) {
				try {
					lock(DefaultLockClient.forever(), null);
					return;
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public void lockInterruptibly() throws InterruptedException {
		lock(DefaultLockClient.forever(), null);
	}

	@Override
	public boolean tryLock() {
		try {
			return lock(0, null);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	@Override
	public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
		Assert.notNull(unit, "'unit' must not be null");
		return lock(Math.max(0, unit.toNanos(time)), null);
	}

	@Override
	public boolean tryLock(Duration waitTime) throws InterruptedException {
		return lock(DefaultLockClient.waitNanos(this.key, waitTime), null);
	}

	@Override
	public boolean tryLock(Duration waitTime, Duration leaseTime) throws InterruptedException {
		Assert.notNull(leaseTime, "'leaseTime' must not be null");
		return lock(DefaultLockClient.waitNanos(this.key, waitTime), leaseTime);
	}

	@Override
	public void acquire(Duration waitTime, @Nullable Duration leaseTime) throws InterruptedException {
		Acquisition acquisition = new Acquisition(this.name);
		DefaultLockClient.validateLease(this.key, leaseTime);
		if (!this.locks.lockForThread(this.key, DefaultLockClient.waitNanos(this.key, waitTime), leaseTime,
				acquisition)) {
			throw LockAcquisitionException.busy(this.key, waitTime, acquisition.holderLeaseRemaining);
		}
	}

	private boolean lock(long waitNanos, @Nullable Duration leaseTime) throws InterruptedException {
		DefaultLockClient.validateLease(this.key, leaseTime);
		return this.locks.lockForThread(this.key, waitNanos, leaseTime, new Acquisition(this.name));
	}

	@Override
	public void unlock() {
		this.locks.unlockForThread(this.key, null);
	}

	@Override
	public void unlock(Duration holdAtLeast) {
		Assert.notNull(holdAtLeast, "'holdAtLeast' must not be null");
		this.locks.unlockForThread(this.key, holdAtLeast);
	}

	@Override
	public boolean isHeldByCurrentThread() {
		return this.locks.isHeldByCurrentThread(this.key);
	}

	@Override
	public int getHoldCount() {
		return this.locks.holdCount(this.key);
	}

	@Override
	public long fencingToken() {
		return this.locks.heldLease(this.key).fencingToken;
	}

	@Override
	public void confirmOwnership() {
		this.locks.confirmOwnership(this.locks.heldLease(this.key));
	}

	@Override
	public String toString() {
		return "ReadLockHandle[" + this.key + "]";
	}

}
