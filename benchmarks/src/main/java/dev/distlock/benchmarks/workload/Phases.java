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

import java.time.Duration;

/**
 * Warm-up followed by a measured window, on the {@link System#nanoTime()} clock.
 *
 * @param warmup how long to run before measuring
 * @param measure how long to measure
 * @author distlock
 * @since 0.1.0
 */
public record Phases(Duration warmup, Duration measure) {

	/**
	 * Return when the measured window starts for a run that starts at a time.
	 * @param startNanos the start of the run
	 * @return the start of the window
	 */
	long measureStart(long startNanos) {
		return startNanos + this.warmup.toNanos();
	}

	/**
	 * Return when the measured window ends for a run that starts at a time.
	 * @param startNanos the start of the run
	 * @return the end of the window
	 */
	long measureEnd(long startNanos) {
		return measureStart(startNanos) + this.measure.toNanos();
	}

	/**
	 * Return the measured window in seconds.
	 * @return the seconds
	 */
	double measureSeconds() {
		return this.measure.toNanos() / 1e9;
	}

}
