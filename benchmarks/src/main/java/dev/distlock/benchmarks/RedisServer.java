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

package dev.distlock.benchmarks;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;

/**
 * A {@code redis-server} process from the {@code PATH}, on a free loopback port, without
 * persistence, that every contender of a run shares.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class RedisServer implements AutoCloseable {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(10);

	private final Process process;

	private final RedisEndpoint endpoint;

	private RedisServer(Process process, RedisEndpoint endpoint) {
		this.process = process;
		this.endpoint = endpoint;
	}

	/**
	 * Start a server and wait until it accepts connections.
	 * @param logFile where the server writes its log
	 * @return the started server
	 * @throws IOException if {@code redis-server} cannot be started
	 * @throws InterruptedException if interrupted while waiting for it
	 */
	public static RedisServer start(File logFile) throws IOException, InterruptedException {
		int port = freePort();
		List<String> command = List.of("redis-server", "--port", String.valueOf(port), "--bind", "127.0.0.1", "--save",
				"", "--appendonly", "no", "--maxmemory-policy", "noeviction");
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.to(logFile))
			.start();
		RedisServer server = new RedisServer(process, new RedisEndpoint("127.0.0.1", port));
		server.awaitListening();
		return server;
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	private void awaitListening() throws InterruptedException, IOException {
		long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
		while (System.nanoTime() < deadline) {
			if (!this.process.isAlive()) {
				throw new IOException("redis-server exited with " + this.process.exitValue());
			}
			try (Socket socket = new Socket(this.endpoint.host(), this.endpoint.port())) {
				return;
			}
			catch (IOException ex) {
				Thread.sleep(50);
			}
		}
		close();
		throw new IOException("redis-server did not listen on port " + this.endpoint.port() + " within "
				+ START_TIMEOUT.toSeconds() + " s");
	}

	/**
	 * Return where the server listens.
	 * @return the endpoint
	 */
	public RedisEndpoint endpoint() {
		return this.endpoint;
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
			this.process.destroyForcibly();
		}
	}

}
