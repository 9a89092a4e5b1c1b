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

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * One command over a plain socket in RESP, answered by a simple or bulk string: how the
 * harness checks that a server it started answers, without any Redis client library, so
 * that it works on a classpath with Jedis only or Lettuce only.
 *
 * @author distlock
 * @since 0.1.0
 */
final class RespProbe {

	private RespProbe() {
	}

	/**
	 * Send one command and return its reply.
	 * @param endpoint the server
	 * @param timeout bound of the connect and of each read
	 * @param command the command and its arguments
	 * @return the reply, a simple or bulk string
	 * @throws IOException if the server cannot be reached, answers an error or another
	 * kind of reply
	 */
	static String send(RedisEndpoint endpoint, Duration timeout, String... command) throws IOException {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(endpoint.host(), endpoint.port()), (int) timeout.toMillis());
			socket.setSoTimeout((int) timeout.toMillis());
			OutputStream out = socket.getOutputStream();
			StringBuilder request = new StringBuilder("*").append(command.length).append("\r\n");
			for (String part : command) {
				byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
				request.append('$').append(bytes.length).append("\r\n").append(part).append("\r\n");
			}
			out.write(request.toString().getBytes(StandardCharsets.UTF_8));
			out.flush();
			InputStream in = socket.getInputStream();
			String line = readLine(in);
			if (line.startsWith("+")) {
				return line.substring(1);
			}
			if (line.startsWith("$")) {
				byte[] bulk = in.readNBytes(Integer.parseInt(line.substring(1)));
				return new String(bulk, StandardCharsets.UTF_8);
			}
			throw new IOException("Redis answered " + String.join(" ", command) + " with " + line);
		}
	}

	private static String readLine(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int previous = -1;
		while (true) {
			int next = in.read();
			if (next < 0) {
				throw new IOException("Redis closed the connection");
			}
			if (previous == '\r' && next == '\n') {
				byte[] bytes = line.toByteArray();
				return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
			}
			line.write(next);
			previous = next;
		}
	}

}
