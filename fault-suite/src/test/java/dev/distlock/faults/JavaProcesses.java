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

package dev.distlock.faults;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts JVMs on the suite's own classpath and sends them signals, as the harness does
 * with Redis processes: only processes the suite started, each by its id.
 *
 * @author distlock
 */
final class JavaProcesses {

	private JavaProcesses() {
	}

	/**
	 * Start {@code mainClass} in a JVM of its own, with the suite's JDK and classpath.
	 * @param mainClass the class to run
	 * @param log where its stderr goes
	 * @param arguments the program arguments
	 * @return the process, with its stdin and stdout piped
	 */
	static Process start(String mainClass, Path log, String... arguments) {
		List<String> command = new ArrayList<>(List.of(
				Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-XX:+UseSerialGC",
				"-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), mainClass));
		command.addAll(List.of(arguments));
		try {
			return new ProcessBuilder(command).redirectError(log.toFile()).start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not start " + mainClass, ex);
		}
	}

	/**
	 * Send {@code signal} to {@code process} with {@code kill}.
	 * @param process a process the suite started
	 * @param signal for example {@code -STOP} or {@code -CONT}
	 */
	static void signal(Process process, String signal) {
		try {
			Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid())).start();
			if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("kill " + signal + " " + process.pid() + " failed");
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not signal process " + process.pid(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Stop {@code process} and wait for it.
	 * @param process a process the suite started
	 */
	static void destroy(Process process) {
		process.destroy();
		try {
			if (!process.waitFor(10, TimeUnit.SECONDS)) {
				process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
