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

package dev.distlock.leader;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

import dev.distlock.core.LockHold;

/**
 * Whether this instance leads among the instances that share a leadership name and a lock
 * store. An instance leads while it holds the watchdog-renewed lock on
 * {@link #key(String) leader:&lt;name&gt;}; it learns of it from a
 * {@link LeadershipGrantedEvent}, and of its end from a {@link LeadershipRevokedEvent},
 * published before the lock is given back. <pre class="code">
 * if (leadership.isLeader()) {
 *     reports.publish(leadership.fencingToken().getAsLong());
 * }
 * </pre> Leading is no proof of holding the lock at the instant of a write (a pause
 * longer than the lease, a key deleted in the store): pass the {@link #fencingToken()
 * fencing token} to the resource, which refuses a token older than the last it saw.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface Leadership {

	/**
	 * Return the lock key of the leadership {@code name}: {@code leader:<name>}, under
	 * the store's own key prefix.
	 * @param name the leadership name
	 * @return the lock key
	 */
	static String key(String name) {
		return "leader:" + name;
	}

	/**
	 * Return the name of this leadership, shared by the instances that compete for it.
	 * @return the name
	 */
	String name();

	/**
	 * Return whether this instance leads now: it holds the lock and the lock's lease, as
	 * this instance sees it, has not run out. Does not talk to the store.
	 * @return whether this instance leads
	 */
	boolean isLeader();

	/**
	 * Give up the leadership if this instance leads: publish a
	 * {@link LeadershipRevokedEvent}, release the lock, and campaign again only after
	 * twice the retry interval, so that another instance takes over. Returns once the
	 * event was published. Does nothing if this instance does not lead.
	 */
	void yieldLeadership();

	/**
	 * Return the fencing token of this instance's term as leader, to pass to guarded
	 * writes: it is greater than the token of every earlier term.
	 * @return the token, or empty if this instance does not lead
	 */
	OptionalLong fencingToken();

	/**
	 * Return the hold of the leader lock, for example to
	 * {@link LockHold#confirmOwnership() confirm ownership} in the store before a write.
	 * Do not release it: {@link #yieldLeadership() yield} instead.
	 * @return the hold, or empty if this instance does not lead
	 */
	Optional<LockHold> hold();

	/**
	 * Return since when this instance leads.
	 * @return when the leadership was granted, or empty if this instance does not lead
	 */
	Optional<Instant> leaderSince();

}
