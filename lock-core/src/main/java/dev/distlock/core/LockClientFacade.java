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
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

/**
 * The {@link LockClient} methods written once for every view of a client (its write
 * locks, their fair view, its read locks): each named and unnamed overload ends in the
 * view's {@link Locks}, after the view's own checks. A view says how it validates a call
 * and what a blocking caller must be refused first.
 *
 * @author distlock
 * @since 0.1.0
 */
abstract class LockClientFacade implements LockClient {

	/**
	 * Return the acquisitions of this view.
	 */
	abstract Locks locks();

	/**
	 * Return the thread-bound holds of this view.
	 */
	abstract ThreadLocks threadLocks();

	/**
	 * Validate a call and return its keys in locking order.
	 * @throws UnsupportedOperationException if the store cannot take this view's locks
	 */
	abstract List<String> validate(String name, Collection<String> keys, Duration waitTime,
			@Nullable Duration leaseTime);

	/**
	 * Check what the calling thread holds before it blocks for {@code keys}; the default
	 * checks nothing.
	 */
	void beforeBlocking(List<String> keys) {
	}

	@Override
	public LockHandle obtain(String key) {
		return new ThreadLockHandle(threadLocks(), locks().requireKey(key), UNNAMED);
	}

	@Override
	public LockHandle obtain(String name, String key) {
		return new ThreadLockHandle(threadLocks(), locks().requireKey(key), Locks.requireName(name));
	}

	@Override
	public LockHold acquire(String key, Duration waitTime, @Nullable Duration leaseTime) throws InterruptedException {
		return acquire(UNNAMED, key, waitTime, leaseTime);
	}

	@Override
	public LockHold acquire(String name, String key, Duration waitTime, @Nullable Duration leaseTime)
			throws InterruptedException {
		return acquireAll(name, List.of(locks().requireKey(key)), waitTime, leaseTime).get(0);
	}

	@Override
	public CompletionStage<LockHold> acquireAsync(String key, Duration waitTime, @Nullable Duration leaseTime) {
		return acquireAsync(UNNAMED, key, waitTime, leaseTime);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Waiting holds no thread. Cancelling the returned future at any instant stops the
	 * acquisition; a lock granted meanwhile is released at once.
	 */
	@Override
	public CompletionStage<LockHold> acquireAsync(String name, String key, Duration waitTime,
			@Nullable Duration leaseTime) {
		return Locks.single(acquireAllAsync(name, List.of(locks().requireKey(key)), waitTime, leaseTime));
	}

	@Override
	public List<LockHold> acquireAll(Collection<String> keys, Duration waitTime, @Nullable Duration leaseTime)
			throws InterruptedException {
		return acquireAll(UNNAMED, keys, waitTime, leaseTime);
	}

	@Override
	public List<LockHold> acquireAll(String name, Collection<String> keys, Duration waitTime,
			@Nullable Duration leaseTime) throws InterruptedException {
		List<String> sorted = validate(name, keys, waitTime, leaseTime);
		beforeBlocking(sorted);
		return locks().acquire(name, sorted, waitTime, leaseTime);
	}

	@Override
	public CompletionStage<List<LockHold>> acquireAllAsync(Collection<String> keys, Duration waitTime,
			@Nullable Duration leaseTime) {
		return acquireAllAsync(UNNAMED, keys, waitTime, leaseTime);
	}

	@Override
	public CompletableFuture<List<LockHold>> acquireAllAsync(String name, Collection<String> keys, Duration waitTime,
			@Nullable Duration leaseTime) {
		return locks().acquireAsync(name, validate(name, keys, waitTime, leaseTime), waitTime, leaseTime);
	}

	/**
	 * Check the name, keys, wait and lease every view checks, and return the keys in
	 * locking order.
	 */
	final List<String> validateCommon(String name, Collection<String> keys, Duration waitTime,
			@Nullable Duration leaseTime) {
		Locks.requireName(name);
		List<String> sorted = locks().sortedKeys(keys);
		Locks.waitNanos(sorted.get(0), waitTime);
		Locks.validateLease(sorted.get(0), leaseTime);
		return sorted;
	}

}
