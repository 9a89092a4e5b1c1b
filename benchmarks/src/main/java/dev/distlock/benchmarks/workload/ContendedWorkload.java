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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import dev.distlock.benchmarks.RedisAdmin;
import dev.distlock.benchmarks.RedisEndpoint;
import dev.distlock.benchmarks.contender.Contender;

/**
 * One key contended by several JVM processes with several threads each, because queueing
 * inside one JVM would hide the hand-off through Redis. Starts the
 * {@link ContendedWorker} processes with this JVM's command, options and class path,
 * starts them together, then merges what they recorded.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class ContendedWorkload {

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
	public ContendedWorkload(Phases phases, int processes, int threads, Path workDirectory) {
		this.phases = phases;
		this.processes = processes;
		this.threads = threads;
		this.workDirectory = workDirectory;
	}

	/**
	 * Run the workload.
	 * @param contender the library under test
	 * @param endpoint the Redis
	 * @param admin a connection to the same Redis, to reset and read the counter
	 * @return the merged result
	 * @throws Exception if a worker fails
	 */
	public ContendedResult run(Contender contender, RedisEndpoint endpoint, RedisAdmin admin) throws Exception {
		admin.flush();
		List<Process> workers = new ArrayList<>();
		List<Path> outputs = new ArrayList<>();
		Map<String, Long> callsDuring;
		try {
			for (int i = 0; i < this.processes; i++) {
				Path output = this.workDirectory.resolve(fileName(contender, i) + ".bin");
				outputs.add(output);
				workers.add(start(contender, endpoint, output, i));
			}
			for (int i = 0; i < workers.size(); i++) {
				awaitReady(workers.get(i), i, contender);
			}
			for (Process worker : workers) {
				OutputStream stdin = worker.getOutputStream();
				stdin.write("GO\n".getBytes(StandardCharsets.UTF_8));
				stdin.flush();
			}
			Thread.sleep(this.phases.warmup().toMillis());
			Map<String, Long> callsBefore = admin.commandCalls();
			Thread.sleep(this.phases.measure().toMillis());
			callsDuring = difference(admin.commandCalls(), callsBefore);
			long timeout = this.phases.warmup().plus(this.phases.measure()).toSeconds() + READY_TIMEOUT_SECONDS;
			for (int i = 0; i < workers.size(); i++) {
				Process worker = workers.get(i);
				if (!worker.waitFor(timeout, TimeUnit.SECONDS) || worker.exitValue() != 0) {
					throw new IllegalStateException("Worker " + i + " failed; see " + logFile(contender, i));
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
		String counter = admin.commands().get(ContendedWorker.COUNTER_KEY);
		return summarise(events, (counter != null) ? Long.parseLong(counter) : 0, callsDuring);
	}

	private Process start(Contender contender, RedisEndpoint endpoint, Path output, int index) throws IOException {
		List<String> command = new ArrayList<>();
		command.add(ProcessHandle.current()
			.info()
			.command()
			.orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
		command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), ContendedWorker.class.getName(),
				contender.name(), endpoint.host(), String.valueOf(endpoint.port()), String.valueOf(this.threads),
				String.valueOf(this.phases.warmup().toMillis()), String.valueOf(this.phases.measure().toMillis()),
				output.toString()));
		return new ProcessBuilder(command).redirectError(logFile(contender, index).toFile()).start();
	}

	private Path logFile(Contender contender, int index) {
		return this.workDirectory.resolve(fileName(contender, index) + ".log");
	}

	private String fileName(Contender contender, int index) {
		return contender.name().toLowerCase() + "-" + this.processes + "x" + this.threads + "-" + index;
	}

	private void awaitReady(Process worker, int index, Contender contender) throws IOException {
		BufferedReader stdout = new BufferedReader(
				new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8));
		String line;
		while ((line = stdout.readLine()) != null) {
			if (line.equals("READY")) {
				return;
			}
		}
		throw new IllegalStateException("Worker " + index + " exited before it was ready: "
				+ String.join(" | ", tail(logFile(contender, index))));
	}

	private static List<String> tail(Path log) throws IOException {
		List<String> lines = Files.readAllLines(log);
		return lines.subList(Math.max(0, lines.size() - 5), lines.size());
	}

	private static Map<String, Long> difference(Map<String, Long> after, Map<String, Long> before) {
		Map<String, Long> difference = new TreeMap<>();
		after.forEach((command, calls) -> difference.put(command, calls - before.getOrDefault(command, 0L)));
		difference.remove("info");
		difference.values().removeIf((calls) -> calls == 0);
		return difference;
	}

	private ContendedResult summarise(List<HoldEvents> events, long counter, Map<String, Long> calls) {
		long totalOps = events.stream().mapToLong(HoldEvents::totalOps).sum();
		long timeouts = events.stream().mapToLong(HoldEvents::timeouts).sum();
		HoldTimeline timeline = new HoldTimeline(events);
		return new ContendedResult(this.processes, this.threads, timeline.holds(),
				timeline.holds() / this.phases.measureSeconds(), timeline.waits(), timeline.handoffs(false),
				timeline.handoffs(true), timeline.crossProcessShare(), totalOps - counter, timeline.overlaps(),
				timeouts, timeline.overtaken(0), timeline.overtaken(ContendedResult.FIFO_TOLERANCE.toNanos()),
				timeline.largestOvertaking(), perOp(calls, timeline.holds()));
	}

	private static Map<String, Double> perOp(Map<String, Long> calls, long ops) {
		Map<String, Double> perOp = new TreeMap<>();
		calls.forEach((command, count) -> perOp.put(command, count / (double) Math.max(1, ops)));
		return perOp;
	}

}
