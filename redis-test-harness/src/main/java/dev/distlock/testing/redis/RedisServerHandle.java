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
 * A Redis server a test started and controls, for fault tests.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface RedisServerHandle extends AutoCloseable {

	/**
	 * Return where the server listens; the same across restarts.
	 * @return the endpoint
	 */
	RedisEndpoint endpoint();

	/**
	 * Start the server (again) on the same port, with no data.
	 */
	void start();

	/**
	 * Stop the server gracefully and wait until its port is free.
	 */
	void stop();

	/**
	 * Kill the server at once (SIGKILL), as a crash would.
	 */
	void kill();

	/**
	 * Freeze the server (SIGSTOP): connections stay open but nothing is answered.
	 */
	void pause();

	/**
	 * Thaw a paused server (SIGCONT).
	 */
	void resume();

	/**
	 * Return whether the server process is alive (paused counts as alive).
	 * @return whether it runs
	 */
	boolean isRunning();

	/**
	 * Stop the server for good and remove its files; safe to call more than once.
	 */
	@Override
	void close();

}
