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

package dev.distlock.core;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.distlock.redis.RedisLockStore;
import dev.distlock.LockLostException;
import dev.distlock.testing.redis.RedisServerHandle;
import dev.distlock.testing.redis.TestRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What the README does not promise, shown to be detected: a holder paused past its lease
 * and a lock key that vanished (as after a failover to a replica that never saw it, or an
 * eviction) both let a second holder in, and in both cases the first holder learns it
 * lost the lock and its fencing token is lower than the second holder's.
 *
 * @author distlock
 */
class FailureDetectionTests {

	private RedisServerHandle server;

	private LettuceConnectionFactory connectionFactory;

	private StringRedisTemplate redis;

	private DefaultLockClient first;

	private DefaultLockClient second;

	@BeforeEach
	void start() {
		this.server = TestRedis.startServer();
		this.connectionFactory = TestRedis.connectionFactory(this.server.endpoint(), Duration.ofSeconds(2));
		this.redis = TestRedis.template(this.connectionFactory);
		LockClientSettings settings = LockClientSettings.defaults().withWatchdogLease(Duration.ofSeconds(1));
		this.first = new DefaultLockClient(new RedisLockStore(this.redis), settings);
		this.second = new DefaultLockClient(new RedisLockStore(this.redis), settings);
	}

	@AfterEach
	void stop() {
		this.first.close();
		this.second.close();
		this.connectionFactory.destroy();
		this.server.close();
	}

	@Test
	void aHolderPausedPastItsLeaseIsFencedOffAndToldItLostTheLock() throws Exception {
		FencedRegister register = new FencedRegister();
		LockHandle slow = this.first.obtain("account:1");
		assertThat(slow.tryLock(Duration.ZERO, Duration.ofMillis(200))).isTrue();
		long slowToken = slow.fencingToken();
		Thread.sleep(300);
		LockHandle fast = this.second.obtain("account:1");
		assertThat(fast.tryLock(Duration.ZERO)).isTrue();
		assertThat(register.write(fast.fencingToken(), "fast")).isTrue();
		assertThat(register.write(slowToken, "slow")).isFalse();
		assertThat(register.value).isEqualTo("fast");
		assertThat(slow.isHeldByCurrentThread()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(slow::unlock);
		assertThat(fast.isHeldByCurrentThread()).isTrue();
		fast.unlock();
	}

	@Test
	void aVanishedKeyIsReportedToTheHolderAndFencingTokensStillIncrease() throws Exception {
		LockHandle holder = this.first.obtain("stock:7");
		assertThat(holder.tryLock(Duration.ZERO)).isTrue();
		long holderToken = holder.fencingToken();
		this.redis.execute((RedisCallback<Void>) (connection) -> {
			connection.serverCommands().flushAll();
			return null;
		});
		LockHandle intruder = this.second.obtain("stock:7");
		assertThat(intruder.tryLock(Duration.ZERO)).isTrue();
		assertThat(intruder.fencingToken()).isGreaterThan(holderToken);
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		while (holder.isHeldByCurrentThread() && System.nanoTime() - deadline < 0) {
			Thread.sleep(20);
		}
		assertThat(holder.isHeldByCurrentThread()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(holder::unlock);
		assertThat(intruder.isHeldByCurrentThread()).isTrue();
		intruder.confirmOwnership();
		intruder.unlock();
	}

	@Test
	void closingWhileRedisHangsReturnsWithinTheCloseTimeout() throws Exception {
		DefaultLockClient client = new DefaultLockClient(new RedisLockStore(this.redis),
				LockClientSettings.defaults().withCloseTimeout(Duration.ofMillis(500)));
		assertThat(client.obtain("held-at-close").tryLock(Duration.ZERO)).isTrue();
		this.server.pause();
		try {
			long started = System.nanoTime();
			client.close();
			assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(1500);
		}
		finally {
			this.server.resume();
		}
	}

	/**
	 * A resource that rejects writes carrying a fencing token lower than one it has seen.
	 */
	private static final class FencedRegister {

		private long highestToken;

		private String value = "";

		synchronized boolean write(long token, String newValue) {
			if (token < this.highestToken) {
				return false;
			}
			this.highestToken = token;
			this.value = newValue;
			return true;
		}

	}

}
