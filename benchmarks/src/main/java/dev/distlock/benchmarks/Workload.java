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

package dev.distlock.benchmarks;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The workloads of {@link BenchmarkMain}, each selectable by its name in the
 * {@code benchmarks.workloads} system property (lower case, {@code -} for {@code _}), so
 * that one figure can be measured before and after a change without the whole run.
 *
 * @author distlock
 * @since 0.1.0
 */
enum Workload {

	/** Uncontended acquire+release, 1 thread and many threads. */
	UNCONTENDED,

	/** One key across several processes, and distlock with more processes. */
	CONTENDED,

	/** Readers and one writer on one key, and the same with the write lock only. */
	READ_WRITE,

	/** Renewal of read locks on a key held by many readers. */
	READER_RENEWAL,

	/** Many locks held under the watchdog on a standalone Redis. */
	HELD,

	/** Many asynchronous waiters on busy keys. */
	ASYNC_WAITERS,

	/** Many locks held on a three-master Redis Cluster. */
	CLUSTER_RENEWAL,

	/** The annotation's overhead (JMH). */
	ANNOTATION;

	/**
	 * Return the workloads named in {@code names}.
	 * @param names comma-separated names such as {@code read-write,cluster-renewal};
	 * blank for every workload
	 * @return the workloads
	 */
	static Set<Workload> parse(String names) {
		if (names.isBlank()) {
			return EnumSet.allOf(Workload.class);
		}
		return Arrays.stream(names.split(","))
			.map(String::trim)
			.map((name) -> valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_')))
			.collect(Collectors.toCollection(() -> EnumSet.noneOf(Workload.class)));
	}

}
