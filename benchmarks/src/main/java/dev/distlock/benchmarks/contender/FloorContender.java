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

package dev.distlock.benchmarks.contender;

import java.time.Duration;
import java.util.UUID;

import dev.distlock.benchmarks.RedisEndpoint;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.jspecify.annotations.Nullable;

/**
 * The floor: raw Lettuce on one shared connection, {@code SET key token NX PX lease} to
 * acquire and an {@code EVALSHA} compare-and-delete to release. No reentrancy, no
 * renewal, no fencing; waiting polls at a fixed interval: every millisecond for the
 * floor, every 10 ms for the polling floor of the contended targets.
 *
 * @author distlock
 * @since 0.1.0
 */
final class FloorContender implements LockContender {

	static final String RELEASE = """
			if redis.call('get', KEYS[1]) == ARGV[1] then
			  return redis.call('del', KEYS[1])
			end
			return 0
			""";

	/** Poll interval of the floor. */
	static final long POLL_MILLIS = 1;

	/** Poll interval of the polling floor. */
	static final long POLLING_FLOOR_POLL_MILLIS = 10;

	private final RedisClient client;

	private final StatefulRedisConnection<String, String> connection;

	private final RedisCommands<String, String> commands;

	private final String releaseSha;

	private final SetArgs acquireArgs;

	private final long pollMillis;

	FloorContender(RedisEndpoint endpoint, Duration lease, long pollMillis) {
		this.client = RedisClient.create(RedisURI.create(endpoint.host(), endpoint.port()));
		this.connection = this.client.connect();
		this.commands = this.connection.sync();
		this.releaseSha = this.commands.scriptLoad(RELEASE);
		this.acquireArgs = SetArgs.Builder.nx().px(lease.toMillis());
		this.pollMillis = pollMillis;
	}

	@Override
	public @Nullable Held tryLock(String key, Duration wait) throws InterruptedException {
		String lockKey = "floor:" + key;
		String token = UUID.randomUUID().toString();
		long deadline = System.nanoTime() + wait.toNanos();
		while (this.commands.set(lockKey, token, this.acquireArgs) == null) {
			if (System.nanoTime() - deadline >= 0) {
				return null;
			}
			Thread.sleep(this.pollMillis);
		}
		return () -> release(lockKey, token);
	}

	private void release(String lockKey, String token) {
		Long deleted = this.commands.evalsha(this.releaseSha, ScriptOutputType.INTEGER, new String[] { lockKey },
				token);
		if (deleted == null || deleted != 1L) {
			throw new IllegalStateException("Floor lock '" + lockKey + "' was no longer held at release");
		}
	}

	@Override
	public void close() {
		this.connection.close();
		this.client.shutdown();
	}

}
