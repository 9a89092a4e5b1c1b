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

package dev.distlock.benchmarks.zookeeper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The measuring JVM's handle on the ensemble that {@link ZooKeeperEnsembleMain} runs in a
 * child JVM: its connect string, and the requests its servers have received, read with
 * the {@code srvr} four-letter word ({@code Received}, summed over the servers; the child
 * JVM allows the word).
 *
 * @author distlock
 * @since 0.1.0
 */
final class ZooKeeperEnsemble implements AutoCloseable {

	private static final Pattern RECEIVED = Pattern.compile("(?m)^Received: (\\d+)\\s*$");

	private static final int TIMEOUT_MILLIS = 5_000;

	private final Process process;

	private final String connectString;

	private ZooKeeperEnsemble(Process process, String connectString) {
		this.process = process;
		this.connectString = connectString;
	}

	/**
	 * Start the ensemble's JVM and wait for its connect string.
	 * @param java the java executable
	 * @param log where the child JVM writes its standard error
	 * @return the handle
	 * @throws IOException if the child JVM cannot start or ends before it is ready
	 */
	static ZooKeeperEnsemble start(String java, Path log) throws IOException {
		Process process = new ProcessBuilder(java, "-Xms256m", "-Xmx256m",
				"-Dzookeeper.4lw.commands.whitelist=srvr,mntr", "-cp", System.getProperty("java.class.path"),
				ZooKeeperEnsembleMain.class.getName())
			.redirectError(log.toFile())
			.start();
		BufferedReader stdout = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		String line;
		while ((line = stdout.readLine()) != null) {
			if (line.startsWith(ZooKeeperEnsembleMain.CONNECT_PREFIX)) {
				return new ZooKeeperEnsemble(process,
						line.substring(ZooKeeperEnsembleMain.CONNECT_PREFIX.length()).strip());
			}
		}
		process.destroyForcibly();
		throw new IOException("The ensemble's JVM ended before it was ready; see " + log);
	}

	/**
	 * Return the connect string of the three servers.
	 * @return the connect string
	 */
	String connectString() {
		return this.connectString;
	}

	/**
	 * Return the requests every server has received from clients since it started,
	 * summed.
	 * @return the requests
	 * @throws IOException if a server does not answer {@code srvr}
	 */
	long requestsReceived() throws IOException {
		long sum = 0;
		for (InetSocketAddress server : servers(this.connectString)) {
			sum += received(srvr(server));
		}
		return sum;
	}

	/**
	 * Return the servers of a connect string.
	 * @param connectString {@code host:port} pairs separated by commas
	 * @return their addresses, unresolved
	 */
	static List<InetSocketAddress> servers(String connectString) {
		List<InetSocketAddress> servers = new ArrayList<>();
		for (String server : connectString.split(",")) {
			int colon = server.lastIndexOf(':');
			servers.add(InetSocketAddress.createUnresolved(server.substring(0, colon).strip(),
					Integer.parseInt(server.substring(colon + 1).strip())));
		}
		return servers;
	}

	/**
	 * Return the requests a server received, from its answer to {@code srvr}.
	 * @param srvr the answer
	 * @return the {@code Received} count
	 * @throws IllegalArgumentException if the answer has no such count (such as a server
	 * that does not allow the word)
	 */
	static long received(String srvr) {
		Matcher matcher = RECEIVED.matcher(srvr);
		if (!matcher.find()) {
			throw new IllegalArgumentException("No 'Received' count in the answer to srvr: " + srvr.strip());
		}
		return Long.parseLong(matcher.group(1));
	}

	private static String srvr(InetSocketAddress server) throws IOException {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(server.getHostString(), server.getPort()), TIMEOUT_MILLIS);
			socket.setSoTimeout(TIMEOUT_MILLIS);
			OutputStream out = socket.getOutputStream();
			out.write("srvr".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

	/**
	 * Stop the ensemble: end its standard input, wait for its JVM, and end it if it does
	 * not stop.
	 */
	@Override
	public void close() throws IOException, InterruptedException {
		this.process.getOutputStream().close();
		if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
			this.process.destroyForcibly();
		}
	}

}
