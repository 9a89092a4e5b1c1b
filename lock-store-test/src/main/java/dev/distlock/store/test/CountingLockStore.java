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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import dev.distlock.store.ForwardingLockStore;
import dev.distlock.store.LockStore;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LockStore} that counts how often it runs its clients' release listeners (for
 * tests that a release wakes one waiting client only), how often it handed a lock over
 * and how many fair attempts were answered, and that can fail hand-overs (run in the
 * store with the reply lost, or not run at all); everything else is delegated.
 *
 * @author distlock
 */
final class CountingLockStore extends ForwardingLockStore {

	private final AtomicInteger wakeUps;

	private final AtomicInteger handOvers = new AtomicInteger();

	private final AtomicInteger fairAttemptsAnswered = new AtomicInteger();

	private volatile @Nullable HandOverFailure nextHandOverFails;

	CountingLockStore(LockStore store, AtomicInteger wakeUps) {
		super(store);
		this.wakeUps = wakeUps;
	}

	int handOvers() {
		return this.handOvers.get();
	}

	/**
	 * Fail the next hand-over: after running it in the store (its reply lost, as to a
	 * connection reset), or without running it.
	 * @param runInStore whether the store runs it
	 */
	void failNextHandOver(boolean runInStore) {
		this.nextHandOverFails = (runInStore) ? HandOverFailure.REPLY_LOST : HandOverFailure.NOT_RUN;
	}

	int fairAttemptsAnswered() {
		return this.fairAttemptsAnswered.get();
	}

	@Override
	// NullAway reads the extension's class file without the @Nullable of its type
	// arguments, so it sees this override's nullable result as a mismatch
	@SuppressWarnings("NullAway")
	public CompletionStage<@Nullable HandOff> handOver(String key, String token, String nextToken, Duration lease,
			String client) {
		// The engine hands over with its client's id; the forwarding base keeps the
		// delegate's answer of whether another client waits
		HandOverFailure failure = this.nextHandOverFails;
		this.nextHandOverFails = null;
		if (failure == HandOverFailure.NOT_RUN) {
			return CompletableFuture.failedFuture(new IllegalStateException("hand-over of " + key + " not run"));
		}
		if (failure == HandOverFailure.REPLY_LOST) {
			return super.handOver(key, token, nextToken, lease, client).thenCompose((handOff) -> CompletableFuture
				.failedFuture(new IllegalStateException("reply to the hand-over of " + key + " lost")));
		}
		return super.handOver(key, token, nextToken, lease, client).<@Nullable HandOff>thenApply((handOff) -> {
			if (handOff != null && handOff.attempt().acquired()) {
				this.handOvers.incrementAndGet();
			}
			return handOff;
		});
	}

	@Override
	public CompletionStage<Attempt> tryAcquireFair(String key, String token, Duration lease,
			@Nullable Duration grantTimeout) {
		return super.tryAcquireFair(key, token, lease, grantTimeout)
			.whenComplete((attempt, failure) -> this.fairAttemptsAnswered.incrementAndGet());
	}

	@Override
	public CompletionStage<ClockedAttempt> tryAcquireFairClocked(String key, String token, Duration lease,
			@Nullable Duration grantTimeout) {
		return super.tryAcquireFairClocked(key, token, lease, grantTimeout)
			.whenComplete((attempt, failure) -> this.fairAttemptsAnswered.incrementAndGet());
	}

	@Override
	public Subscription onRelease(String key, Runnable listener) {
		return super.onRelease(key, counted(listener));
	}

	@Override
	public Subscription onRelease(String key, String waiter, Runnable listener) {
		return super.onRelease(key, waiter, counted(listener));
	}

	@Override
	// NullAway reads the extension's class file without the @Nullable of its type
	// arguments, so it sees this override's nullable grants as a mismatch
	@SuppressWarnings("NullAway")
	public Subscription onFairGrant(String key, String token, Consumer<@Nullable FairGrant> listener) {
		return super.onFairGrant(key, token, (grant) -> {
			this.wakeUps.incrementAndGet();
			listener.accept(grant);
		});
	}

	@Override
	public Subscription onFairWakeUp(String key, String token, Runnable listener) {
		return super.onFairWakeUp(key, token, counted(listener));
	}

	private Runnable counted(Runnable listener) {
		return () -> {
			this.wakeUps.incrementAndGet();
			listener.run();
		};
	}

	private enum HandOverFailure {

		REPLY_LOST, NOT_RUN

	}

}
