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
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Semaphore;

import dev.distlock.core.LockHold;
import dev.distlock.faults.Worker.Hooks;
import dev.distlock.faults.Worker.Plan;
import dev.distlock.testing.redis.RedisEndpoint;

/**
 * The main class of a {@link ClientProcess}: one application instance with one workload
 * worker, driven over stdin ({@code RUN <key>}, {@code ARM}, {@code GO}, {@code STOP},
 * {@code EXIT}), reporting on stdout ({@code READY}, {@code CYCLE ...},
 * {@code PAUSE_POINT}, {@code STOPPED}).
 *
 * @author distlock
 */
public final class ClientProcessMain {

	private final Object out = new Object();

	private final Semaphore go = new Semaphore(0);

	private volatile boolean armed;

	private ClientProcessMain() {
	}

	/**
	 * Run a client process.
	 * @param args name, Redis host, Redis port, JDBC URL, command timeout (ms), watchdog
	 * lease (ms), work (ms)
	 * @throws Exception if the process fails
	 */
	public static void main(String[] args) throws Exception {
		new ClientProcessMain().run(args);
		System.exit(0);
	}

	private void run(String[] args) throws Exception {
		String name = args[0];
		RedisEndpoint redis = new RedisEndpoint(args[1], Integer.parseInt(args[2]));
		Duration commandTimeout = Duration.ofMillis(Long.parseLong(args[4]));
		Duration lease = Duration.ofMillis(Long.parseLong(args[5]));
		Plan plan = Plan.continuous(Duration.ofSeconds(1), Long.parseLong(args[6]));
		Hooks hooks = new Hooks() {

			@Override
			public void beforeWrite(String worker, LockHold hold) {
				pausePoint();
			}

		};
		try (ClientInstance instance = ClientInstance.on(redis, commandTimeout, lease);
				Resource resource = new Resource(args[3], 2)) {
			print("READY");
			BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			Workload workload = null;
			String command;
			while ((command = commands.readLine()) != null && !command.equals("EXIT")) {
				if (command.startsWith("RUN ")) {
					workload = new Workload(resource);
					workload.add(name, instance.client(), command.substring(4), plan, hooks);
					workload.start();
				}
				else if (command.equals("ARM")) {
					this.armed = true;
				}
				else if (command.equals("GO")) {
					this.go.release();
				}
				else if (command.equals("STOP") && workload != null) {
					workload.stop(Duration.ofSeconds(30));
					flush(workload);
					print("STOPPED");
				}
			}
		}
	}

	private void flush(Workload workload) {
		synchronized (this.out) {
			for (Cycle cycle : workload.cycles()) {
				System.out.println("CYCLE " + cycle.toLine());
			}
			System.out.flush();
		}
	}

	private void pausePoint() {
		if (!this.armed) {
			return;
		}
		this.armed = false;
		print("PAUSE_POINT");
		this.go.acquireUninterruptibly();
	}

	private void print(String line) {
		synchronized (this.out) {
			System.out.println(line);
			System.out.flush();
		}
	}

}
