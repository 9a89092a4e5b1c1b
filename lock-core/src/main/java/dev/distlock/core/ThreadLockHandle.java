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

import dev.distlock.LossReason;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import dev.distlock.LogSafe;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * A {@link LockHandle} of a {@link DefaultLockClient}: a view of one key, owned by the
 * thread that locks it, that delegates to the client's shared state for that key, of its
 * write locks or of its read locks ({@link ThreadLocks}).
 *
 * @author distlock
 * @since 0.1.0
 */
final class ThreadLockHandle implements LockHandle {

	private final ThreadLocks locks;

	private final String key;

	private final String name;

	private final String kind;

	/**
	 * Create a handle.
	 * @param locks the thread-bound locks it works on
	 * @param key the lock key
	 * @param name the lock name
	 * @param kind what {@link #toString()} calls it, {@code LockHandle} or
	 * {@code ReadLockHandle}
	 */
	ThreadLockHandle(ThreadLocks locks, String key, String name) {
		this.locks = locks;
		this.key = key;
		this.name = name;
		this.kind = locks.locks().kind();
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
					lock(Locks.forever(), null);
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
		lock(Locks.forever(), null);
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
		return lock(Locks.waitNanos(time, unit), null);
	}

	@Override
	public boolean tryLock(Duration waitTime) throws InterruptedException {
		return lock(Locks.waitNanos(this.key, waitTime), null);
	}

	@Override
	public boolean tryLock(Duration waitTime, Duration leaseTime) throws InterruptedException {
		Assert.notNull(leaseTime, "'leaseTime' must not be null");
		return lock(Locks.waitNanos(this.key, waitTime), leaseTime);
	}

	@Override
	public void acquire(Duration waitTime, @Nullable Duration leaseTime) throws InterruptedException {
		Locks.validateLease(this.key, leaseTime);
		this.locks.lock(this.key, this.name, Locks.waitNanos(this.key, waitTime), waitTime, leaseTime, true);
	}

	private boolean lock(long waitNanos, @Nullable Duration leaseTime) throws InterruptedException {
		Locks.validateLease(this.key, leaseTime);
		return this.locks.lock(this.key, this.name, waitNanos, Duration.ofNanos(waitNanos), leaseTime, false);
	}

	@Override
	public void unlock() {
		this.locks.unlock(this.key, null);
	}

	@Override
	public void unlock(Duration holdAtLeast) {
		Assert.notNull(holdAtLeast, "'holdAtLeast' must not be null");
		this.locks.unlock(this.key, holdAtLeast);
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
		this.locks.locks().join(this.locks.locks().releases.confirmOwnership(this.locks.heldLease(this.key)));
	}

	@Override
	public CompletionStage<LossReason> whenLost() {
		return this.locks.heldLease(this.key).whenLost(this.locks.locks().engine.callbacks());
	}

	@Override
	public String toString() {
		return this.kind + "[" + LogSafe.escape(this.key) + "]";
	}

}
