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

package dev.distlock.autoconfigure.redis;

import java.time.Duration;
import java.util.function.Supplier;

import dev.distlock.core.LockClientSettings;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Warns at startup when the Redis client's command timeout
 * ({@code spring.data.redis.timeout}) is not below the watchdog's lease
 * ({@code distlock.watchdog-lease}) minus its renewal interval (a third of the lease): a
 * command to a Redis node that stops answering without closing the connection then fails
 * only after a lease that missed a renewal has run out.
 *
 * @author distlock
 * @since 0.1.0
 */
final class RedisTimeoutWarning {

	private static final Log logger = LogFactory.getLog(RedisTimeoutWarning.class);

	private RedisTimeoutWarning() {
	}

	/**
	 * Log the warning if the command timeout is too long for the settings' lease.
	 * @param commandTimeout tells the store's command timeout
	 * @param settings the client settings
	 */
	static void warnIfTooLong(Supplier<Duration> commandTimeout, LockClientSettings settings) {
		String warning;
		try {
			warning = warning(commandTimeout.get(), settings);
		}
		catch (RuntimeException ex) {
			logger.debug("Could not tell the Redis command timeout; not comparing it with the watchdog lease", ex);
			return;
		}
		if (warning != null) {
			logger.warn(warning);
		}
	}

	/**
	 * Return the warning, or {@code null} when the command timeout is short enough.
	 * @param commandTimeout the store's command timeout
	 * @param settings the client settings
	 * @return the warning, if any
	 */
	static @Nullable String warning(Duration commandTimeout, LockClientSettings settings) {
		Duration lease = settings.watchdogLease();
		Duration interval = settings.renewalInterval();
		Duration bound = lease.minus(interval);
		if (commandTimeout.compareTo(bound) < 0) {
			return null;
		}
		return "spring.data.redis.timeout (" + commandTimeout.toMillis()
				+ " ms, the Redis client's command timeout) is not below distlock.watchdog-lease (" + lease.toMillis()
				+ " ms) minus its renewal interval (" + interval.toMillis() + " ms): a command to a Redis node that "
				+ "stops answering without closing the connection fails only after a lease that missed a renewal "
				+ "has run out, and a caller waits that long to be told; set spring.data.redis.timeout below "
				+ bound.toMillis() + " ms or raise distlock.watchdog-lease";
	}

}
