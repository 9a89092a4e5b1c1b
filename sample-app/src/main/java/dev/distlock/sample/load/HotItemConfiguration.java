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

package dev.distlock.sample.load;

/**
 * How the stock of a hot-item voucher is taken: by a conditional {@code UPDATE} without a
 * stock lock (the baseline), or over segment rows each taken under its segment's lock.
 *
 * @param segments the number of segments, 1 to 64
 * @param stockLocks whether the stock is taken under segment locks; {@code false} only
 * with 1 segment
 * @author distlock
 * @since 0.1.0
 */
public record HotItemConfiguration(int segments, boolean stockLocks) {

	/**
	 * The baseline: 1 segment, a conditional {@code UPDATE ... WHERE stock > 0}, no stock
	 * lock.
	 */
	public static final HotItemConfiguration BASELINE = new HotItemConfiguration(1, false);

	/**
	 * Create a configuration.
	 * @param segments the number of segments, 1 to 64
	 * @param stockLocks whether the stock is taken under segment locks
	 */
	public HotItemConfiguration {
		if (segments < 1 || segments > 64) {
			throw new IllegalArgumentException("'segments' must be 1 to 64, but was " + segments);
		}
		if (!stockLocks && segments > 1) {
			throw new IllegalArgumentException("Segments without stock locks: " + segments);
		}
	}

	/**
	 * Return a configuration of segment locks.
	 * @param segments the number of segments
	 * @return the configuration
	 */
	public static HotItemConfiguration segments(int segments) {
		return new HotItemConfiguration(segments, true);
	}

	/**
	 * Return the name of the configuration in the table.
	 * @return the name
	 */
	public String name() {
		if (!this.stockLocks) {
			return "no lock (conditional UPDATE)";
		}
		return (this.segments == 1) ? "1 segment" : this.segments + " segments";
	}

}
