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
import dev.distlock.store.ReadLockExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

import dev.distlock.store.LockStore.Renewal;
import dev.distlock.store.LockStore.RenewalOutcome;

/**
 * The store operations on a grant once it is held, for one kind of grant: the write locks
 * of the required {@link LockStore} operations, or the shared locks of a
 * {@link ReadLockExtension}. Every {@link Lease} knows its own, so that releases,
 * renewals and owner checks go where its grant was made.
 *
 * @author distlock
 * @since 0.1.0
 */
interface Ownership {

	CompletionStage<Boolean> release(String key, String token);

	CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining);

	CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease);

	CompletionStage<Boolean> isOwner(String key, String token);

	/**
	 * Return the operations on the write locks of {@code store}.
	 */
	static Ownership exclusive(LockStore store) {
		return new Ownership() {

			@Override
			public CompletionStage<Boolean> release(String key, String token) {
				return store.release(key, token);
			}

			@Override
			public CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
				return store.expireAfter(key, token, remaining);
			}

			@Override
			public CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
				return store.renew(renewals, lease);
			}

			@Override
			public CompletionStage<Boolean> isOwner(String key, String token) {
				return store.isOwner(key, token);
			}

		};
	}

	/**
	 * Return the operations on the read locks of {@code extensions}; a store without read
	 * locks refuses them (no read grant is ever made there).
	 */
	static Ownership shared(StoreExtensions extensions) {
		return new Ownership() {

			@Override
			public CompletionStage<Boolean> release(String key, String token) {
				return readLocks().releaseRead(key, token);
			}

			@Override
			public CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
				return readLocks().expireReadAfter(key, token, remaining);
			}

			@Override
			public CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
				return readLocks().renewRead(renewals, lease);
			}

			@Override
			public CompletionStage<Boolean> isOwner(String key, String token) {
				return readLocks().isReadOwner(key, token);
			}

			private ReadLockExtension readLocks() {
				return extensions.required(extensions.readLocks(), ReadLockExtension.class, "read-lock");
			}

		};
	}

}
