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

package dev.distlock.benchmarks.annotation;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import dev.distlock.core.LockClient;
import dev.distlock.core.LockHandle;

/**
 * A {@link LockClient} on JVM-local {@link ReentrantLock}s, so the annotation benchmark
 * measures the advice and the key expression and not a Redis round trip.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class InMemoryLockClient implements LockClient {

	private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();

	@Override
	public LockHandle obtain(String key) {
		return new Handle(key, this.locks.computeIfAbsent(key, (name) -> new ReentrantLock()));
	}

	@Override
	public void close() {
		this.locks.clear();
	}

	private record Handle(String key, ReentrantLock delegate) implements LockHandle {

		@Override
		public boolean tryLock(Duration waitTime) throws InterruptedException {
			return this.delegate.tryLock(waitTime.toNanos(), TimeUnit.NANOSECONDS);
		}

		@Override
		public boolean tryLock(Duration waitTime, Duration leaseTime) throws InterruptedException {
			return tryLock(waitTime);
		}

		@Override
		public void lock() {
			this.delegate.lock();
		}

		@Override
		public void lockInterruptibly() throws InterruptedException {
			this.delegate.lockInterruptibly();
		}

		@Override
		public boolean tryLock() {
			return this.delegate.tryLock();
		}

		@Override
		public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
			return this.delegate.tryLock(time, unit);
		}

		@Override
		public void unlock() {
			this.delegate.unlock();
		}

		@Override
		public boolean isHeldByCurrentThread() {
			return this.delegate.isHeldByCurrentThread();
		}

		@Override
		public int getHoldCount() {
			return this.delegate.getHoldCount();
		}

		@Override
		public long fencingToken() {
			return 1;
		}

		@Override
		public void confirmOwnership() {
		}

	}

}
