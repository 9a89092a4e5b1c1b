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

import dev.distlock.store.LockStore;
import java.util.List;

/**
 * Hears what a {@link DefaultLockClient} does, for metrics, tracing or logs; every method
 * does nothing by default. Backend-neutral: no type of a metrics or tracing library
 * appears here.
 * <p>
 * The client calls {@link #acquisitionStarted(String, String)} when a caller asks for a
 * lock; the {@link LockTracker} it returns follows that one acquisition to its outcome
 * and, when granted, the hold until it ends. Re-entries of a thread-bound lock the thread
 * already holds are not reported: they neither wait nor talk to the store. The watchdog
 * reports each renewal batch with {@link #renewalBatchFinished(RenewalBatch)}.
 * <p>
 * {@code acquisitionStarted} is called on the caller's thread. Every other call (the
 * tracker's, and the renewal batches) is made on the client's listener thread
 * ({@code distlock-<id>-listener}), one at a time in the order the client saw the events,
 * never on a thread that completes grants, renews leases or reads the store's replies; a
 * caller learns of an outcome only after the listener was told of it. A slow listener
 * thus delays the callers whose outcome it hears, never a renewal; a listener must not
 * wait for the lock client. An exception a listener throws is logged and does not affect
 * the lock.
 *
 * @author distlock
 * @since 0.1.0
 * @see DefaultLockClient#DefaultLockClient(LockStore, LockClientSettings,
 * LockClientListener)
 */
public interface LockClientListener {

	/**
	 * A listener that does nothing.
	 */
	LockClientListener NONE = new LockClientListener() {
	};

	/**
	 * Called when a caller starts to acquire a lock.
	 * @param name the low-cardinality name of the lock, for example
	 * {@code "OrderService.placeOrder"}, or {@link LockClient#UNNAMED}
	 * @param key the lock key (high cardinality)
	 * @return the tracker of this acquisition and its hold, or {@link LockTracker#NONE}
	 */
	default LockTracker acquisitionStarted(String name, String key) {
		return LockTracker.NONE;
	}

	/**
	 * Called after each call of the watchdog to the store to renew a batch of leases.
	 * @param batch what the batch renewed, how long it took and what failed
	 */
	default void renewalBatchFinished(RenewalBatch batch) {
	}

	/**
	 * Return a listener that calls each of {@code listeners} in turn.
	 * @param listeners the listeners
	 * @return the composite listener, or {@link #NONE} for an empty list
	 */
	static LockClientListener composite(List<? extends LockClientListener> listeners) {
		if (listeners.isEmpty()) {
			return NONE;
		}
		if (listeners.size() == 1) {
			return listeners.get(0);
		}
		return new CompositeLockClientListener(List.copyOf(listeners));
	}

}
