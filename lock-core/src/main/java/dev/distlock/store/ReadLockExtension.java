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
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.LockStore.Renewal;
import dev.distlock.store.LockStore.RenewalOutcome;

/**
 * Shared read locks: many readers hold a key at once, and a writer (a lock of
 * {@link LockStore#tryAcquire}) waits until they have left. A read grant is released,
 * shortened, renewed and checked with this extension's own methods, never with the
 * required ones of {@link LockStore}, which act on write locks only.
 * <p>
 * A writer waiting for readers keeps new readers out: a refused writer leaves a mark that
 * refuses readers until the writer gets in, or for a short while if it gave up.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface ReadLockExtension extends LockStoreExtension {

	/**
	 * Take a shared read lock on {@code key} for {@code lease}: granted unless a writer
	 * holds the key or a writer is waiting for the current readers to leave. Each reader
	 * has its own lease; a reader whose lease ended no longer keeps writers out, even
	 * while other readers renew theirs. Read grants carry no fencing token.
	 * @param key the lock key as the application named it
	 * @param token the reader's owner token, unique per acquisition
	 * @param lease how long the read lock lives unless renewed or released
	 * @return the grant (fencing token {@code 0}), or how long the writer's lease (or the
	 * waiting writer's mark) has left; failed with {@link LockBackendException} if the
	 * backend failed (the lock may or may not have been taken, so the caller releases
	 * {@code token} once the backend answers again)
	 */
	CompletionStage<Attempt> tryAcquireRead(String key, String token, Duration lease);

	/**
	 * Release the read lock {@code token} holds on {@code key}, if it still does, and
	 * notify the {@link LockStore#onRelease release listeners} when the last reader left.
	 * @param key the lock key
	 * @param token the reader's owner token
	 * @return whether {@code token} held a read lock on {@code key} and no longer does;
	 * failed with {@link LockBackendException} if the backend failed
	 */
	CompletionStage<Boolean> releaseRead(String key, String token);

	/**
	 * Keep the read lock for at most {@code remaining} more if {@code token} still holds
	 * it, then let it expire.
	 * @param key the lock key
	 * @param token the reader's owner token
	 * @param remaining how much longer the read lock lives, more than zero
	 * @return whether {@code token} held a read lock on {@code key}; failed with
	 * {@link LockBackendException} if the backend failed
	 */
	CompletionStage<Boolean> expireReadAfter(String key, String token, Duration remaining);

	/**
	 * Extend the lease of every read lock that its token still holds, as
	 * {@link LockStore#renew} does for write locks.
	 * @param renewals the read locks to renew with their owner tokens
	 * @param lease the new lease, counted from now
	 * @return one outcome per renewal, in the same order; failed with
	 * {@link LockBackendException} if the backend could not renew any part of the batch
	 */
	CompletionStage<List<RenewalOutcome>> renewRead(List<Renewal> renewals, Duration lease);

	/**
	 * Return whether {@code token} still holds a read lock on {@code key}, asking the
	 * authoritative copy.
	 * @param key the lock key
	 * @param token the reader's owner token
	 * @return whether the backend records the read lock; failed with
	 * {@link LockBackendException} if the backend failed
	 */
	CompletionStage<Boolean> isReadOwner(String key, String token);

}
