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

package dev.distlock.autoconfigure.observation;

import dev.distlock.autoconfigure.DistlockProperties;

/**
 * Properties of the distlock.lock observation ({@code distlock.observation.*}), a group
 * of {@link DistlockProperties}.
 *
 * @author distlock
 * @since 0.1.0
 */
public class LockObservationProperties {

	/**
	 * Whether the distlock.lock observation carries the lock key (often a user or order
	 * id) as the high-cardinality key value distlock.key, which reaches spans.
	 */
	private boolean includeKey = false;

	/**
	 * Return whether the observation carries the lock key.
	 * @return whether the key is included
	 */
	public boolean isIncludeKey() {
		return this.includeKey;
	}

	/**
	 * Set whether the observation carries the lock key.
	 * @param includeKey whether the key is included
	 */
	public void setIncludeKey(boolean includeKey) {
		this.includeKey = includeKey;
	}

}
