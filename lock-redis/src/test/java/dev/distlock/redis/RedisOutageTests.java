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

package dev.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHandle;
import dev.distlock.LockBackendException;
import dev.distlock.testing.redis.RedisServerHandle;
import dev.distlock.testing.redis.TestRedis;
import io.lettuce.core.KillArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Redis going away: acquisition fails closed within the command timeout, and the client
 * recovers by itself when Redis returns.
 *
 * @author distlock
 */
class RedisOutageTests {

	private static final Duration COMMAND_TIMEOUT = Duration.ofMillis(500);

	private RedisServerHandle server;

	private LettuceConnectionFactory connectionFactory;

	private DefaultLockClient client;

	@BeforeEach
	void startServer() {
		this.server = TestRedis.startServer();
		this.connectionFactory = TestRedis.connectionFactory(this.server.endpoint(), COMMAND_TIMEOUT);
		this.client = new DefaultLockClient(new RedisLockStore(TestRedis.template(this.connectionFactory)),
				LockClientSettings.defaults().withCloseTimeout(Duration.ofSeconds(1)));
	}

	@AfterEach
	void stopServer() {
		this.client.close();
		this.connectionFactory.destroy();
		this.server.close();
	}

	@Test
	void acquisitionFailsClosedWhileRedisIsDownAndRecoversWhenItReturns() throws Exception {
		LockHandle lock = this.client.obtain("outage");
		assertThat(lock.tryLock(Duration.ZERO)).isTrue();
		lock.unlock();
		this.server.stop();
		long started = System.nanoTime();
		assertThatExceptionOfType(LockBackendException.class).isThrownBy(() -> lock.tryLock(Duration.ofSeconds(1)))
			.withMessageContaining("outage");
		long failedAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
		System.out.println("acquire with Redis down failed after " + failedAfterMillis + " ms");
		assertThat(failedAfterMillis).isLessThan(1000 + COMMAND_TIMEOUT.toMillis() + 1000);
		assertThat(lock.getHoldCount()).isZero();
		this.server.start();
		assertThat(acquireWithinSeconds(lock, 15)).isTrue();
		assertThat(lock.isHeldByCurrentThread()).isTrue();
		lock.unlock();
	}

	@Test
	void waitersAreWokenByPubSubAgainAfterRedisRestarted() throws Exception {
		try (DefaultLockClient other = new DefaultLockClient(
				new RedisLockStore(TestRedis.template(this.connectionFactory)))) {
			LockHandle holder = other.obtain("restarted");
			LockHandle waiter = this.client.obtain("restarted");
			assertThat(holder.tryLock(Duration.ZERO)).isTrue();
			assertThat(waitAndRelease(waiter, holder)).isLessThan(5000);
			this.server.stop();
			this.server.start();
			assertThat(acquireWithinSeconds(holder, 15)).isTrue();
			long wokenAfterMillis = waitAndRelease(waiter, holder);
			System.out
				.println("after a Redis restart a waiter was woken " + wokenAfterMillis + " ms after the release");
			assertThat(wokenAfterMillis).isLessThan(5000);
		}
	}

	@Test
	void aTimedOutAcquireLeavesNoLockBehindOnceRedisAnswersAgain() throws Exception {
		StringRedisTemplate redis = TestRedis.template(this.connectionFactory);
		LockHandle lock = this.client.obtain("timed-out");
		assertThat(lock.tryLock(Duration.ZERO)).isTrue();
		lock.unlock();
		this.server.pause();
		try {
			assertThatExceptionOfType(LockBackendException.class).isThrownBy(() -> lock.tryLock(Duration.ZERO));
			assertThatExceptionOfType(LockBackendException.class)
				.isThrownBy(() -> this.client.acquire("timed-out-hold", Duration.ZERO, null));
			Thread.sleep(100);
		}
		finally {
			this.server.resume();
		}
		// The acquire scripts were queued on the connection and run once Redis answers;
		// the owner-checked releases queued behind them must free the keys at once, not
		// after the 30 s watchdog lease.
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
		while ((Boolean.TRUE.equals(redis.hasKey(lockKey("timed-out")))
				|| Boolean.TRUE.equals(redis.hasKey(lockKey("timed-out-hold")))) && System.nanoTime() - deadline < 0) {
			Thread.sleep(10);
		}
		assertThat(redis.hasKey(lockKey("timed-out"))).isFalse();
		assertThat(redis.hasKey(lockKey("timed-out-hold"))).isFalse();
	}

	@Test
	void concurrentFirstAcquisitionsAgainstAPausedRedisAllFailWithinOneTimeout() throws Exception {
		this.server.pause();
		int callers = 8;
		List<CompletableFuture<Long>> failures = new ArrayList<>();
		CountDownLatch start = new CountDownLatch(1);
		try {
			for (int i = 0; i < callers; i++) {
				String key = "first-" + i;
				failures.add(CompletableFuture.supplyAsync(() -> {
					try {
						start.await();
						long started = System.nanoTime();
						try {
							this.client.obtain(key).tryLock(Duration.ZERO);
							return -1L;
						}
						catch (LockBackendException ex) {
							return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
						}
					}
					catch (InterruptedException ex) {
						throw new IllegalStateException(ex);
					}
				}, (task) -> new Thread(task).start()));
			}
			start.countDown();
			List<Long> failedAfterMillis = new ArrayList<>();
			for (CompletableFuture<Long> failure : failures) {
				failedAfterMillis.add(failure.get(30, TimeUnit.SECONDS));
			}
			System.out.println(callers + " first acquisitions against a paused Redis failed after " + failedAfterMillis
					+ " ms (command timeout " + COMMAND_TIMEOUT.toMillis() + " ms)");
			// One after another they would take callers x the command timeout.
			assertThat(failedAfterMillis)
				.allSatisfy((millis) -> assertThat(millis).isBetween(0L, 2 * COMMAND_TIMEOUT.toMillis() + 1000));
		}
		finally {
			this.server.resume();
		}
	}

	@Test
	void aLostPubSubConnectionIsRestoredWithoutWaitingOutTheHoldersLease() throws Exception {
		StringRedisTemplate redis = TestRedis.template(this.connectionFactory);
		try (DefaultLockClient other = new DefaultLockClient(new RedisLockStore(redis))) {
			LockHandle holder = other.obtain("reconnect");
			LockHandle waiter = this.client.obtain("reconnect");
			assertThat(holder.tryLock(Duration.ZERO)).isTrue();
			long acquiredAfterMillis = waitAndRelease(waiter, holder,
					() -> assertThat(killPubSubConnections(redis)).isPositive());
			System.out.println("a release published while the pub/sub connection was down reached the waiter after "
					+ acquiredAfterMillis + " ms (holder's lease 30 s)");
			assertThat(acquiredAfterMillis).isLessThan(5000);
		}
	}

	@SuppressWarnings("unchecked")
	private static long killPubSubConnections(StringRedisTemplate redis) {
		Long killed = redis.execute((RedisCallback<Long>) (connection) -> {
			try {
				return ((RedisClusterAsyncCommands<byte[], byte[]>) connection.getNativeConnection())
					.clientKill(KillArgs.Builder.typePubsub())
					.get(5, TimeUnit.SECONDS);
			}
			catch (Exception ex) {
				throw new IllegalStateException("CLIENT KILL TYPE pubsub failed", ex);
			}
		});
		return (killed != null) ? killed : 0;
	}

	private static String lockKey(String key) {
		return LockKeys.of(RedisLockStore.DEFAULT_KEY_PREFIX, key).lockKey();
	}

	/**
	 * Let {@code waiter} wait for the lock {@code holder} holds, release it, and return
	 * how long the waiter took to get it. The holder's watchdog lease is 30 s: the waiter
	 * gets it sooner only through a release notification or its once-a-second re-check.
	 */
	private static long waitAndRelease(LockHandle waiter, LockHandle holder) throws Exception {
		return waitAndRelease(waiter, holder, () -> {
		});
	}

	private static long waitAndRelease(LockHandle waiter, LockHandle holder, Runnable beforeRelease) throws Exception {
		CompletableFuture<Long> acquiredAt = CompletableFuture.supplyAsync(() -> {
			try {
				assertThat(waiter.tryLock(Duration.ofSeconds(60))).isTrue();
				waiter.unlock();
				return System.nanoTime();
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		Thread.sleep(500);
		beforeRelease.run();
		long releasedAt = System.nanoTime();
		holder.unlock();
		return TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(60, TimeUnit.SECONDS) - releasedAt);
	}

	@Test
	void acquisitionFailsClosedWithinTheCommandTimeoutWhenRedisHangs() throws Exception {
		LockHandle lock = this.client.obtain("hang");
		this.server.pause();
		try {
			long started = System.nanoTime();
			assertThatExceptionOfType(LockBackendException.class).isThrownBy(() -> lock.tryLock(Duration.ZERO));
			long failedAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
			System.out.println("acquire with Redis paused failed after " + failedAfterMillis + " ms");
			assertThat(failedAfterMillis).isLessThan(COMMAND_TIMEOUT.toMillis() + 1000);
		}
		finally {
			this.server.resume();
		}
		assertThat(acquireWithinSeconds(lock, 15)).isTrue();
		lock.unlock();
	}

	@Test
	void interruptDuringAnAcquireCommandIsReportedAsInterruptAndLeavesNoLock() throws Exception {
		LockHandle lock = this.client.obtain("interrupted-command");
		this.server.pause();
		CompletableFuture<Throwable> outcome = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				lock.tryLock(Duration.ZERO);
				outcome.complete(null);
			}
			catch (Throwable ex) {
				outcome.complete(ex);
			}
		});
		thread.start();
		Thread.sleep(100);
		thread.interrupt();
		Throwable thrown = outcome.get(5, TimeUnit.SECONDS);
		this.server.resume();
		// The command is not on the interrupted thread: the caller stops waiting at once,
		// and
		// the acquisition releases whatever the command grants when Redis answers
		assertThat(thrown).isInstanceOf(InterruptedException.class);
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		try (DefaultLockClient other = new DefaultLockClient(
				new RedisLockStore(TestRedis.template(this.connectionFactory)))) {
			LockHandle otherLock = other.obtain("interrupted-command");
			assertThat(acquireWithinSeconds(otherLock, 5)).isTrue();
			otherLock.unlock();
		}
	}

	private static boolean acquireWithinSeconds(LockHandle lock, int seconds) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
		while (System.nanoTime() - deadline < 0) {
			try {
				if (lock.tryLock(Duration.ZERO)) {
					return true;
				}
			}
			catch (LockBackendException ex) {
				Thread.sleep(100);
			}
		}
		return false;
	}

}
