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

package dev.distlock.benchmarks.workload;

import java.util.Arrays;

/**
 * A growable list of primitive longs, so recording samples does not allocate per sample.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LongList {

	private long[] values = new long[1024];

	private int size;

	void add(long value) {
		if (this.size == this.values.length) {
			this.values = Arrays.copyOf(this.values, this.size * 2);
		}
		this.values[this.size++] = value;
	}

	int size() {
		return this.size;
	}

	long get(int index) {
		return this.values[index];
	}

	long[] toArray() {
		return Arrays.copyOf(this.values, this.size);
	}

}
