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

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;

import io.lettuce.core.RedisException;

/**
 * A Redis master with one replica, watched by one Sentinel, all processes a test started.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class RedisSentinelHandle implements AutoCloseable {

	/**
	 * The name under which the Sentinel knows the master.
	 */
	public static final String MASTER_NAME = "distlock";

	private final RedisServerProcess master;

	private final RedisServerProcess replica;

	private final RedisServerProcess sentinel;

	private RedisSentinelHandle(RedisServerProcess master, RedisServerProcess replica, RedisServerProcess sentinel) {
		this.master = master;
		this.replica = replica;
		this.sentinel = sentinel;
	}

	static RedisSentinelHandle start(Path binary) {
		return start(binary, Duration.ofSeconds(5), Function.identity());
	}

	static RedisSentinelHandle start(Path binary, Duration downAfter,
			Function<RedisEndpoint, RedisEndpoint> replicationLink) {
		RedisServerProcess master = RedisServerProcess.startOnFreePort(binary);
		RedisServerProcess replica = null;
		try {
			RedisEndpoint upstream = replicationLink.apply(master.endpoint());
			replica = RedisServerProcess.startOnFreePort(binary, "--replicaof", upstream.host(),
					Integer.toString(upstream.port()));
			awaitLink(replica);
			return new RedisSentinelHandle(master, replica,
					RedisServerProcess.startSentinelOnFreePort(binary, MASTER_NAME, master.endpoint(), downAfter));
		}
		catch (RuntimeException ex) {
			if (replica != null) {
				replica.close();
			}
			master.close();
			throw ex;
		}
	}

	private static void awaitLink(RedisServerProcess replica) {
		long deadline = System.nanoTime() + 30_000_000_000L;
		try (AdminConnection connection = new AdminConnection(replica.endpoint())) {
			while (!connection.commands().info("replication").contains("master_link_status:up")) {
				if (System.nanoTime() - deadline > 0) {
					throw new IllegalStateException("The replica never linked to its master");
				}
				Thread.sleep(20);
			}
		}
		catch (RedisException ex) {
			throw new IllegalStateException("Could not ask the replica for its link", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Return where the Sentinel listens.
	 * @return the Sentinel endpoint
	 */
	public RedisEndpoint sentinel() {
		return this.sentinel.endpoint();
	}

	/**
	 * Return where the replica of the master listens.
	 * @return the replica endpoint
	 */
	public RedisEndpoint replica() {
		return this.replica.endpoint();
	}

	/**
	 * Return where the master listens.
	 * @return the master endpoint
	 */
	public RedisEndpoint master() {
		return this.master.endpoint();
	}

	/**
	 * Return the master's process, to stop, kill or pause it.
	 * @return the master
	 */
	public RedisServerHandle masterServer() {
		return this.master;
	}

	/**
	 * Return the replica's process, to stop, kill or pause it.
	 * @return the replica
	 */
	public RedisServerHandle replicaServer() {
		return this.replica;
	}

	@Override
	public void close() {
		this.sentinel.close();
		this.replica.close();
		this.master.close();
	}

}
