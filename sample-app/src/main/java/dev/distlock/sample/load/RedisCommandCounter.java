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

package dev.distlock.sample.load;

import java.time.Duration;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.jspecify.annotations.Nullable;

/**
 * Reads how many commands a Redis server has processed ({@code INFO stats},
 * {@code total_commands_processed}): the store requests of the instances using it,
 * together with those of anything else using the same server.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class RedisCommandCounter implements AutoCloseable {

	private final RedisClient client;

	private final StatefulRedisConnection<String, String> connection;

	private RedisCommandCounter(RedisClient client, StatefulRedisConnection<String, String> connection) {
		this.client = client;
		this.connection = connection;
	}

	/**
	 * Connect to a Redis server.
	 * @param uri the server, for example {@code redis://127.0.0.1:6379}
	 * @return the counter, or {@code null} if the server does not answer
	 */
	public static @Nullable RedisCommandCounter connect(String uri) {
		RedisURI redisUri = RedisURI.create(uri);
		// A loaded machine took more than 2 s to connect, and the run then counted
		// nothing
		redisUri.setTimeout(Duration.ofSeconds(10));
		RedisClient client = RedisClient.create(redisUri);
		try {
			StatefulRedisConnection<String, String> connection = client.connect();
			RedisCommandCounter counter = new RedisCommandCounter(client, connection);
			counter.commandsProcessed();
			return counter;
		}
		catch (RuntimeException ex) {
			client.shutdown();
			return null;
		}
	}

	/**
	 * Return the commands the server has processed since it started. The {@code INFO}
	 * command that reads it counts too, once it completed.
	 * @return the number of commands
	 */
	public long commandsProcessed() {
		return parse(this.connection.sync().info("stats"));
	}

	/**
	 * Read {@code total_commands_processed} from an {@code INFO stats} answer.
	 * @param info the answer
	 * @return the number of commands
	 */
	static long parse(String info) {
		for (String line : info.split("\r?\n")) {
			if (line.startsWith("total_commands_processed:")) {
				return Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
			}
		}
		throw new IllegalStateException("No total_commands_processed in INFO stats: " + info);
	}

	@Override
	public void close() {
		this.connection.close();
		this.client.shutdown();
	}

}
