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

import dev.distlock.LossReason;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Says that a store's locks live as long as its session with the backend, not for a lease
 * of their own: the store cannot expire a lock at a fixed time. A ZooKeeper store is one:
 * a lock is an ephemeral node, deleted by its holder or when the session ends.
 * <p>
 * The client refuses a fixed lease for such a store: a
 * {@link dev.distlock.core.LockClient} call with a {@code leaseTime} throws
 * {@link UnsupportedOperationException} naming the store, and the auto-configuration
 * refuses a locked method with a fixed {@code leaseTime} at startup. Locks without a
 * fixed lease are kept by the watchdog as on every store: the store answers a renewal as
 * renewed only once a round trip to the backend confirmed that the lock's session still
 * lives, and the auto-configuration refuses a watchdog lease longer than
 * {@link #longestLease()}, since the session may end before a lease the holder believes
 * in. When the store can no longer confirm its session (the connection is suspended) it
 * tells the client ({@link #onSessionInterrupted}), which ends the local view of every
 * lease on the store at once.
 * <p>
 * Unlike the other extensions, this one adds no behaviour: it describes a limit, so that
 * the refusal is decided in one place, from a type, rather than by each caller.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface SessionLeaseExtension extends LockStoreExtension {

	/**
	 * Return the session timeout: how long after its client was last heard from the
	 * backend ends the session and frees its locks.
	 * @return the session timeout, more than zero
	 */
	Duration sessionTimeout();

	/**
	 * Return why the lock that {@link LockStore#renew} answered as lost was lost, when
	 * the store knows, for example that its session expired; the holder's
	 * {@link dev.distlock.LockLostException} carries it.
	 * @param key the lock key
	 * @param token the owner token
	 * @return the reason, or {@code null} to use the client's generic one
	 */
	@Nullable String lossReason(String key, String token);

	/**
	 * Return the kind of the loss {@link #lossReason} explains, for example
	 * {@link LossReason#SESSION_EXPIRED} when the session ended.
	 * @param key the lock key
	 * @param token the owner token
	 * @return the kind, or {@code null} for {@link LossReason#TAKEN}
	 */
	default @Nullable LossReason lossKind(String key, String token) {
		return null;
	}

	/**
	 * Return the longest watchdog lease the store keeps safely: a third of
	 * {@link #sessionTimeout()}, so that a holder cut off from the backend stops trusting
	 * its lease well before its session can end.
	 * @return the longest safe watchdog lease
	 */
	default Duration longestLease() {
		return sessionTimeout().dividedBy(3);
	}

	/**
	 * Run {@code listener} each time the store can no longer confirm the session its
	 * locks live in (for ZooKeeper: the connection to the ensemble is suspended). The
	 * client then ends the local view of every lease on this store at once, for good, and
	 * the store answers the next renewal of each of those locks as lost. The listener
	 * does no blocking I/O. By default it never runs.
	 * @param listener what to run, on a thread of the store's
	 * @return the registration, closed to stop calling the listener
	 */
	default LockStore.Subscription onSessionInterrupted(Runnable listener) {
		return () -> {
		};
	}

}
