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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import dev.distlock.core.LockStore;
import org.jspecify.annotations.Nullable;

/**
 * A store that can hold back the replies of acquire requests, as a network would hold a
 * reply on the wire: the request has run in the backend (the lock may be granted), but
 * the client does not know yet. For tests of what a client does when its caller gives up
 * at that instant. Works on every store, as a decorator.
 *
 * @author distlock
 */
final class PausedRepliesLockStore implements LockStore {

	private final LockStore store;

	private final List<Runnable> held = new ArrayList<>();

	private final AtomicInteger requests = new AtomicInteger();

	private boolean paused;

	PausedRepliesLockStore(LockStore store) {
		this.store = store;
	}

	/**
	 * Hold back the replies of acquire requests sent from now on.
	 */
	synchronized void pause() {
		this.paused = true;
	}

	/**
	 * Deliver the held replies, in order, and stop holding them back.
	 */
	void resume() {
		List<Runnable> replies;
		synchronized (this) {
			this.paused = false;
			replies = new ArrayList<>(this.held);
			this.held.clear();
		}
		replies.forEach(Runnable::run);
	}

	/**
	 * Return how many acquire requests were sent.
	 */
	int requests() {
		return this.requests.get();
	}

	private <T extends @Nullable Object> CompletionStage<T> reply(CompletionStage<T> sent) {
		this.requests.incrementAndGet();
		CompletableFuture<T> reply = new CompletableFuture<>();
		sent.whenComplete((value, failure) -> {
			Runnable deliver = () -> {
				if (failure != null) {
					reply.completeExceptionally(failure);
				}
				else {
					reply.complete(value);
				}
			};
			synchronized (this) {
				if (this.paused) {
					this.held.add(deliver);
					return;
				}
			}
			deliver.run();
		});
		return reply;
	}

	@Override
	public Set<Capability> capabilities() {
		return this.store.capabilities();
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
		return reply(this.store.tryAcquire(key, token, lease));
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease, String waiter,
			Duration waiterTtl) {
		return reply(this.store.tryAcquire(key, token, lease, waiter, waiterTtl));
	}

	@Override
	public CompletionStage<Attempt> tryAcquireFair(String key, String token, Duration lease,
			@Nullable Duration grantTimeout) {
		return reply(this.store.tryAcquireFair(key, token, lease, grantTimeout));
	}

	@Override
	public CompletionStage<Attempt> tryAcquireRead(String key, String token, Duration lease) {
		return reply(this.store.tryAcquireRead(key, token, lease));
	}

	@Override
	// NullAway reads the LockStore class file without the @Nullable of its type
	// arguments (see CountingLockStore)
	@SuppressWarnings("NullAway")
	public CompletionStage<@Nullable List<Attempt>> tryAcquireAll(List<String> keys, String token, Duration lease) {
		return reply(this.store.tryAcquireAll(keys, token, lease));
	}

	@Override
	// NullAway reads the LockStore class file without the @Nullable of its type
	// arguments (see CountingLockStore)
	@SuppressWarnings("NullAway")
	public CompletionStage<@Nullable Attempt> handOver(String key, String token, String nextToken, Duration lease) {
		return this.store.handOver(key, token, nextToken, lease);
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
		return this.store.onRelease(key, listener);
	}

	@Override
	public Subscription onRelease(String key, String waiter, Runnable listener) {
		return this.store.onRelease(key, waiter, listener);
	}

	@Override
	// NullAway reads the LockStore class file without the @Nullable of its type
	// arguments, so it sees this override's nullable grants as a mismatch
	@SuppressWarnings("NullAway")
	public Subscription onFairGrant(String key, String token, Consumer<@Nullable FairGrant> listener) {
		return this.store.onFairGrant(key, token, listener);
	}

	@Override
	public CompletionStage<KeyState> inspect(String key) {
		return this.store.inspect(key);
	}

	@Override
	public void close() {
		this.store.close();
	}

}
