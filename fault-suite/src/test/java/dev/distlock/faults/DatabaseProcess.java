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
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * An H2 database server in a JVM of its own, holding the rows the workloads protect, so
 * that client processes share it and its memory does not count against the suite's heap
 * in the soak.
 *
 * @author distlock
 */
final class DatabaseProcess implements AutoCloseable {

	private final Process process;

	private final String url;

	private DatabaseProcess(Process process, int port) {
		this.process = process;
		this.url = "jdbc:h2:tcp://127.0.0.1:" + port + "/mem:faults;DB_CLOSE_DELAY=-1";
	}

	static DatabaseProcess start(Path logDirectory) {
		int port = freePort();
		Process process = JavaProcesses.start("org.h2.tools.Server", logDirectory.resolve("h2.log"), "-tcp", "-tcpPort",
				Integer.toString(port), "-ifNotExists");
		DatabaseProcess database = new DatabaseProcess(process, port);
		database.awaitConnection();
		return database;
	}

	String url() {
		return this.url;
	}

	private void awaitConnection() {
		long deadline = System.nanoTime() + 60_000_000_000L;
		while (true) {
			try (Connection connection = DriverManager.getConnection(this.url, "sa", "")) {
				return;
			}
			catch (SQLException ex) {
				if (!this.process.isAlive() || System.nanoTime() - deadline > 0) {
					close();
					throw new IllegalStateException("The H2 server did not start", ex);
				}
				try {
					Thread.sleep(100);
				}
				catch (InterruptedException interrupted) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException(interrupted);
				}
			}
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public void close() {
		JavaProcesses.destroy(this.process);
	}

}
