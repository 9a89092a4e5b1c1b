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

import org.springframework.context.ApplicationEvent;
import org.springframework.util.Assert;

/**
 * Published when this instance stops leading, before another instance can be granted the
 * leadership where this instance can tell: on a {@link Reason#YIELDED yield} and at
 * {@link Reason#STOPPED shutdown} before the lock is released, on a {@link Reason#LOST
 * loss} as soon as the lock is found lost or its lease has run out as this instance sees
 * it. {@link Leadership#isLeader()} is already {@code false} when it is published.
 * <pre class="code">
 * &#064;EventListener
 * void onRevoked(LeadershipRevokedEvent event) {
 *     this.scheduler.stopJobs();
 * }
 * </pre>
 *
 * @author distlock
 * @since 0.1.0
 * @see LeadershipGrantedEvent
 */
public class LeadershipRevokedEvent extends ApplicationEvent {

	/**
	 * Fencing token of the term that ended.
	 */
	private final long fencingToken;

	/**
	 * Why the term ended.
	 */
	private final Reason reason;

	/**
	 * Create a new event.
	 * @param leadership the leadership that was revoked
	 * @param fencingToken the fencing token of the term that ended
	 * @param reason why it ended
	 */
	public LeadershipRevokedEvent(Leadership leadership, long fencingToken, Reason reason) {
		super(leadership);
		Assert.notNull(reason, "'reason' must not be null");
		this.fencingToken = fencingToken;
		this.reason = reason;
	}

	/**
	 * Return the leadership that was revoked.
	 * @return the leadership
	 */
	public Leadership getLeadership() {
		return (Leadership) getSource();
	}

	/**
	 * Return the name of the leadership.
	 * @return the name
	 */
	public String getName() {
		return getLeadership().name();
	}

	/**
	 * Return the fencing token of the term that ended.
	 * @return the fencing token
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

	/**
	 * Return why the term ended.
	 * @return the reason
	 */
	public Reason getReason() {
		return this.reason;
	}

	/**
	 * Why a term as leader ended.
	 */
	public enum Reason {

		/**
		 * The leader lock was found lost (taken, force-released, the client closed) or
		 * its lease ran out while renewals failed.
		 */
		LOST,

		/**
		 * The application called {@link Leadership#yieldLeadership()}.
		 */
		YIELDED,

		/**
		 * The application is shutting down.
		 */
		STOPPED

	}

}
