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
import java.util.function.Consumer;

import dev.distlock.LockBackendException;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.LockStore.FairGrant;
import dev.distlock.store.LockStore.Subscription;
import org.jspecify.annotations.Nullable;

/**
 * Fair locks: callers get a key in the order they started waiting for it, each with its
 * own place in the store's queue. While live waiters are queued for a key, a
 * {@link LockStore#release release} of it grants the lock to the head of the queue and
 * wakes that waiter alone; with nobody queued it frees the key as usual.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface FairQueueExtension extends LockStoreExtension {

	/**
	 * Take the lock in arrival order. If a release granted the lock to {@code token} (it
	 * waits in the queue), claim it: extend it to {@code lease} and return the grant's
	 * fencing token. Else take it if it is free and the queue is empty or headed by
	 * {@code token}; if it is free and another live waiter heads the queue, grant it to
	 * that waiter for its grant timeout and wake it. When not acquired and
	 * {@code grantTimeout} is given, join the queue's tail (first time only) and count as
	 * alive for {@code grantTimeout} more: a waiter that does not attempt again within
	 * its grant timeout is skipped, and a grant to it that it does not claim within the
	 * grant timeout expires.
	 * @param key the lock key
	 * @param token the owner token, unique per acquisition, which is also the waiter's
	 * place in the queue
	 * @param lease how long the lock lives unless renewed or released
	 * @param grantTimeout how long the waiter stays alive in the queue and a grant to it
	 * waits to be claimed, or {@code null} to not join the queue
	 * @return the grant, or how long the current holder's (or granted waiter's) lease has
	 * left, with the store's clock when the store can tell it
	 * ({@link Attempt#storeClockMillis()}: a store whose wake-ups carry grants must);
	 * failed with {@link LockBackendException} if the backend failed
	 */
	CompletionStage<Attempt> tryAcquireFair(String key, String token, Duration lease, @Nullable Duration grantTimeout);

	/**
	 * Leave the queue of {@code key}: drop {@code token}'s place; if a release granted it
	 * the lock meanwhile, release that grant and hand the lock on.
	 * @param key the lock key
	 * @param token the fair waiter's token
	 * @return a stage completed when the waiter has left; it fails with
	 * {@link LockBackendException} if the backend failed
	 */
	CompletionStage<Void> leaveFairQueue(String key, String token);

	/**
	 * Call {@code listener} when a release may have made the lock on {@code key}
	 * available to the fair waiter {@code token}: a release that granted it the lock, one
	 * that wakes everyone (a forced release), and a lost notification channel restored. A
	 * wake-up that carries its grant passes it: its fencing token and when, on the
	 * store's clock, it was made, so that the waiter holds the lock without asking the
	 * store again; any other wake-up passes {@code null}, and a store whose wake-ups
	 * never carry grants always does. The listener must not block.
	 * @param key the lock key
	 * @param token the fair waiter's token
	 * @param listener what to run, with the grant if the wake-up carries one
	 * @return the subscription; close it when no longer waiting
	 */
	Subscription onFairWakeUp(String key, String token, Consumer<@Nullable FairGrant> listener);

}
