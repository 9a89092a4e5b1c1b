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

package dev.distlock.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a measured run records of where it ran: the commit it measures and the machine's
 * load, for the provenance line of the benchmark and fault reports.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class RunProvenance {

	private static final String UNKNOWN = "unknown";

	private RunProvenance() {
	}

	/**
	 * Return the commit the run measures: {@code git rev-parse --short HEAD} in the
	 * working directory, or {@code unknown}.
	 * @return the short commit id, or {@code unknown}
	 */
	public static String commit() {
		try {
			Process git = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").redirectErrorStream(true).start();
			String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
			return (git.waitFor() == 0 && !out.isEmpty()) ? out : UNKNOWN;
		}
		catch (IOException ex) {
			return UNKNOWN;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return UNKNOWN;
		}
	}

	/**
	 * Return the commit the run measures: the system property {@code property} when it is
	 * set (a run of a build of another checkout), else {@link #commit()}.
	 * @param property the name of the system property that may name the commit
	 * @return the commit, or {@code unknown}
	 */
	public static String commit(String property) {
		String commit = System.getProperty(property);
		return (commit != null && !commit.isBlank()) ? commit : commit();
	}

	/**
	 * Return the machine's load average over the last minute, from {@code /proc/loadavg},
	 * or {@code unknown} where there is none.
	 * @return the load average as the kernel writes it, or {@code unknown}
	 */
	public static String loadAverage() {
		try {
			return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
		}
		catch (IOException ex) {
			return UNKNOWN;
		}
	}

}
