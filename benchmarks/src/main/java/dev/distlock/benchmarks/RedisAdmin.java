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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * A plain Lettuce connection for what the workloads need besides the locks: the shared
 * counter that detects broken mutual exclusion, flushing between contenders, the server
 * version, round-trip times and counting the commands clients send.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class RedisAdmin implements AutoCloseable {

	/** Client address Redis logs for commands that a Lua script ran. */
	private static final String SCRIPT_CLIENT = "?:0";

	private final RedisClient client;

	private final StatefulRedisConnection<String, String> connection;

	/**
	 * Connect to a Redis.
	 * @param endpoint the Redis
	 */
	public RedisAdmin(RedisEndpoint endpoint) {
		this.client = RedisClient.create(RedisURI.create(endpoint.host(), endpoint.port()));
		this.connection = this.client.connect();
	}

	/**
	 * Return the synchronous commands of the connection.
	 * @return the commands
	 */
	public RedisCommands<String, String> commands() {
		return this.connection.sync();
	}

	/**
	 * Delete every key.
	 */
	public void flush() {
		commands().flushall();
	}

	/**
	 * Count the keys whose names match a pattern and do not end with a suffix.
	 * @param pattern a {@code SCAN MATCH} pattern
	 * @param excludedSuffix suffix of keys not to count
	 * @return the number of keys
	 */
	public long countKeys(String pattern, String excludedSuffix) {
		long count = 0;
		ScanCursor cursor = ScanCursor.INITIAL;
		do {
			KeyScanCursor<String> page = commands().scan(cursor, ScanArgs.Builder.matches(pattern).limit(1000));
			count += page.getKeys().stream().filter((key) -> !key.endsWith(excludedSuffix)).count();
			cursor = page;
		}
		while (!cursor.isFinished());
		return count;
	}

	/**
	 * Return the server's {@code redis_version}.
	 * @return the version
	 */
	public String version() {
		return commands().info("server")
			.lines()
			.filter((line) -> line.startsWith("redis_version:"))
			.map((line) -> line.substring("redis_version:".length()).trim())
			.findFirst()
			.orElse("unknown");
	}

	/**
	 * Return how often each command ran since the server started, from
	 * {@code INFO commandstats}; commands that scripts ran are included.
	 * @return command name to calls
	 */
	public Map<String, Long> commandCalls() {
		Map<String, Long> calls = new TreeMap<>();
		commands().info("commandstats").lines().filter((line) -> line.startsWith("cmdstat_")).forEach((line) -> {
			String name = line.substring("cmdstat_".length(), line.indexOf(':'));
			String stats = line.substring(line.indexOf(':') + 1);
			String count = stats.substring("calls=".length(), stats.indexOf(','));
			calls.put(name, Long.parseLong(count));
		});
		return calls;
	}

	/**
	 * Return the microseconds Redis spent in scripts ({@code EVAL} and {@code EVALSHA},
	 * including the commands they ran) since the server started, from
	 * {@code INFO commandstats}.
	 * @return the microseconds
	 */
	public long scriptMicros() {
		return commands().info("commandstats")
			.lines()
			.filter((line) -> line.startsWith("cmdstat_eval:") || line.startsWith("cmdstat_evalsha:"))
			.mapToLong((line) -> {
				String usec = line.substring(line.indexOf("usec=") + "usec=".length());
				return Long.parseLong(usec.substring(0, usec.indexOf(',')));
			})
			.sum();
	}

	/**
	 * Start logging every command a client sends (the slow log with a zero threshold).
	 * Commands that Lua scripts run are logged too, but under a client address of their
	 * own, so {@link #stopCountingCommands()} can leave them out.
	 */
	public void startCountingCommands() {
		commands().configSet("slowlog-max-len", "2000000");
		commands().slowlogReset();
		commands().configSet("slowlog-log-slower-than", "0");
	}

	/**
	 * Stop logging and count the commands clients sent since
	 * {@link #startCountingCommands()}, by command name, leaving out commands run by
	 * scripts, {@code PING} and this class's own commands.
	 * @return command name to count
	 */
	public Map<String, Long> stopCountingCommands() {
		commands().configSet("slowlog-log-slower-than", "-1");
		Map<String, Long> counts = new TreeMap<>();
		for (Object entry : commands().slowlogGet(-1)) {
			List<?> fields = (List<?>) entry;
			List<?> arguments = (List<?>) fields.get(3);
			String client = String.valueOf(fields.get(4));
			String command = String.valueOf(arguments.get(0)).toLowerCase(java.util.Locale.ROOT);
			if (!SCRIPT_CLIENT.equals(client) && !isOwnOrKeepAlive(command)) {
				counts.merge(command, 1L, Long::sum);
			}
		}
		commands().slowlogReset();
		return counts;
	}

	private static boolean isOwnOrKeepAlive(String command) {
		return command.equals("config") || command.equals("slowlog") || command.equals("ping");
	}

	/**
	 * Measure round-trip times of {@code PING} on this connection.
	 * @param count how many pings, after as many for warm-up
	 * @return the round-trip times in nanoseconds
	 */
	public long[] pingRoundTrips(int count) {
		for (int i = 0; i < count; i++) {
			commands().ping();
		}
		List<Long> samples = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			long started = System.nanoTime();
			commands().ping();
			samples.add(System.nanoTime() - started);
		}
		return samples.stream().mapToLong(Long::longValue).toArray();
	}

	@Override
	public void close() {
		this.connection.close();
		this.client.shutdown();
	}

}
