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

package dev.distlock.testing.redis;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import org.springframework.util.FileSystemUtils;

/**
 * A {@code redis-server} child process on a loopback port, without persistence. Servers
 * still open when the JVM exits are closed by a shutdown hook.
 *
 * @author distlock
 * @since 0.1.0
 */
final class RedisServerProcess implements RedisServerHandle {

	private static final String HOST = "127.0.0.1";

	private static final long STARTUP_TIMEOUT_MILLIS = 10_000;

	private static final Duration PING_TIMEOUT = Duration.ofMillis(500);

	private static final Duration INFO_TIMEOUT = Duration.ofSeconds(10);

	private static final Set<RedisServerProcess> unclosed = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime()
			.addShutdownHook(new Thread(() -> List.copyOf(unclosed).forEach(RedisServerProcess::close),
					"distlock-test-redis-stop"));
	}

	private final Path binary;

	private final Path directory;

	private final int port;

	private final List<String> options;

	private @Nullable Process process;

	private boolean paused;

	private RedisServerProcess(Path binary, Path directory, int port, List<String> options) {
		this.binary = binary;
		this.directory = directory;
		this.port = port;
		this.options = options;
	}

	/**
	 * Start a server from {@code binary} on a free port, retrying with another port if
	 * the chosen one was taken meanwhile.
	 * @param binary the redis-server executable
	 * @param options options that come first on the command line, for example a
	 * configuration file, or options to enable cluster mode
	 * @return the started server
	 */
	static RedisServerProcess startOnFreePort(Path binary, String... options) {
		for (int attempt = 1;; attempt++) {
			RedisServerProcess server;
			try {
				server = new RedisServerProcess(binary, Files.createTempDirectory("distlock-redis-"), freePort(),
						List.of(options));
			}
			catch (IOException ex) {
				throw new IllegalStateException("Could not prepare a directory and a port for " + binary, ex);
			}
			unclosed.add(server);
			try {
				server.start();
				return server;
			}
			catch (IllegalStateException ex) {
				server.close();
				if (attempt == 5) {
					throw new IllegalStateException("Could not start " + binary + " on a free port", ex);
				}
			}
		}
	}

	/**
	 * Start a Sentinel on a free port that monitors {@code master} under the name
	 * {@code masterName}, with a quorum of one.
	 * @param binary the redis-server executable
	 * @param masterName the name Sentinel gives the master
	 * @param master the master to monitor
	 * @param downAfter how long the master must not answer before the Sentinel fails it
	 * over
	 * @return the started Sentinel
	 */
	static RedisServerProcess startSentinelOnFreePort(Path binary, String masterName, RedisEndpoint master,
			Duration downAfter) {
		try {
			Path configuration = Files.createTempFile("distlock-sentinel-", ".conf");
			configuration.toFile().deleteOnExit();
			Files.writeString(configuration,
					"sentinel monitor " + masterName + " " + master.host() + " " + master.port()
							+ " 1\nsentinel down-after-milliseconds " + masterName + " " + downAfter.toMillis() + "\n");
			return startOnFreePort(binary, configuration.toString(), "--sentinel");
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not write a Sentinel configuration", ex);
		}
	}

	@Override
	public RedisEndpoint endpoint() {
		return new RedisEndpoint(HOST, this.port);
	}

	@Override
	public synchronized void start() {
		if (isRunning()) {
			return;
		}
		try {
			List<String> command = new ArrayList<>(List.of(this.binary.toString()));
			command.addAll(this.options);
			command.addAll(List.of("--port", Integer.toString(this.port), "--bind", HOST, "--save", "", "--appendonly",
					"no", "--dir", this.directory.toString()));
			this.process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(this.directory.resolve("redis.log").toFile())
				.start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not start " + this.binary, ex);
		}
		this.paused = false;
		awaitPong();
	}

	@Override
	public synchronized void stop() {
		Process running = this.process;
		if (running == null) {
			return;
		}
		if (running.isAlive()) {
			resume();
			running.destroy();
		}
		awaitExit(running);
	}

	@Override
	public synchronized void kill() {
		Process running = this.process;
		if (running != null) {
			running.destroyForcibly();
			awaitExit(running);
		}
	}

	@Override
	public synchronized void pause() {
		signal("-STOP");
		this.paused = true;
	}

	@Override
	public synchronized void resume() {
		if (this.paused) {
			signal("-CONT");
			this.paused = false;
		}
	}

	@Override
	public synchronized boolean isRunning() {
		return this.process != null && this.process.isAlive();
	}

	@Override
	public synchronized void close() {
		stop();
		FileSystemUtils.deleteRecursively(this.directory.toFile());
		unclosed.remove(this);
	}

	private void signal(String signal) {
		Process running = this.process;
		if (running == null || !running.isAlive()) {
			throw new IllegalStateException("Redis on port " + this.port + " is not running");
		}
		try {
			int exit = new ProcessBuilder("kill", signal, Long.toString(running.pid())).start().waitFor();
			if (exit != 0) {
				throw new IllegalStateException("kill " + signal + " " + running.pid() + " exited with " + exit);
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not send " + signal + " to Redis", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while signalling Redis", ex);
		}
	}

	private void awaitExit(Process running) {
		try {
			if (!running.waitFor(10, TimeUnit.SECONDS)) {
				running.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.process = null;
		this.paused = false;
	}

	private void awaitPong() {
		long deadline = System.currentTimeMillis() + STARTUP_TIMEOUT_MILLIS;
		while (System.currentTimeMillis() < deadline) {
			Process running = this.process;
			if (running == null || !running.isAlive()) {
				throw new IllegalStateException("Redis exited at startup on port " + this.port + ": " + log());
			}
			if (answersPing()) {
				assertAnsweredBy(running);
				return;
			}
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
		}
		kill();
		throw new IllegalStateException("Redis did not answer PING on port " + this.port + ": " + log());
	}

	private boolean answersPing() {
		try {
			return "PONG".equals(RespProbe.send(endpoint(), PING_TIMEOUT, "PING"));
		}
		catch (IOException ex) {
			return false;
		}
	}

	private void assertAnsweredBy(Process running) {
		String info;
		try {
			info = RespProbe.send(endpoint(), INFO_TIMEOUT, "INFO", "server");
		}
		catch (IOException ex) {
			kill();
			throw new IllegalStateException("Redis answered PING but not INFO on port " + this.port, ex);
		}
		if (!info.contains("process_id:" + running.pid() + "\r\n")) {
			kill();
			throw new IllegalStateException("Port " + this.port + " is served by another Redis process");
		}
	}

	private String log() {
		try {
			return Files.readString(this.directory.resolve("redis.log"));
		}
		catch (IOException ex) {
			return "(no log)";
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket()) {
			socket.setReuseAddress(false);
			socket.bind(new InetSocketAddress(HOST, 0));
			return socket.getLocalPort();
		}
	}

}
