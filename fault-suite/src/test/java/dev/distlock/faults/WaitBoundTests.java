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
package dev.distlock.faults;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.LockHandle;
import dev.distlock.testing.redis.RedisServerHandle;
import dev.distlock.testing.redis.TestRedis;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The documented wait bound, with Redis killed or frozen in the middle of the wait: a
 * waiter gives up within its wait time plus one command timeout (plus scheduling slack),
 * never later, and says why. Part of the fault suite's quick tier.
 *
 * @author distlock
 */
class WaitBoundTests {

	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(1);

	private static final Duration HOLDER_COMMAND_TIMEOUT = Duration.ofSeconds(10);

	private static final Duration WAIT = Duration.ofMillis(1500);

	private static final Duration SLACK = Duration.ofMillis(300);

	@ParameterizedTest(name = "run {0}")
	@ValueSource(ints = { 1, 2, 3 })
	void aWaiterGivesUpWithinTheBoundWhenRedisIsKilledMidWait(int run) throws Exception {
		assertWaitBound("killed-" + run, false);
	}

	@ParameterizedTest(name = "run {0}")
	@ValueSource(ints = { 1, 2, 3 })
	void aWaiterGivesUpWithinTheBoundWhenRedisIsFrozenMidWait(int run) throws Exception {
		assertWaitBound("frozen-" + run, true);
	}

	private void assertWaitBound(String key, boolean frozen) throws Exception {
		try (RedisServerHandle server = TestRedis.startServer();
				// Only the waiter's timeout is part of the bound: the holder's first
				// script on a cold JVM may take longer on a loaded machine
				ClientInstance holder = ClientInstance.on(server.endpoint(), HOLDER_COMMAND_TIMEOUT,
						Duration.ofSeconds(30));
				ClientInstance waiter = ClientInstance.on(server.endpoint(), COMMAND_TIMEOUT, Duration.ofSeconds(30))) {
			warmUp(waiter);
			LockHandle held = holder.client().obtain(key);
			assertThat(held.tryLock(Duration.ZERO)).isTrue();
			LockHandle waiting = waiter.client().obtain(key);
			CompletableFuture<Long> elapsed = new CompletableFuture<>();
			Thread thread = new Thread(() -> {
				long started = System.nanoTime();
				try {
					assertThat(waiting.tryLock(WAIT)).isFalse();
				}
				catch (Throwable ex) {
					// Busy or a backend failure: either way it gave up
				}
				elapsed.complete(System.nanoTime() - started);
			});
			thread.start();
			await(waiter, key);
			if (frozen) {
				server.pause();
			}
			else {
				server.kill();
			}
			long tookNanos = elapsed.get(10, TimeUnit.SECONDS);
			assertThat(Duration.ofNanos(tookNanos)).as("time to give up with Redis %s", key)
				.isLessThanOrEqualTo(WAIT.plus(COMMAND_TIMEOUT).plus(SLACK));
			if (frozen) {
				server.resume();
			}
		}
	}

	/**
	 * Take and release a lock of another key until one round succeeds within the waiter's
	 * short command timeout, so its connection and scripts are ready before the measured
	 * wait.
	 */
	private static void warmUp(ClientInstance waiter) {
		LockHandle warmUp = waiter.client().obtain("warm-up");
		Awaitility.await("the waiter's client warmed up")
			.atMost(Duration.ofSeconds(20))
			.ignoreExceptions()
			.pollInSameThread()
			.until(() -> {
				if (!warmUp.tryLock(Duration.ZERO)) {
					return false;
				}
				warmUp.unlock();
				return true;
			});
	}

	private static void await(ClientInstance waiter, String key) {
		Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> waiter.client().waitingCount(key) == 1);
	}

}
