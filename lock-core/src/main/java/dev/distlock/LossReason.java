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

package dev.distlock;

import java.util.Locale;

/**
 * Why a held lock was lost: the kind a {@link dev.distlock.core.LockTracker} is told, and
 * what {@link dev.distlock.core.LockHold#whenLost()} and
 * {@link dev.distlock.core.LockHandle#whenLost()} complete with. A normal release is
 * never a loss.
 *
 * @author distlock
 * @since 0.1.0
 * @see dev.distlock.core.LockTracker#lost(LossReason)
 */
public enum LossReason {

	/**
	 * Its lease ran out before it was renewed or released: a fixed lease shorter than the
	 * work (noticed when the fixed lease runs out), or a holder paused past its lease.
	 */
	EXPIRED,

	/**
	 * The store no longer records this holder as the owner: the key was deleted, evicted
	 * or expired there, or another owner has it.
	 */
	TAKEN,

	/**
	 * Its lease ran out while the watchdog could not renew it because the store failed or
	 * timed out: noticed when the holder's view of the lease runs out, no longer renewed
	 * from then on.
	 */
	BACKEND,

	/**
	 * The client was closed while the lock was held.
	 */
	CLOSED,

	/**
	 * An operator force-released it (see
	 * {@link dev.distlock.core.DefaultLockClient#forceRelease(String)}).
	 */
	FORCED,

	/**
	 * It was held longer than the client's maximum hold
	 * ({@link dev.distlock.core.LockClientSettings#maxHold()},
	 * {@code distlock.max-hold}): no longer renewed, it expires with its lease.
	 */
	MAX_HOLD,

	/**
	 * The store's session with its backend ended, and the lock with it (a ZooKeeper
	 * session that expired, see
	 * {@link dev.distlock.store.SessionLeaseExtension#lossKind}).
	 */
	SESSION_EXPIRED;

	/**
	 * Return the lower-case name used as a metric tag, for example {@code "taken"} or
	 * {@code "max-hold"}.
	 * @return the tag value
	 */
	public String tagValue() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

}
