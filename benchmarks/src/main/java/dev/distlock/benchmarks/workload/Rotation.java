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

import java.util.ArrayList;
import java.util.List;

/**
 * The order in which a round takes the libraries: every measured round starts with the
 * next library, so none always runs first (on servers a previous library warmed) or last,
 * and a change in a shared machine's load hits every library alike.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class Rotation {

	private Rotation() {
	}

	/**
	 * Return the order of one measured round: the libraries rotated left by the round's
	 * index, so round 0 keeps their order, round 1 starts with the second, and so on.
	 * @param <T> the library type
	 * @param libraries the libraries, in their table order
	 * @param round the round's index, from 0
	 * @return the libraries in the round's order
	 */
	public static <T> List<T> order(List<T> libraries, int round) {
		List<T> ordered = new ArrayList<>(libraries.size());
		for (int i = 0; i < libraries.size(); i++) {
			ordered.add(libraries.get((i + round) % libraries.size()));
		}
		return ordered;
	}

	/**
	 * Return the median of some figures (the lower of the two middle ones for an even
	 * count).
	 * @param figures the figures, at least one
	 * @return the median
	 */
	public static double median(List<Double> figures) {
		List<Double> sorted = new ArrayList<>(figures);
		sorted.sort(null);
		return sorted.get((sorted.size() - 1) / 2);
	}

}
