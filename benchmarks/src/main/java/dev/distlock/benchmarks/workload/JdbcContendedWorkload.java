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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.benchmarks.JdbcTarget;
import dev.distlock.benchmarks.contender.JdbcContender;

/**
 * One key contended by several JVM processes with several threads each, on a database:
 * starts the {@link JdbcContendedWorker} processes with this JVM's command, options and
 * class path, starts them together, then merges what they recorded into a
 * {@link ContendedResult} (without command counts).
 *
 * @author distlock
 * @since 0.1.0
 */
public final class JdbcContendedWorkload {

	private static final long READY_TIMEOUT_SECONDS = 120;

	private final Phases phases;

	private final int processes;

	private final int threads;

	private final Path workDirectory;

	/**
	 * Create the workload.
	 * @param phases warm-up and measured window
	 * @param processes how many worker processes
	 * @param threads how many threads per process
	 * @param workDirectory where workers write their records and logs
	 */
	public JdbcContendedWorkload(Phases phases, int processes, int threads, Path workDirectory) {
		this.phases = phases;
		this.processes = processes;
		this.threads = threads;
		this.workDirectory = workDirectory;
	}

	/**
	 * Run the workload on a freshly created schema or database.
	 * @param contender the library under test
	 * @param target the database
	 * @return the merged result
	 * @throws Exception if a worker fails
	 */
	public ContendedResult run(JdbcContender contender, JdbcTarget target) throws Exception {
		target.recreate();
		List<Process> workers = new ArrayList<>();
		List<Path> outputs = new ArrayList<>();
		try {
			for (int i = 0; i < this.processes; i++) {
				Path output = this.workDirectory.resolve(fileName(contender, target, i) + ".bin");
				outputs.add(output);
				workers.add(start(contender, target, output, i));
			}
			for (int i = 0; i < workers.size(); i++) {
				awaitReady(workers.get(i), i);
			}
			for (Process worker : workers) {
				OutputStream stdin = worker.getOutputStream();
				stdin.write("GO\n".getBytes(StandardCharsets.UTF_8));
				stdin.flush();
			}
			long timeout = this.phases.warmup().plus(this.phases.measure()).toSeconds() + READY_TIMEOUT_SECONDS;
			for (int i = 0; i < workers.size(); i++) {
				Process worker = workers.get(i);
				if (!worker.waitFor(timeout, TimeUnit.SECONDS) || worker.exitValue() != 0) {
					throw new IllegalStateException("Worker " + i + " failed; see " + logFile(contender, target, i));
				}
			}
		}
		finally {
			workers.forEach(Process::destroyForcibly);
		}
		List<HoldEvents> events = new ArrayList<>();
		for (Path output : outputs) {
			events.add(HoldEvents.read(output));
		}
		long counter;
		try (HikariDataSource dataSource = target.dataSource("counter-check", 1)) {
			counter = target.counter(dataSource);
		}
		return summarise(events, counter);
	}

	private Process start(JdbcContender contender, JdbcTarget target, Path output, int index) throws IOException {
		List<String> command = new ArrayList<>();
		command.add(ProcessHandle.current()
			.info()
			.command()
			.orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
		command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), JdbcContendedWorker.class.getName(),
				contender.name(), target.label(), String.valueOf(this.threads),
				String.valueOf(this.phases.warmup().toMillis()), String.valueOf(this.phases.measure().toMillis()),
				output.toString()));
		return new ProcessBuilder(command).redirectError(logFile(contender, target, index).toFile()).start();
	}

	private Path logFile(JdbcContender contender, JdbcTarget target, int index) {
		return this.workDirectory.resolve(fileName(contender, target, index) + ".log");
	}

	private String fileName(JdbcContender contender, JdbcTarget target, int index) {
		return "jdbc-" + target.label().toLowerCase() + "-" + contender.name().toLowerCase() + "-" + this.processes
				+ "x" + this.threads + "-" + index;
	}

	private static void awaitReady(Process worker, int index) throws IOException {
		BufferedReader stdout = new BufferedReader(
				new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8));
		String line;
		while ((line = stdout.readLine()) != null) {
			if (line.equals("READY")) {
				return;
			}
		}
		throw new IllegalStateException("Worker " + index + " exited before it was ready");
	}

	private ContendedResult summarise(List<HoldEvents> events, long counter) {
		long totalOps = events.stream().mapToLong(HoldEvents::totalOps).sum();
		long timeouts = events.stream().mapToLong(HoldEvents::timeouts).sum();
		HoldTimeline timeline = new HoldTimeline(events);
		return new ContendedResult(this.processes, this.threads, timeline.holds(),
				timeline.holds() / this.phases.measureSeconds(), timeline.waits(), timeline.handoffs(false),
				timeline.handoffs(true), timeline.crossProcessShare(), totalOps - counter, timeline.overlaps(),
				timeouts, timeline.overtaken(0), timeline.overtaken(ContendedResult.FIFO_TOLERANCE.toNanos()),
				timeline.largestOvertaking(), Map.of());
	}

}
