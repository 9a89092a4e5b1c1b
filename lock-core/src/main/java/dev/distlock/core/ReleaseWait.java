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
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.function.IntFunction;

import dev.distlock.core.LockStore.Subscription;
import org.jspecify.annotations.Nullable;

/**
 * What a refused {@link Acquisition} waits with: its subscriptions to the releases that
 * may let it in, its count as one of the client's callers waiting in the store, the
 * wake-ups heard, and its one re-check task on the engine's timer. Read and changed only
 * by the event an acquisition is processing.
 *
 * @author distlock
 * @since 0.1.0
 */
final class ReleaseWait {

	private final LockEngine engine;

	private final List<Subscription> subscriptions = new ArrayList<>();

	/** The keys whose subscriptions are open, if any. */
	private @Nullable List<Integer> subscribedKeys;

	/** The key the acquisition is counted as waiting in the store for, if any. */
	private @Nullable String countedKey;

	private long wakeUps;

	private long wakeUpsAtRequest;

	private @Nullable ScheduledFuture<?> recheck;

	ReleaseWait(LockEngine engine) {
		this.engine = engine;
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
	 * Arm the re-check: {@code task} runs on the engine's timer after {@code delayNanos}.
	 */
	void recheckIn(long delayNanos, Runnable task) {
		this.recheck = this.engine.schedule(task, delayNanos);
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
		ScheduledFuture<?> armed = this.recheck;
		if (armed != null) {
			armed.cancel(false);
		}
		this.recheck = null;
	}

}
