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

import java.util.List;

/**
 * Thrown when the filter of a segmented acquisition rejected every segment (for example
 * every segment of an item's stock is sold out): no lock was asked for, and the protected
 * code did not run. Unlike {@link LockAcquisitionException}, waiting longer would not
 * help.
 *
 * @author distlock
 * @since 0.1.0
 * @see dev.distlock.core.LockClient#acquireAny
 */
public class NoSegmentAvailableException extends DistributedLockException {

	/**
	 * Number of segments the filter rejected.
	 */
	private final int segments;

	/**
	 * Create a new exception.
	 * @param keys the segment keys, in segment order
	 */
	public NoSegmentAvailableException(List<String> keys) {
		super(keys.get(0),
				"The segment filter rejected every one of the " + keys.size() + " segment keys ('"
						+ LogSafe.escape(keys.get(0)) + "' to '" + LogSafe.escape(keys.get(keys.size() - 1))
						+ "'); no lock was asked for",
				null);
		this.segments = keys.size();
	}

	/**
	 * Return how many segments the filter rejected: all of them.
	 * @return the number of segments
	 */
	public int getSegments() {
		return this.segments;
	}

}
