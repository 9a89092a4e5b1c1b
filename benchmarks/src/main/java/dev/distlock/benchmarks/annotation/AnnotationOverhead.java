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

package dev.distlock.benchmarks.annotation;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link AnnotationOverheadBenchmark} with JMH in one forked JVM that gets the same
 * options as this one.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class AnnotationOverhead {

	private AnnotationOverhead() {
	}

	/**
	 * Run the benchmark.
	 * @param jvmArgs options of the forked JVM
	 * @param iterationSeconds length of each warm-up and measurement iteration
	 * @return benchmark method name to average nanoseconds per call
	 * @throws RunnerException if JMH fails
	 */
	public static Map<String, Double> measure(Collection<String> jvmArgs, int iterationSeconds) throws RunnerException {
		Options options = new OptionsBuilder().include(AnnotationOverheadBenchmark.class.getName() + "\\.")
			.forks(1)
			.jvmArgs(jvmArgs.toArray(String[]::new))
			.warmupIterations(3)
			.warmupTime(TimeValue.seconds(iterationSeconds))
			.measurementIterations(5)
			.measurementTime(TimeValue.seconds(iterationSeconds))
			.build();
		Map<String, Double> nanosPerCall = new TreeMap<>();
		for (RunResult result : new Runner(options).run()) {
			String label = result.getParams().getBenchmark();
			nanosPerCall.put(label.substring(label.lastIndexOf('.') + 1), result.getPrimaryResult().getScore());
		}
		return nanosPerCall;
	}

}
