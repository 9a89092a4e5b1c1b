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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.store.ForwardingLockStore;
import dev.distlock.store.LockStore;
import org.jspecify.annotations.Nullable;

/**
 * A store that can hold back the replies of acquire requests, as a network would hold a
 * reply on the wire: the request has run in the backend (the lock may be granted), but
 * the client does not know yet. For tests of what a client does when its caller gives up
 * at that instant. Works on every store, as a decorator.
 *
 * @author distlock
 */
final class PausedRepliesLockStore extends ForwardingLockStore {

	private final List<Runnable> held = new ArrayList<>();

	private final AtomicInteger requests = new AtomicInteger();

	private boolean paused;

	PausedRepliesLockStore(LockStore store) {
		super(store);
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
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
		return reply(super.tryAcquire(key, token, lease));
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease, String waiter,
			Duration waiterTtl) {
		return reply(super.tryAcquire(key, token, lease, waiter, waiterTtl));
	}

	@Override
	public CompletionStage<Attempt> tryAcquireFair(String key, String token, Duration lease,
			@Nullable Duration grantTimeout) {
		return reply(super.tryAcquireFair(key, token, lease, grantTimeout));
	}

	@Override
	public CompletionStage<Attempt> tryAcquireRead(String key, String token, Duration lease) {
		return reply(super.tryAcquireRead(key, token, lease));
	}

	@Override
	// NullAway reads the extension's class file without the @Nullable of its type
	// arguments, so it sees this override's nullable result as a mismatch
	@SuppressWarnings("NullAway")
	public CompletionStage<@Nullable List<Attempt>> tryAcquireAll(List<String> keys, String token, Duration lease) {
		return reply(super.tryAcquireAll(keys, token, lease));
	}

}
