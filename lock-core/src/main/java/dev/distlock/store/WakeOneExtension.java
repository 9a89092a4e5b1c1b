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
package dev.distlock.store;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

import dev.distlock.LockBackendException;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.LockStore.Subscription;

/**
 * A release wakes one waiting client instead of all: a client refused while it waits
 * registers, and a {@link LockStore#release release} wakes at most one registered client
 * (removing its registration). Listeners of {@link LockStore#onRelease(String, Runnable)}
 * still hear every release. Without this extension every waiting client hears every
 * release and tries again.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface WakeOneExtension extends LockStoreExtension {

	/**
	 * Take the lock as {@link LockStore#tryAcquire(String, String, Duration)} does, for a
	 * client that waits for a release when refused: a refusal registers {@code waiter}
	 * (for {@code waiterTtl}, refreshed by every refused attempt) so that a release can
	 * wake that client alone; a grant removes the registration.
	 * @param key the lock key
	 * @param token the owner token to store, unique per acquisition
	 * @param lease how long the lock lives unless renewed or released
	 * @param waiter the waiting client's id, which its
	 * {@link #onRelease(String, String, Runnable) listener} names
	 * @param waiterTtl how long the registration lasts unless refreshed
	 * @return the grant, or how long the current holder's lease has left; failed with
	 * {@link LockBackendException} if the backend failed
	 */
	CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease, String waiter, Duration waiterTtl);

	/**
	 * Call {@code listener} when a release may have made the lock on {@code key}
	 * available to {@code waiter}: a release that wakes it, one that wakes everyone (a
	 * forced release, a release with nobody registered), and a lost notification channel
	 * restored. The listener must not block.
	 * @param key the lock key
	 * @param waiter the waiting client's id
	 * @param listener what to run
	 * @return the subscription; close it when no longer waiting
	 */
	Subscription onRelease(String key, String waiter, Runnable listener);

	/**
	 * Stop waiting: drop the registration of {@code waiter}.
	 * @param key the lock key
	 * @param waiter the waiting client's id
	 * @return a stage completed when the registration is gone; it fails with
	 * {@link LockBackendException} if the backend failed
	 */
	CompletionStage<Void> leave(String key, String waiter);

}
