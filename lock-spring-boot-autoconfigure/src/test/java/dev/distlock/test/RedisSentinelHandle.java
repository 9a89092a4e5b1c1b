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

import java.nio.file.Path;

/**
 * A Redis master watched by one Sentinel, both processes a test started.
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

	private final RedisServerProcess sentinel;

	private RedisSentinelHandle(RedisServerProcess master, RedisServerProcess sentinel) {
		this.master = master;
		this.sentinel = sentinel;
	}

	static RedisSentinelHandle start(Path binary) {
		RedisServerProcess master = RedisServerProcess.startOnFreePort(binary);
		try {
			return new RedisSentinelHandle(master,
					RedisServerProcess.startSentinelOnFreePort(binary, MASTER_NAME, master.endpoint()));
		}
		catch (RuntimeException ex) {
			master.close();
			throw ex;
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
	 * Return where the master listens.
	 * @return the master endpoint
	 */
	public RedisEndpoint master() {
		return this.master.endpoint();
	}

	@Override
	public void close() {
		this.sentinel.close();
		this.master.close();
	}

}
