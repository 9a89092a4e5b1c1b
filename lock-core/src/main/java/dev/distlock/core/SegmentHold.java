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

/**
 * A {@link LockHold} on exactly one of several keys, as
 * {@link LockClient#acquireAny(String, java.util.List, java.time.Duration, java.time.Duration)}
 * grants it: {@link #key()} is the key held and {@link #segment()} its index in the list
 * the caller passed. <pre class="code">
 * try (SegmentHold hold = lockClient.acquireAny("stock", segmentKeys, Duration.ofSeconds(2), null)) {
 *     stock.decrement(voucherId, hold.segment());
 * }
 * </pre>
 *
 * @author distlock
 * @since 0.1.0
 */
public interface SegmentHold extends LockHold {

	/**
	 * Return the index of the held key in the list of keys asked for.
	 * @return the segment, from 0
	 */
	int segment();

	/**
	 * Release the segment, found empty: the callers of this client queued for it move on
	 * to their other segments at once, without asking the store for this one, and a
	 * caller left without a segment runs its filter again on fresh stock (so it gets
	 * {@link dev.distlock.NoSegmentAvailableException} only if the filter then rejects
	 * every segment). As {@link #release()} otherwise.
	 * @throws dev.distlock.LockLostException if the lock was lost meanwhile
	 * @since 0.1.0
	 */
	void releaseEmpty();

}
