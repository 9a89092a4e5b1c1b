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

package dev.distlock.annotation;

import java.util.List;
import java.util.stream.IntStream;

import dev.distlock.LogSafe;

import org.springframework.util.Assert;

/**
 * The segment keys of one item: the item's key followed by {@code #} and the segment's
 * index from 0, for example {@code stock:42#0} to {@code stock:42#7} for the item
 * {@code stock:42} in 8 segments. {@code @DistributedLock(segments = 8)} locks one of
 * these keys; pass them to
 * {@link dev.distlock.core.LockClient#acquireAny(String, List, java.time.Duration, java.time.Duration)}
 * to lock one of the same segments in code.
 * <p>
 * An item's key may not hold {@value #SEPARATOR}, so no two items share a segment key. A
 * plain (unsegmented) lock on the item's key does not exclude its segments, nor does a
 * plain key of the form {@code item#0} stay apart from them: keep plain keys free of
 * {@value #SEPARATOR} where items are segmented.
 * <p>
 * Each segment key is a lock key of its own, which the lock store spreads as it spreads
 * any other key.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class SegmentKeys {

	/**
	 * What separates the item's key from the segment's index.
	 */
	public static final String SEPARATOR = "#";

	private SegmentKeys() {
	}

	/**
	 * Return the keys of the segments of {@code key}.
	 * @param key the item's key, not blank and without {@value #SEPARATOR}
	 * @param segments how many segments, at least 1
	 * @return the segment keys, in segment order
	 * @throws IllegalArgumentException if the key is blank or holds {@value #SEPARATOR},
	 * or there is no segment
	 */
	public static List<String> of(String key, int segments) {
		Assert.hasText(key, "'key' must not be blank");
		Assert.isTrue(!key.contains(SEPARATOR), () -> "'key' must not contain '" + SEPARATOR
				+ "', which separates the item from the segment's index, but was " + LogSafe.escape(key));
		Assert.isTrue(segments >= 1, () -> "'segments' must be at least 1, but was " + segments);
		return IntStream.range(0, segments).mapToObj((segment) -> key + SEPARATOR + segment).toList();
	}

}
