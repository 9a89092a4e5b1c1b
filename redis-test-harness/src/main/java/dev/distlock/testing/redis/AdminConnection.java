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

import java.time.Duration;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.protocol.ProtocolVersion;

/**
 * A Lettuce connection to one server, for setting servers up (cluster slots, replica
 * links) and checking them before the Redis client under test is involved. All of them
 * share one Lettuce client, shut down when the JVM exits. An admin connection does not
 * reconnect: a command on a server that went away fails at once.
 *
 * @author distlock
 * @since 0.1.0
 */
final class AdminConnection implements AutoCloseable {

	private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);

	private final StatefulRedisConnection<String, String> connection;

	/**
	 * Connect to {@code endpoint}.
	 * @param endpoint the server
	 * @throws RedisException if the server cannot be reached
	 */
	AdminConnection(RedisEndpoint endpoint) {
		this.connection = SharedClient.INSTANCE.connect(RedisURI.builder()
			.withHost(endpoint.host())
			.withPort(endpoint.port())
			.withTimeout(COMMAND_TIMEOUT)
			.build());
	}

	/**
	 * Return the synchronous commands of this connection; they throw
	 * {@link RedisException} when Redis answers with an error or does not answer.
	 * @return the commands
	 */
	RedisCommands<String, String> commands() {
		return this.connection.sync();
	}

	@Override
	public void close() {
		this.connection.close();
	}

	/**
	 * Holds the shared Lettuce client, created on first use.
	 */
	private static final class SharedClient {

		static final RedisClient INSTANCE = create();

		private static RedisClient create() {
			RedisClient client = RedisClient.create();
			client.setOptions(ClientOptions.builder()
				.autoReconnect(false)
				.protocolVersion(ProtocolVersion.RESP2)
				.socketOptions(SocketOptions.builder().connectTimeout(CONNECT_TIMEOUT).build())
				.build());
			Runtime.getRuntime()
				.addShutdownHook(new Thread(() -> client.shutdown(Duration.ZERO, Duration.ofSeconds(2)),
						"distlock-test-redis-admin-stop"));
			return client;
		}

	}

}
