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

package dev.distlock.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of leadership ({@code distlock.leader.*}): one instance per
 * name leads at a time, on the configured lock store.
 *
 * @author distlock
 * @since 0.1.0
 */
@ConfigurationProperties("distlock.leader")
public class LeadershipProperties {

	/**
	 * Whether this instance campaigns for leadership, with a Leadership bean, its events
	 * and @LeaderOnly methods.
	 */
	private boolean enabled = false;

	/**
	 * Name of the leadership, shared by the instances that compete for it; the leader
	 * holds the lock on leader:<name>. Unset, spring.application.name.
	 */
	private @Nullable String name;

	/**
	 * How long an instance that does not lead waits between two attempts to take the
	 * leader lock.
	 */
	private Duration retryInterval = Duration.ofSeconds(2);

	/**
	 * Return whether this instance campaigns for leadership.
	 * @return whether leadership is enabled
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Set whether this instance campaigns for leadership.
	 * @param enabled whether leadership is enabled
	 */
	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * Return the name of the leadership.
	 * @return the name, or {@code null} for {@code spring.application.name}
	 */
	public @Nullable String getName() {
		return this.name;
	}

	/**
	 * Set the name of the leadership.
	 * @param name the name
	 */
	public void setName(@Nullable String name) {
		this.name = name;
	}

	/**
	 * Return how long a non-leader waits between two attempts.
	 * @return the retry interval
	 */
	public Duration getRetryInterval() {
		return this.retryInterval;
	}

	/**
	 * Set how long a non-leader waits between two attempts.
	 * @param retryInterval the retry interval
	 */
	public void setRetryInterval(Duration retryInterval) {
		this.retryInterval = retryInterval;
	}

}
