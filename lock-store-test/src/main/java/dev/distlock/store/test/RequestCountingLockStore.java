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
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.store.ForwardingLockStore;
import dev.distlock.store.LockStore;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LockStore} that counts the requests a client sends it to take a lock (plain or
 * registering a waiter), to hand one over and to release one, and forwards every request
 * to the store it decorates: for a store's own tests that count what the engine asks of
 * it (that a holder with only local waiters hands over without releasing, say).
 *
 * @author distlock
 * @since 0.1.0
 */
public final class RequestCountingLockStore extends ForwardingLockStore {

	private final AtomicInteger attempts = new AtomicInteger();

	private final AtomicInteger handOvers = new AtomicInteger();

	private final AtomicInteger releases = new AtomicInteger();

	/**
	 * Count the requests sent to {@code store}.
	 * @param store the store to forward to
	 */
	public RequestCountingLockStore(LockStore store) {
		super(store);
	}

	/**
	 * Return how many requests to take a lock were sent since the last reset.
	 * @return the attempts
	 */
	public int attempts() {
		return this.attempts.get();
	}

	/**
	 * Return how many hand-overs were sent since the last reset.
	 * @return the hand-overs
	 */
	public int handOvers() {
		return this.handOvers.get();
	}

	/**
	 * Return how many releases were sent since the last reset.
	 * @return the releases
	 */
	public int releases() {
		return this.releases.get();
	}

	/**
	 * Start counting again from zero.
	 */
	public void reset() {
		this.attempts.set(0);
		this.handOvers.set(0);
		this.releases.set(0);
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
		this.attempts.incrementAndGet();
		return super.tryAcquire(key, token, lease);
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease, String waiter,
			Duration waiterTtl) {
		this.attempts.incrementAndGet();
		return super.tryAcquire(key, token, lease, waiter, waiterTtl);
	}

	@Override
	// NullAway reads the extension's class file without the @Nullable of its type
	// arguments, so it sees this override's nullable result as a mismatch
	@SuppressWarnings("NullAway")
	public CompletionStage<@Nullable HandOff> handOver(String key, String token, String nextToken, Duration lease,
			String client) {
		this.handOvers.incrementAndGet();
		return super.handOver(key, token, nextToken, lease, client);
	}

	@Override
	public CompletionStage<Boolean> release(String key, String token) {
		this.releases.incrementAndGet();
		return super.release(key, token);
	}

}
