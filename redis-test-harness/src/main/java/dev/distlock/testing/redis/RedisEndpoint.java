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

/**
 * Where a test Redis listens.
 *
 * @param host the host
 * @param port the port
 * @author distlock
 * @since 0.1.0
 */
public record RedisEndpoint(String host, int port) {

	/**
	 * Parse {@code host:port} or {@code redis://host:port}.
	 * @param value the text to parse
	 * @return the endpoint
	 */
	public static RedisEndpoint parse(String value) {
		String hostAndPort = value.trim().replaceFirst("^redis://", "").replaceFirst("/.*$", "");
		int colon = hostAndPort.lastIndexOf(':');
		if (colon < 1 || hostAndPort.contains("@")) {
			throw new IllegalArgumentException(
					"Expected host:port or redis://host:port without credentials, but was '" + value + "'");
		}
		try {
			return new RedisEndpoint(hostAndPort.substring(0, colon),
					Integer.parseInt(hostAndPort.substring(colon + 1)));
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("Expected a port number in '" + value + "'", ex);
		}
	}

	/**
	 * Return the endpoint as a Redis URI.
	 * @return {@code redis://host:port}
	 */
	public String uri() {
		return "redis://" + this.host + ":" + this.port;
	}

}
