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

package dev.distlock.jdbc;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A PostgreSQL server of the test's own: a new cluster in a temporary directory (initdb),
 * on a free loopback port, started and stopped with {@code pg_ctl}, never the shared
 * server. Run as root, its commands run as the user {@code postgres}, as initdb demands.
 * The binaries come from {@code distlock.test.postgresql.bin}, else
 * {@code /usr/lib/postgresql/15/bin}; a test that needs them skips visibly without them.
 *
 * @author distlock
 */
final class OwnPostgres implements AutoCloseable {

	private static final Path BIN = Path
		.of(System.getProperty("distlock.test.postgresql.bin", "/usr/lib/postgresql/15/bin"));

	private final Path directory;

	private final Path data;

	private final int port;

	private final List<String> settings;

	private OwnPostgres(Path directory, int port, List<String> settings) {
		this.directory = directory;
		this.data = directory.resolve("data");
		this.port = port;
		this.settings = settings;
	}

	/**
	 * Create a cluster and start it with {@code settings} ({@code name=value} each), or
	 * skip the test, naming what is missing, without the binaries.
	 */
	static OwnPostgres start(String... settings) throws Exception {
		assumeTrue(Files.isExecutable(BIN.resolve("initdb")) && Files.isExecutable(BIN.resolve("pg_ctl")),
				() -> "No PostgreSQL binaries (initdb, pg_ctl) in " + BIN + ": set distlock.test.postgresql.bin");
		boolean root = "root".equals(System.getProperty("user.name"));
		assumeTrue(!root || Files.isExecutable(Path.of("/usr/sbin/runuser")),
				"Run as root, the test needs /usr/sbin/runuser to run initdb as the user postgres");
		Path directory = Files.createTempDirectory("distlock-own-postgres-");
		OwnPostgres postgres = new OwnPostgres(directory, freePort(), List.of(settings));
		if (root) {
			run(List.of("chown", "postgres", directory.toString()), false);
		}
		postgres.command(BIN.resolve("initdb").toString(), "-D", postgres.data.toString(), "-U", "postgres", "-A",
				"trust", "--no-sync");
		postgres.start();
		return postgres;
	}

	/**
	 * Start the server on its cluster, and wait until it answers.
	 */
	void start() throws Exception {
		StringBuilder options = new StringBuilder(
				"-c listen_addresses=127.0.0.1 -c port=" + this.port + " -c unix_socket_directories=" + this.directory);
		for (String setting : this.settings) {
			options.append(" -c ").append(setting);
		}
		command(BIN.resolve("pg_ctl").toString(), "-D", this.data.toString(), "-l",
				this.directory.resolve("server.log").toString(), "-o", options.toString(), "-w", "-t", "120", "start");
	}

	/**
	 * Stop the server as a crash would: {@code pg_ctl stop -m immediate} ends every
	 * process at once, without a checkpoint or a flush of what is not yet written.
	 */
	void crash() throws Exception {
		command(BIN.resolve("pg_ctl").toString(), "-D", this.data.toString(), "-m", "immediate", "-w", "stop");
	}

	String url() {
		return "jdbc:postgresql://127.0.0.1:" + this.port + "/postgres";
	}

	@Override
	public void close() throws Exception {
		try {
			if (Files.exists(this.data.resolve("postmaster.pid"))) {
				command(BIN.resolve("pg_ctl").toString(), "-D", this.data.toString(), "-m", "immediate", "-w", "stop");
			}
		}
		finally {
			run(List.of("rm", "-rf", this.directory.toString()), false);
		}
	}

	private void command(String... command) throws Exception {
		List<String> line = new ArrayList<>();
		if ("root".equals(System.getProperty("user.name"))) {
			line.addAll(List.of("/usr/sbin/runuser", "-u", "postgres", "--"));
		}
		line.addAll(List.of(command));
		run(line, true);
	}

	private static void run(List<String> command, boolean mustSucceed) throws Exception {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes());
		if (!process.waitFor(180, TimeUnit.SECONDS)) {
			process.destroyForcibly();
			throw new IllegalStateException(command + " did not end");
		}
		if (mustSucceed && process.exitValue() != 0) {
			throw new IllegalStateException(command + " failed with " + process.exitValue() + ": " + output);
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

}
