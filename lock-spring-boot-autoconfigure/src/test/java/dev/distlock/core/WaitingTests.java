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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import dev.distlock.LockAcquisitionException;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.RedisCallback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Waiting for a lock: pub/sub wake-ups, local queueing, time limits and interrupts.
 *
 * @author distlock
 */
class WaitingTests extends RedisLockTestSupport {

	@Test
	void tryLockWithZeroWaitReturnsAtOnceWhenHeld() throws Exception {
		String key = uniqueKey("busy");
		LockHandle holder = heldByAnotherClient(key);
		LockHandle other = newClient().obtain(key);
		long started = System.nanoTime();
		assertThat(other.tryLock(Duration.ZERO)).isFalse();
		assertThat(other.tryLock()).isFalse();
		long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
		System.out.println("tryLock(0) x2 on a held key returned in " + elapsedMillis + " ms");
		assertThat(elapsedMillis).isLessThan(1000);
		holder.unlock();
	}

	@Test
	void tryLockGivesUpAfterTheWaitTime() throws Exception {
		String key = uniqueKey("timeout");
		LockHandle holder = heldByAnotherClient(key);
		long started = System.nanoTime();
		assertThat(newClient().obtain(key).tryLock(Duration.ofMillis(300))).isFalse();
		long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
		assertThat(elapsedMillis).isBetween(250L, 300L + COMMAND_TIMEOUT.toMillis());
		holder.unlock();
	}

	@Test
	void releaseWakesAWaiterInAnotherClientWithoutWaitingForTheLease() throws Exception {
		String key = uniqueKey("wake");
		LockHandle holder = newClient().obtain(key);
		LockHandle waiter = newClient().obtain(key);
		int rounds = 20;
		List<Long> wakeUpMicros = new ArrayList<>();
		for (int i = 0; i < rounds; i++) {
			assertThat(holder.tryLock(Duration.ZERO)).isTrue();
			AtomicLong acquiredAt = new AtomicLong();
			CountDownLatch waiting = new CountDownLatch(1);
			CompletableFuture<Boolean> acquired = CompletableFuture.supplyAsync(() -> {
				waiting.countDown();
				try {
					boolean result = waiter.tryLock(Duration.ofSeconds(20));
					acquiredAt.set(System.nanoTime());
					waiter.unlock();
					return result;
				}
				catch (InterruptedException ex) {
					throw new IllegalStateException(ex);
				}
			});
			waiting.await();
			awaitSubscribers(lockKey(key) + ":released", 1);
			Thread.sleep(100);
			long releasedAt = System.nanoTime();
			holder.unlock();
			assertThat(acquired.get(20, TimeUnit.SECONDS)).isTrue();
			wakeUpMicros.add(TimeUnit.NANOSECONDS.toMicros(acquiredAt.get() - releasedAt));
		}
		wakeUpMicros.sort(null);
		long p50 = wakeUpMicros.get(rounds / 2);
		long max = wakeUpMicros.get(rounds - 1);
		System.out.printf("release-to-waiter wake-up over %d rounds: p50 %d us, max %d us%n", rounds, p50, max);
		// The watchdog lease is 30 s: without the pub/sub wake-up a waiter would sleep
		// until the holder's TTL ran out.
		assertThat(max).isLessThan(TimeUnit.SECONDS.toMicros(5));
	}

	@Test
	void waitersOfOneClientQueueLocallySoOnlyOneSubscribes() throws Exception {
		String key = uniqueKey("queue");
		RedisLockClient holderClient = newClient();
		RedisLockClient waitingClient = newClient();
		LockHandle holder = holderClient.obtain(key);
		assertThat(holder.tryLock(Duration.ZERO)).isTrue();
		int threads = 8;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		List<Future<Boolean>> waiters = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			waiters.add(pool.submit(() -> {
				LockHandle lock = waitingClient.obtain(key);
				boolean acquired = lock.tryLock(Duration.ofSeconds(30));
				if (acquired) {
					lock.unlock();
				}
				return acquired;
			}));
		}
		String channel = lockKey(key) + ":released";
		awaitSubscribers(channel, 1);
		long scriptsBefore = scriptCalls();
		Thread.sleep(500);
		assertThat(subscribers(channel)).isEqualTo(1);
		assertThat(scriptCalls() - scriptsBefore).isLessThanOrEqualTo(1);
		holder.unlock();
		for (Future<Boolean> waiter : waiters) {
			assertThat(waiter.get(30, TimeUnit.SECONDS)).isTrue();
		}
		pool.shutdown();
		assertThat(subscribers(channel)).as("lingers after the last waiter left").isEqualTo(1);
		awaitSubscribers(channel, 0);
	}

	@Test
	void interruptEndsTheWaitWithInterruptedException() throws Exception {
		String key = uniqueKey("interrupt");
		LockHandle holder = heldByAnotherClient(key);
		LockHandle waiter = newClient().obtain(key);
		CompletableFuture<Throwable> outcome = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				waiter.tryLock(Duration.ofSeconds(30));
				outcome.complete(null);
			}
			catch (Throwable ex) {
				outcome.complete(ex);
			}
		});
		thread.start();
		awaitSubscribers(lockKey(key) + ":released", 1);
		thread.interrupt();
		assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
		assertThat(holder.isHeldByCurrentThread()).isTrue();
		holder.unlock();
	}

	@Test
	void interruptDuringExecuteFailsAcquisitionAndRestoresTheFlag() throws Exception {
		String key = uniqueKey("interrupt-execute");
		LockHandle holder = heldByAnotherClient(key);
		RedisLockClient client = newClient();
		AtomicBoolean ran = new AtomicBoolean();
		CompletableFuture<Throwable> outcome = new CompletableFuture<>();
		CompletableFuture<Boolean> flagAfterwards = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				client.execute(key, Duration.ofSeconds(30), (lock) -> ran.getAndSet(true));
				outcome.complete(null);
			}
			catch (Throwable ex) {
				outcome.complete(ex);
			}
			flagAfterwards.complete(Thread.currentThread().isInterrupted());
		});
		thread.start();
		awaitSubscribers(lockKey(key) + ":released", 1);
		thread.interrupt();
		assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(LockAcquisitionException.class)
			.hasCauseInstanceOf(InterruptedException.class);
		assertThat(flagAfterwards.get(5, TimeUnit.SECONDS)).isTrue();
		assertThat(ran).isFalse();
		holder.unlock();
	}

	@Test
	void lockIgnoresInterruptsUntilAcquiredAndRestoresTheFlag() throws Exception {
		String key = uniqueKey("uninterruptible");
		LockHandle holder = heldByAnotherClient(key);
		LockHandle waiter = newClient().obtain(key);
		CompletableFuture<Boolean> interruptedWhenAcquired = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			waiter.lock();
			interruptedWhenAcquired.complete(Thread.currentThread().isInterrupted());
			waiter.unlock();
		});
		thread.start();
		awaitSubscribers(lockKey(key) + ":released", 1);
		thread.interrupt();
		Thread.sleep(200);
		assertThat(interruptedWhenAcquired).isNotDone();
		holder.unlock();
		assertThat(interruptedWhenAcquired.get(10, TimeUnit.SECONDS)).isTrue();
	}

	private static void awaitSubscribers(String channel, long expected) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (subscribers(channel) != expected) {
			if (System.nanoTime() - deadline > 0) {
				throw new AssertionError("Channel " + channel + " never had " + expected + " subscriber(s), has "
						+ subscribers(channel));
			}
			Thread.sleep(5);
		}
	}

	@SuppressWarnings("unchecked")
	private static long subscribers(String channel) {
		return redis.execute((RedisCallback<Long>) (connection) -> {
			RedisClusterAsyncCommands<byte[], byte[]> commands = (RedisClusterAsyncCommands<byte[], byte[]>) connection
				.getNativeConnection();
			try {
				return commands.pubsubNumsub(channel.getBytes(StandardCharsets.UTF_8))
					.get(5, TimeUnit.SECONDS)
					.values()
					.iterator()
					.next();
			}
			catch (Exception ex) {
				throw new IllegalStateException("PUBSUB NUMSUB failed", ex);
			}
		});
	}

}
