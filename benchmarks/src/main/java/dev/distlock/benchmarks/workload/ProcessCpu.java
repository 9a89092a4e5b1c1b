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

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * The CPU time this JVM process has used, user and system, every thread together
 * ({@code com.sun.management.OperatingSystemMXBean#getProcessCpuTime}).
 *
 * @author distlock
 * @since 0.1.0
 */
final class ProcessCpu {

	private ProcessCpu() {
	}

	/**
	 * Return the CPU time the process has used so far.
	 * @return nanoseconds, or {@code -1} when the JVM does not tell it
	 */
	static long nanos() {
		OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
		if (os instanceof com.sun.management.OperatingSystemMXBean process) {
			return process.getProcessCpuTime();
		}
		return -1;
	}

}
