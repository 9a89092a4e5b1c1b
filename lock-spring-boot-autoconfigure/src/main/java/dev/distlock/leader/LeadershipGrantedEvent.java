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

/**
 * Published when this instance becomes the leader of its {@link Leadership}: it holds the
 * leader lock. Published on the leadership's own thread, so a listener that takes long
 * delays the notice of a loss. <pre class="code">
 * &#064;EventListener
 * void onGranted(LeadershipGrantedEvent event) {
 *     this.scheduler.startJobs(event.getFencingToken());
 * }
 * </pre>
 *
 * @author distlock
 * @since 0.1.0
 * @see LeadershipRevokedEvent
 */
public class LeadershipGrantedEvent extends ApplicationEvent {

	/**
	 * Fencing token of the new term.
	 */
	private final long fencingToken;

	/**
	 * Create a new event.
	 * @param leadership the leadership that was granted
	 * @param fencingToken the fencing token of the leader lock
	 */
	public LeadershipGrantedEvent(Leadership leadership, long fencingToken) {
		super(leadership);
		this.fencingToken = fencingToken;
	}

	/**
	 * Return the leadership that was granted.
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
	 * Return the fencing token of this term, greater than that of every earlier term.
	 * @return the fencing token
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

}
