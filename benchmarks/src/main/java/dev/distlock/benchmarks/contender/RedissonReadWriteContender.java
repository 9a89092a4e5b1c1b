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
import org.redisson.api.RReadWriteLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@link RReadWriteLock} from a plain {@code Redisson.create(config)} client,
 * in its default watchdog mode.
 *
 * @author distlock
 * @since 0.1.0
 */
final class RedissonReadWriteContender implements ReadWriteContender {

	private final RedissonClient redisson;

	RedissonReadWriteContender(RedisEndpoint endpoint, Duration lease) {
		Config config = new Config();
		config.useSingleServer().setAddress(endpoint.uri());
		config.setLockWatchdogTimeout(lease.toMillis());
		this.redisson = Redisson.create(config);
	}

	@Override
	public LockContender.@Nullable Held tryLock(String key, boolean read, Duration wait) throws InterruptedException {
		RReadWriteLock lock = this.redisson.getReadWriteLock(key);
		RLock mode = read ? lock.readLock() : lock.writeLock();
		return mode.tryLock(wait.toMillis(), TimeUnit.MILLISECONDS) ? mode::unlock : null;
	}

	@Override
	public void close() {
		this.redisson.shutdown();
	}

}
