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

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The most recent releases of an {@link InMemoryLockStore}, write and read grants alike,
 * so that a replayed release answers as the first did: owner tokens are unique per
 * acquisition, so a pair of key and token released once is never granted again. Bounded:
 * the oldest release is forgotten first.
 *
 * @author distlock
 */
final class InMemoryReleases {

	private static final int REMEMBERED = 1024;

	private final Map<Released, Boolean> released = new LinkedHashMap<>() {

		@Override
		protected boolean removeEldestEntry(Map.Entry<Released, Boolean> eldest) {
			return size() > REMEMBERED;
		}

	};

	/**
	 * Remember that {@code token} released {@code key}.
	 */
	void released(String key, String token) {
		this.released.put(new Released(key, token), Boolean.TRUE);
	}

	/**
	 * Return whether {@code token} released {@code key} recently.
	 */
	boolean wasReleased(String key, String token) {
		return this.released.containsKey(new Released(key, token));
	}

	private record Released(String key, String token) {
	}

}
