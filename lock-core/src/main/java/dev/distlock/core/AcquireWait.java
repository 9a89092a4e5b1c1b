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

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledFuture;
import java.util.function.IntFunction;

import dev.distlock.LogSafe;
import dev.distlock.store.LockStore.Subscription;
import dev.distlock.store.support.Stages;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * What an {@link Acquisition} waits with: its deadline task; once refused, its
 * subscriptions to the releases that may let it in, its count as one of the client's
 * callers waiting in the store, the wake-ups heard and its one re-check task; and its
 * registration as a waiter in the store, left when it gives up. Read and changed only by
 * the event an acquisition is processing; {@link #end()} undoes everything but the
 * registration.
 *
 * @author distlock
 * @since 0.1.0
 */
final class AcquireWait {

	private static final Log logger = LogFactory.getLog(AcquireWait.class);

	private final LockEngine engine;

	/** Whether the caller waits at all (else it makes one attempt). */
	private final boolean waits;

	/** Whether the caller waits without a bound: then no deadline task is scheduled. */
	private final boolean forever;

	private final long deadline;

	private boolean deadlineArmed;

	private @Nullable ScheduledFuture<?> deadlineTask;

	private final Runnable onRecheck;

	private final Runnable onDeadline;

	private final List<Subscription> subscriptions = new ArrayList<>();

	/** The keys whose subscriptions are open, if any. */
	private @Nullable List<Integer> subscribedKeys;

	/** The key the acquisition is counted as waiting in the store for, if any. */
	private @Nullable String countedKey;

	private long wakeUps;

	private long wakeUpsAtRequest;

	private @Nullable ScheduledFuture<?> recheck;

	/**
	 * The keys the caller registered as waiting for in the store (one, but for a caller
	 * of one of several keys holding the local turn of several).
	 */
	private final BitSet registered = new BitSet();

	/**
	 * Create the wait of an acquisition.
	 * @param engine the client's engine
	 * @param startedAtNanos when the acquisition started
	 * @param waitNanos how long to wait from then, 0 for one attempt
	 * @param onRecheck what runs on the engine's timer when the re-check is due
	 * @param onDeadline what runs on the engine's timer at the deadline
	 */
	AcquireWait(LockEngine engine, long startedAtNanos, long waitNanos, Runnable onRecheck, Runnable onDeadline) {
		this.engine = engine;
		this.onRecheck = onRecheck;
		this.onDeadline = onDeadline;
		this.waits = waitNanos > 0;
		this.forever = waitNanos >= Locks.forever();
		this.deadline = startedAtNanos + waitNanos;
	}

	/**
	 * Return whether the caller waits at all (else it makes one attempt).
	 */
	boolean waits() {
		return this.waits;
	}

	/**
	 * Return how long is left until the deadline, in nanoseconds; 0 or less once past.
	 */
	long remainingNanos() {
		return this.deadline - System.nanoTime();
	}

	/**
	 * Arm the deadline once the caller waits (for a local turn, a yield or a release): an
	 * acquisition whose first attempt is answered at once needs no timer task. Until then
	 * each reply checks the deadline itself.
	 */
	void armDeadline() {
		if (this.deadlineArmed || !this.waits || this.forever) {
			return;
		}
		this.deadlineArmed = true;
		this.deadlineTask = this.engine.schedule(this.onDeadline, remainingNanos());
	}

	/**
	 * The deadline task ran.
	 */
	void deadlineReached() {
		this.deadlineTask = null;
	}

	/**
	 * Listen for the releases of {@code keys}.
	 * @param keys the keys, as indexes
	 * @param subscribe opens the subscription to the key at an index
	 */
	void subscribe(List<Integer> keys, IntFunction<Subscription> subscribe) {
		for (int i : keys) {
			this.subscriptions.add(subscribe.apply(i));
		}
		this.subscribedKeys = keys;
	}

	/**
	 * Return whether the open subscriptions are those to {@code keys}.
	 */
	boolean isSubscribed(List<Integer> keys) {
		return keys.equals(this.subscribedKeys);
	}

	/**
	 * Close the subscriptions and stop counting as a waiter in the store.
	 */
	void closeSubscriptions() {
		this.subscriptions.forEach(Subscription::close);
		this.subscriptions.clear();
		this.subscribedKeys = null;
		String counted = this.countedKey;
		if (counted != null) {
			this.countedKey = null;
			this.engine.waitingInStore(counted, -1);
		}
	}

	/**
	 * Count as a caller waiting in the store for {@code key}, unless counted already.
	 */
	void countAsWaiting(String key) {
		if (this.countedKey == null) {
			this.countedKey = key;
			this.engine.waitingInStore(key, 1);
		}
	}

	/**
	 * A release was heard.
	 */
	void wokeUp() {
		this.wakeUps++;
	}

	/**
	 * A request is sent: the wake-ups heard from now on come after it.
	 */
	void requestSent() {
		this.wakeUpsAtRequest = this.wakeUps;
	}

	/**
	 * Return whether a release was heard since the last request was sent.
	 */
	boolean wokeSinceRequest() {
		return this.wakeUps != this.wakeUpsAtRequest;
	}

	/**
	 * Arm the re-check, due after {@code delayNanos}.
	 */
	void recheckIn(long delayNanos) {
		this.recheck = this.engine.schedule(this.onRecheck, delayNanos);
	}

	/**
	 * Return whether a re-check is armed.
	 */
	boolean isRecheckArmed() {
		return this.recheck != null;
	}

	/**
	 * The armed re-check ran.
	 */
	void rechecked() {
		this.recheck = null;
	}

	/**
	 * Cancel the armed re-check, if any.
	 */
	void cancelRecheck() {
		cancel(this.recheck);
		this.recheck = null;
	}

	/**
	 * The caller registered as waiting for the key at {@code at} in the store, with the
	 * request just sent.
	 */
	void registered(int at) {
		this.registered.set(at);
	}

	/**
	 * The store took the caller out of its waiters for the key at {@code at} (granted it,
	 * or, for {@code at < 0}, whatever key it waited for).
	 */
	void unregistered(int at) {
		if (at < 0) {
			this.registered.clear();
		}
		else {
			this.registered.clear(at);
		}
	}

	/**
	 * Leave the store's waiters, where registered; a failure is only logged, since the
	 * registration expires on its own.
	 * @param variant the kind of lock
	 * @param cursor the keys and their tokens
	 * @return completed when the store answered
	 */
	CompletionStage<Void> leave(AcquireVariant variant, KeyCursor cursor) {
		return CompletableFuture.allOf(this.registered.stream()
			.mapToObj((at) -> leave(variant, cursor, at).toCompletableFuture())
			.toArray(CompletableFuture[]::new));
	}

	private CompletionStage<Void> leave(AcquireVariant variant, KeyCursor cursor, int at) {
		String key = cursor.entry(at).key;
		String token = cursor.token(at);
		return Stages.send(() -> variant.leave(key, token)).handle((ignored, failure) -> {
			if (failure != null) {
				logger.debug("Could not stop waiting for lock '" + LogSafe.escape(key)
						+ "'; the registration expires on its own", Stages.unwrap(failure));
			}
			return null;
		});
	}

	/**
	 * Cancel the timer tasks and close the subscriptions.
	 */
	void end() {
		cancelRecheck();
		cancel(this.deadlineTask);
		this.deadlineTask = null;
		closeSubscriptions();
	}

	private static void cancel(@Nullable ScheduledFuture<?> task) {
		if (task != null) {
			task.cancel(false);
		}
	}

}
