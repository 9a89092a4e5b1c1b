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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.distlock.testing.redis.RedisEndpoint;

/**
 * A workload worker in a JVM of its own ({@link ClientProcessMain}), so that the suite
 * can freeze the whole application instance, watchdog and all, with {@code SIGSTOP}. The
 * suite drives it over stdin and reads its holds from stdout.
 *
 * @author distlock
 */
final class ClientProcess implements AutoCloseable {

	private final Process process;

	private final PrintStream commands;

	private final BlockingQueue<String> events = new LinkedBlockingQueue<>();

	private final List<Cycle> cycles = new ArrayList<>();

	private ClientProcess(Process process) {
		this.process = process;
		this.commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
		Thread reader = new Thread(this::read, "client-process-" + process.pid());
		reader.setDaemon(true);
		reader.start();
	}

	static ClientProcess start(String name, RedisEndpoint redis, String jdbcUrl, Duration commandTimeout,
			Duration watchdogLease, long workMillis, Path logDirectory) {
		Process process = JavaProcesses.start(ClientProcessMain.class.getName(), logDirectory.resolve(name + ".log"),
				name, redis.host(), Integer.toString(redis.port()), jdbcUrl, Long.toString(commandTimeout.toMillis()),
				Long.toString(watchdogLease.toMillis()), Long.toString(workMillis));
		ClientProcess client = new ClientProcess(process);
		try {
			client.await("READY", Duration.ofSeconds(90));
		}
		catch (RuntimeException ex) {
			client.close();
			throw ex;
		}
		return client;
	}

	/**
	 * Start working on {@code key}.
	 * @param key the lock key
	 */
	void run(String key) {
		send("RUN " + key);
	}

	/**
	 * Make the next hold stop between its validity check and its write, report
	 * {@code PAUSE_POINT}, and wait for {@link #go()}.
	 */
	void arm() {
		send("ARM");
	}

	void awaitPausePoint(Duration timeout) {
		await("PAUSE_POINT", timeout);
	}

	void go() {
		send("GO");
	}

	/**
	 * Freeze the whole JVM ({@code SIGSTOP}).
	 */
	void freeze() {
		JavaProcesses.signal(this.process, "-STOP");
	}

	/**
	 * Thaw it ({@code SIGCONT}).
	 */
	void thaw() {
		JavaProcesses.signal(this.process, "-CONT");
	}

	/**
	 * Stop working after the current hold and return the holds since {@link #run}.
	 * @param timeout how long to wait for the current hold to end
	 * @return the holds
	 */
	List<Cycle> stop(Duration timeout) {
		send("STOP");
		await("STOPPED", timeout);
		synchronized (this.cycles) {
			List<Cycle> completed = List.copyOf(this.cycles);
			this.cycles.clear();
			return completed;
		}
	}

	private void send(String command) {
		this.commands.println(command);
	}

	private void await(String event, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		try {
			while (true) {
				String next = this.events.poll(Math.max(1, (deadline - System.nanoTime()) / 1_000_000),
						TimeUnit.MILLISECONDS);
				if (next == null) {
					throw new IllegalStateException("Client process " + this.process.pid() + " did not report " + event
							+ " within " + timeout.toMillis() + " ms (alive: " + this.process.isAlive() + ")");
				}
				if (next.equals(event)) {
					return;
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private void read() {
		try (BufferedReader lines = new BufferedReader(
				new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = lines.readLine()) != null) {
				if (line.startsWith("CYCLE ")) {
					synchronized (this.cycles) {
						this.cycles.add(Cycle.fromLine(line.substring(6)));
					}
				}
				else {
					this.events.add(line);
				}
			}
		}
		catch (IOException ex) {
			// the process ended
		}
	}

	@Override
	public void close() {
		if (this.process.isAlive()) {
			thaw();
			send("EXIT");
			try {
				if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
					JavaProcesses.destroy(this.process);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				JavaProcesses.destroy(this.process);
			}
		}
	}

}
