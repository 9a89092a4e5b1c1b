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
import java.util.concurrent.TimeUnit;

import dev.distlock.benchmarks.RedisEndpoint;
import org.jspecify.annotations.Nullable;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@link RLock} from a plain {@code Redisson.create(config)} client, in its
 * default watchdog mode (no lease given).
 *
 * @author distlock
 * @since 0.1.0
 */
final class RedissonContender implements LockContender {

	private final RedissonClient redisson;

	private final boolean fair;

	RedissonContender(RedisEndpoint endpoint, Duration lease, boolean fair) {
		this.fair = fair;
		Config config = new Config();
		config.useSingleServer().setAddress(endpoint.uri());
		config.setLockWatchdogTimeout(lease.toMillis());
		this.redisson = Redisson.create(config);
	}

	@Override
	public @Nullable Held tryLock(String key, Duration wait) throws InterruptedException {
		RLock lock = this.fair ? this.redisson.getFairLock(key) : this.redisson.getLock(key);
		return lock.tryLock(wait.toMillis(), TimeUnit.MILLISECONDS) ? lock::unlock : null;
	}

	@Override
	public void close() {
		this.redisson.shutdown();
	}

}
