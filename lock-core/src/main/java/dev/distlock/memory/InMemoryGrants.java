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

package dev.distlock.memory;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.distlock.store.LocalHandOverExtension;
import dev.distlock.store.LockStore.Attempt;
import org.jspecify.annotations.Nullable;

/**
 * The writers' grants of an {@link InMemoryLockStore}, per key: the owner token with the
 * end of its lease (or none, for a grant that never expires) and its fencing token. A
 * grant whose lease has ended is dropped when it is next read, and nothing of a key is
 * kept once its grant is gone: fencing tokens come from one counter for every key, so
 * they rise per key without a counter per key ever locked. The counter steps by
 * {@link LocalHandOverExtension#DEFAULT_FENCE_ROOM}, the room a client's hand-overs
 * without a request fill (it would take 2<sup>47</sup> grants to overflow; the grant then
 * fails).
 * <p>
 * It does not know the readers: the store asks {@link InMemoryReadLocks} too. Not
 * thread-safe: the store calls it under its monitor only.
 *
 * @author distlock
 * @since 0.1.0
 */
final class InMemoryGrants {

	private static final long NEVER = Long.MAX_VALUE;

	private final Map<String, Grant> grants = new HashMap<>();

	private long lastFence;

	/**
	 * Return the live grant of {@code key}, dropping it if its lease has ended, or
	 * {@code null} if there is none.
	 */
	@Nullable Grant live(String key) {
		Grant grant = this.grants.get(key);
		if (grant != null && grant.expired()) {
			this.grants.remove(key);
			return null;
		}
		return grant;
	}

	/**
	 * Return whether {@code token} holds the live grant of {@code key}.
	 */
	boolean isHeldBy(String key, String token) {
		Grant grant = live(key);
		return grant != null && grant.token().equals(token);
	}

	/**
	 * Grant {@code key} to {@code token} for {@code lease}, with the key's next fencing
	 * token.
	 * @return the fencing token of the grant
	 */
	long grant(String key, String token, Duration lease) {
		long fence = Math.addExact(this.lastFence, LocalHandOverExtension.DEFAULT_FENCE_ROOM);
		this.lastFence = fence;
		this.grants.put(key, new Grant(token, System.nanoTime() + lease.toNanos(), fence));
		return fence;
	}

	/**
	 * Let the grant of {@code key} to {@code token} end {@code remaining} from now, its
	 * fencing token unchanged.
	 */
	void extend(String key, String token, Duration remaining) {
		this.grants.put(key, new Grant(token, System.nanoTime() + remaining.toNanos(), lastFence(key)));
	}

	/**
	 * Grant {@code key} to {@code owner} without expiry and without a fencing token, as
	 * an owner the store does not serve would hold it.
	 */
	void grantForever(String key, String owner) {
		this.grants.put(key, new Grant(owner, NEVER, 0));
	}

	/**
	 * Drop the grant of {@code key}, if any.
	 */
	void remove(String key) {
		this.grants.remove(key);
	}

	/**
	 * Return the fencing token of the live grant of {@code key}, {@code 0} if it has none
	 * (the key is free, or held by an owner the store does not serve).
	 */
	long lastFence(String key) {
		Grant grant = live(key);
		return (grant != null) ? grant.fence() : 0;
	}

	/**
	 * Return how many keys it keeps anything for: the keys with a grant, live or not yet
	 * dropped.
	 */
	int keysKept() {
		return this.grants.size();
	}

	/**
	 * A grant: its owner token, the end of its lease on the JVM's monotonic clock
	 * ({@link #NEVER} for none) and its fencing token ({@code 0} for none).
	 */
	record Grant(String token, long expiresAtNanos, long fence) {

		boolean expired() {
			return this.expiresAtNanos != NEVER && System.nanoTime() - this.expiresAtNanos >= 0;
		}

		/**
		 * Return the time left of the lease, {@code null} for a grant that never expires.
		 */
		@Nullable Duration remaining() {
			return (this.expiresAtNanos == NEVER) ? null
					: Duration.ofNanos(Math.max(0, this.expiresAtNanos - System.nanoTime()));
		}

		/**
		 * Return the refusal a writer other than this grant's owner gets.
		 */
		Attempt refusal() {
			return Attempt.busy(remaining());
		}

	}

}
