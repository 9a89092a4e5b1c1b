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

package dev.distlock.test.contract;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import dev.distlock.core.LockStore;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LockStore} that counts how often it runs its clients' release listeners (for
 * tests that a release wakes one waiting client only), how often it handed a lock over
 * and how many fair attempts were answered; everything else is delegated.
 *
 * @author distlock
 */
final class CountingLockStore implements LockStore {

	private final LockStore store;

	private final AtomicInteger wakeUps;

	private final AtomicInteger handOvers = new AtomicInteger();

	private final AtomicInteger fairAttemptsAnswered = new AtomicInteger();

	CountingLockStore(LockStore store, AtomicInteger wakeUps) {
		this.store = store;
		this.wakeUps = wakeUps;
	}

	int handOvers() {
		return this.handOvers.get();
	}

	int fairAttemptsAnswered() {
		return this.fairAttemptsAnswered.get();
	}

	@Override
	// NullAway reads the LockStore class file without the @Nullable of its type
	// arguments, so it sees this override's nullable result as a mismatch
	@SuppressWarnings("NullAway")
	public CompletionStage<@Nullable Attempt> handOver(String key, String token, String nextToken, Duration lease) {
		return this.store.handOver(key, token, nextToken, lease).thenApply((attempt) -> {
			if (attempt != null && attempt.acquired()) {
				this.handOvers.incrementAndGet();
			}
			return attempt;
		});
	}

	@Override
	public Set<Capability> capabilities() {
		return this.store.capabilities();
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
		return this.store.tryAcquire(key, token, lease);
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease, String waiter,
			Duration waiterTtl) {
		return this.store.tryAcquire(key, token, lease, waiter, waiterTtl);
	}

	@Override
	public CompletionStage<Attempt> tryAcquireFair(String key, String token, Duration lease,
			@Nullable Duration grantTimeout) {
		return this.store.tryAcquireFair(key, token, lease, grantTimeout)
			.whenComplete((attempt, failure) -> this.fairAttemptsAnswered.incrementAndGet());
	}

	@Override
	public CompletionStage<Void> leave(String key, String waiter) {
		return this.store.leave(key, waiter);
	}

	@Override
	public CompletionStage<Boolean> release(String key, String token) {
		return this.store.release(key, token);
	}

	@Override
	// NullAway reads the LockStore class file without the @Nullable of its type
	// arguments, so it sees this override's nullable result as a mismatch
	@SuppressWarnings("NullAway")
	public CompletionStage<@Nullable List<Attempt>> tryAcquireAll(List<String> keys, String token, Duration lease) {
		return this.store.tryAcquireAll(keys, token, lease);
	}

	@Override
	public CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
		return this.store.expireAfter(key, token, remaining);
	}

	@Override
	public CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
		return this.store.renew(renewals, lease);
	}

	@Override
	public Object renewalGroup(String key) {
		return this.store.renewalGroup(key);
	}

	@Override
	public CompletionStage<Boolean> isOwner(String key, String token) {
		return this.store.isOwner(key, token);
	}

	@Override
	public Subscription onRelease(String key, Runnable listener) {
		return this.store.onRelease(key, counted(listener));
	}

	@Override
	public Subscription onRelease(String key, String waiter, Runnable listener) {
		return this.store.onRelease(key, waiter, counted(listener));
	}

	@Override
	// NullAway reads the LockStore class file without the @Nullable of its type
	// arguments, so it sees this override's nullable grants as a mismatch
	@SuppressWarnings("NullAway")
	public Subscription onFairGrant(String key, String token, Consumer<@Nullable FairGrant> listener) {
		return this.store.onFairGrant(key, token, (grant) -> {
			this.wakeUps.incrementAndGet();
			listener.accept(grant);
		});
	}

	@Override
	public CompletionStage<KeyState> inspect(String key) {
		return this.store.inspect(key);
	}

	@Override
	public void close() {
		this.store.close();
	}

	private Runnable counted(Runnable listener) {
		return () -> {
			this.wakeUps.incrementAndGet();
			listener.run();
		};
	}

}
