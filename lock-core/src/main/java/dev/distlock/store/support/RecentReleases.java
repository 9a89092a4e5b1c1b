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

package dev.distlock.store.support;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.util.Assert;

/**
 * The most recent releases a store made, so that a replayed release (a client re-sends a
 * request whose reply was lost) answers as the first did, for a store whose backend keeps
 * no trace of a released lock. Owner tokens are unique per acquisition, so a key and
 * token released once are never granted again. Bounded: the oldest release is forgotten
 * first. Thread-safe.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class RecentReleases {

	private final Map<Released, Boolean> released;

	/**
	 * Create a record of the last {@code remembered} releases.
	 * @param remembered how many releases to remember, more than zero
	 */
	public RecentReleases(int remembered) {
		Assert.isTrue(remembered > 0, () -> "'remembered' must be positive, but was " + remembered);
		this.released = new LinkedHashMap<>() {

			@Override
			protected boolean removeEldestEntry(Map.Entry<Released, Boolean> eldest) {
				return size() > remembered;
			}

		};
	}

	/**
	 * Remember that {@code token} released {@code key}.
	 * @param key the lock key
	 * @param token the owner token that released it
	 */
	public synchronized void released(String key, String token) {
		this.released.put(new Released(key, token), Boolean.TRUE);
	}

	/**
	 * Return whether {@code token} released {@code key} recently.
	 * @param key the lock key
	 * @param token the owner token
	 * @return whether that release is remembered
	 */
	public synchronized boolean wasReleased(String key, String token) {
		return this.released.containsKey(new Released(key, token));
	}

	private record Released(String key, String token) {
	}

}
