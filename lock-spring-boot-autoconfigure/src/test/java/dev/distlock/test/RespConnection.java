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

package dev.distlock.test;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A bare RESP connection for setting up servers before any Redis client is involved:
 * sends one command, reads one simple, error, integer or bulk reply.
 *
 * @author distlock
 * @since 0.1.0
 */
final class RespConnection implements AutoCloseable {

	private final Socket socket;

	private final OutputStream out;

	private final InputStream in;

	RespConnection(RedisEndpoint endpoint) throws IOException {
		this.socket = new Socket();
		this.socket.connect(new InetSocketAddress(endpoint.host(), endpoint.port()), 2000);
		this.socket.setSoTimeout(10_000);
		this.out = this.socket.getOutputStream();
		this.in = new BufferedInputStream(this.socket.getInputStream());
	}

	/**
	 * Send {@code command} and return its reply as text.
	 * @param command the command and its arguments
	 * @return the reply
	 * @throws IOException if the connection failed or Redis answered with an error
	 */
	String call(List<String> command) throws IOException {
		ByteArrayOutputStream request = new ByteArrayOutputStream();
		request.writeBytes(("*" + command.size() + "\r\n").getBytes(StandardCharsets.UTF_8));
		for (String argument : command) {
			byte[] bytes = argument.getBytes(StandardCharsets.UTF_8);
			request.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.UTF_8));
			request.writeBytes(bytes);
			request.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
		}
		this.out.write(request.toByteArray());
		this.out.flush();
		String line = readLine();
		return switch (line.charAt(0)) {
			case '+', ':' -> line.substring(1);
			case '$' -> readBulk(Integer.parseInt(line.substring(1)));
			case '-' -> throw new IOException("Redis answered " + command.get(0) + " with " + line.substring(1));
			default -> throw new IOException("Unexpected reply to " + command.get(0) + ": " + line);
		};
	}

	private String readBulk(int length) throws IOException {
		if (length < 0) {
			return "";
		}
		byte[] bulk = this.in.readNBytes(length + 2);
		return new String(bulk, 0, length, StandardCharsets.UTF_8);
	}

	private String readLine() throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int previous = -1;
		int current;
		while ((current = this.in.read()) != -1) {
			if (previous == '\r' && current == '\n') {
				byte[] bytes = line.toByteArray();
				return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
			}
			line.write(current);
			previous = current;
		}
		throw new IOException("Connection closed by Redis");
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

}
