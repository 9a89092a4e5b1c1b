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

import dev.distlock.core.LockEntry.CohortGrant;
import dev.distlock.store.LocalHandOverExtension;
import org.jspecify.annotations.Nullable;

/**
 * When and how a holder hands its lock to the next caller of its own client without any
 * store request ({@link LocalHandOverExtension}): the store keeps seeing the same owner
 * token, and the next caller gets a new lease under that token with the fencing token
 * plus one.
 * <p>
 * The policy: a renewable write lock, not lost, whose renewals do not fail, with a local
 * caller waiting, at least half a watchdog lease of local view left, and room left for
 * one more local fencing token. At most {@link #RUN} hand-overs in a row go without a
 * request: the next one goes through the store's hand-over, which tells whether another
 * client waits (and the first hand-over after a store grant does too). So the rule that
 * ends a run of hand-overs while another client waits in a release and a yield still
 * holds, counted in store hand-overs, and other clients still get in.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LocalHandOver {

	/**
	 * How many hand-overs in a row go without a request between two that go through the
	 * store.
	 */
	static final int RUN = 7;

	private final LockEngine engine;

	private final @Nullable LocalHandOverExtension extension;

	private final long room;

	LocalHandOver(LockEngine engine) {
		this.engine = engine;
		this.extension = (engine.extensions.handOver() != null) ? engine.store.extension(LocalHandOverExtension.class)
				: null;
		long room = (this.extension != null) ? this.extension.fenceRoom() : 0;
		if (this.extension != null && room < 2) {
			throw new IllegalStateException(
					"The lock store " + engine.store.getClass().getName() + " spaces its fencing tokens by " + room
							+ ", less than the 2 a hand-over without a request needs");
		}
		this.room = room;
	}

	/**
	 * Return whether the holder of {@code lease} may hand its lock over to the next local
	 * caller without a request, by the policy of this class.
	 */
	boolean mayHandOver(Lease lease) {
		LockEntry entry = lease.entry;
		return this.extension != null && entry.ownership == this.engine.writes && lease.renewable
				&& lease.sinceReading < RUN && !lease.renewalFailing && lease.lossReason() == null
				&& hasRoom(lease.fencingToken) && !entry.emptied && entry.queue.waitingCount() > 0
				&& !this.engine.isClosed()
				&& lease.remaining().compareTo(this.engine.settings.watchdogLease().dividedBy(2)) >= 0;
	}

	/**
	 * Return whether {@code fencingToken + 1} is still a local fencing token of the same
	 * store grant: below the next multiple of the room.
	 */
	private boolean hasRoom(long fencingToken) {
		return fencingToken >= 0 && fencingToken % this.room < this.room - 1;
	}

	/**
	 * Return the grant the next local caller takes over: the same owner token, the
	 * fencing token plus one, valid no longer than the holder's local view, one more
	 * hand-over without a request.
	 * @param lease the holder's grant, ended locally
	 * @return the grant to pass on with the local turn
	 */
	CohortGrant handOver(Lease lease) {
		return new CohortGrant(lease.token, lease.fencingToken + 1, this.engine.settings.watchdogLease(),
				System.nanoTime(), lease.handOffs, lease.sinceReading + 1, lease.validUntilNanos());
	}

}
