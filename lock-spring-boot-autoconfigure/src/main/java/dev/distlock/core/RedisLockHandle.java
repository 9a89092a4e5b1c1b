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

import org.springframework.util.Assert;

/**
 * A {@link LockHandle} of a {@link RedisLockClient}: a view of one key that delegates to
 * the client's shared state for that key.
 *
 * @author distlock
 * @since 0.1.0
 */
final class RedisLockHandle implements LockHandle {

	private static final long FOREVER = Long.MAX_VALUE / 4;

	private final RedisLockClient client;

	private final LockKeys keys;

	RedisLockHandle(RedisLockClient client, LockKeys keys) {
		this.client = client;
		this.keys = keys;
	}

	@Override
	public String key() {
		return this.keys.name();
	}

	@Override
	public void lock() {
		boolean interrupted = false;
		try {
			while (true) {
				try {
					this.client.acquire(this.keys, FOREVER, null);
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
		this.client.acquire(this.keys, FOREVER, null);
	}

	@Override
	public boolean tryLock() {
		try {
			return this.client.acquire(this.keys, 0, null);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	@Override
	public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
		Assert.notNull(unit, "'unit' must not be null");
		return this.client.acquire(this.keys, Math.max(0, unit.toNanos(time)), null);
	}

	@Override
	public boolean tryLock(Duration waitTime) throws InterruptedException {
		return this.client.acquire(this.keys, waitNanos(waitTime), null);
	}

	@Override
	public boolean tryLock(Duration waitTime, Duration leaseTime) throws InterruptedException {
		Assert.notNull(leaseTime, "'leaseTime' must not be null");
		Assert.isTrue(leaseTime.toMillis() > 0,
				() -> "'leaseTime' must be at least 1 ms, but was " + leaseTime + " for lock '" + key() + "'");
		return this.client.acquire(this.keys, waitNanos(waitTime), leaseTime);
	}

	@Override
	public void unlock() {
		this.client.release(this.keys);
	}

	@Override
	public boolean isHeldByCurrentThread() {
		return this.client.isHeldByCurrentThread(this.keys);
	}

	@Override
	public int getHoldCount() {
		return this.client.holdCount(this.keys);
	}

	@Override
	public long fencingToken() {
		return this.client.heldEntry(this.keys).fence();
	}

	@Override
	public void confirmOwnership() {
		this.client.confirmOwnership(this.keys);
	}

	@Override
	public String toString() {
		return "RedisLockHandle[" + this.keys.lockKey() + "]";
	}

	private long waitNanos(Duration waitTime) {
		Assert.notNull(waitTime, "'waitTime' must not be null");
		Assert.isTrue(!waitTime.isNegative(),
				() -> "'waitTime' must not be negative, but was " + waitTime + " for lock '" + key() + "'");
		return (waitTime.compareTo(Duration.ofNanos(FOREVER)) >= 0) ? FOREVER : waitTime.toNanos();
	}

}
