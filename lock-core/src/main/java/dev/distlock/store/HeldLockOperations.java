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
import java.util.List;
import java.util.concurrent.CompletionStage;

import dev.distlock.LockBackendException;
import dev.distlock.store.LockStore.Renewal;
import dev.distlock.store.LockStore.RenewalOutcome;

/**
 * The owner-checked operations on a lock once it is held, for one kind of grant: the
 * write locks of {@link LockStore} (which is one), or the shared locks of a
 * {@link ReadLockExtension} ({@link ReadLockExtension#readGrants()}). Each lock the
 * client holds knows the operations of its kind of grant, so that releases, renewals and
 * owner checks go where the grant was made.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface HeldLockOperations {

	/**
	 * Release the lock if {@code token} still owns it, and notify the
	 * {@link LockStore#onRelease(String, Runnable) release listeners} when the key may
	 * have become free.
	 * @param key the lock key
	 * @param token the owner token
	 * @return whether {@code token} owned the lock and no longer does; failed with
	 * {@link LockBackendException} if the backend failed
	 */
	CompletionStage<Boolean> release(String key, String token);

	/**
	 * Keep the lock for at most {@code remaining} more if {@code token} still owns it,
	 * then let it expire: an owner-checked shortening of the lease instead of a release.
	 * @param key the lock key
	 * @param token the owner token
	 * @param remaining how much longer the lock lives, more than zero
	 * @return whether {@code token} owned the lock; failed with
	 * {@link LockBackendException} if the backend failed
	 */
	CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining);

	/**
	 * Extend the lease of every lock that its token still owns; never re-create a lock
	 * that is gone.
	 * @param renewals the locks to renew with their owner tokens
	 * @param lease the new lease, counted from now
	 * @return one outcome per renewal, in the same order; failed with
	 * {@link LockBackendException} if the backend could not renew any part of the batch
	 */
	CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease);

	/**
	 * Return whether {@code token} still owns the lock, asking the authoritative copy (a
	 * primary, never a replica).
	 * @param key the lock key
	 * @param token the owner token
	 * @return whether the backend records {@code token} as the owner; failed with
	 * {@link LockBackendException} if the backend failed
	 */
	CompletionStage<Boolean> isOwner(String key, String token);

}
