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

package dev.distlock.benchmarks.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Description of the machine and runtime a run measured on.
 *
 * @param cpu the CPU model
 * @param cores processors available to the JVM
 * @param memoryGib physical memory in GiB
 * @param os operating system name, version and architecture
 * @param jdk JVM name and version
 * @param jvmArgs options of the benchmark JVMs
 * @param redisVersion version of the benchmark Redis
 * @author distlock
 * @since 0.1.0
 */
public record Machine(String cpu, int cores, long memoryGib, String os, String jdk, List<String> jvmArgs,
		String redisVersion) {

	/**
	 * Describe this machine.
	 * @param redisVersion version of the benchmark Redis
	 * @return the description
	 */
	public static Machine current(String redisVersion) {
		com.sun.management.OperatingSystemMXBean system = (com.sun.management.OperatingSystemMXBean) ManagementFactory
			.getOperatingSystemMXBean();
		return new Machine(cpuModel(), Runtime.getRuntime().availableProcessors(),
				Math.round(system.getTotalMemorySize() / (1024.0 * 1024 * 1024)),
				System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
						+ System.getProperty("os.arch"),
				System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
				ManagementFactory.getRuntimeMXBean().getInputArguments(), redisVersion);
	}

	private static String cpuModel() {
		try {
			return Files.readAllLines(Path.of("/proc/cpuinfo"))
				.stream()
				.filter((line) -> line.startsWith("model name"))
				.map((line) -> line.substring(line.indexOf(':') + 1).trim())
				.findFirst()
				.orElse("unknown CPU");
		}
		catch (IOException ex) {
			return "unknown CPU";
		}
	}

}
