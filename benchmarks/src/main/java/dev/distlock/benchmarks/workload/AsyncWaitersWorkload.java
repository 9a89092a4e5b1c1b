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

package dev.distlock.benchmarks.workload;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import dev.distlock.benchmarks.RedisAdmin;
import dev.distlock.benchmarks.RedisEndpoint;
import dev.distlock.benchmarks.contender.SpringRedis;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHold;
import dev.distlock.redis.RedisLockStore;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Many asynchronous waiters at once, distlock only: a holder client takes N distinct
 * keys, a second client (its own {@link RedisLockStore} and connection, same Redis)
 * starts one {@link LockClient#acquireAsync acquireAsync} per key and all of them wait.
 * Measures the platform threads the waiters add (live threads before, while all wait, and
 * the peaks while they start and while they are granted), the heap they retain (after a
 * collection hint, approximate), and the time from the holder's first release until every
 * waiter's future completed; then releases everything and checks that no lock is left, in
 * the client or in Redis.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class AsyncWaitersWorkload {

	/** Key names of the workload's locks. */
	static final String KEY_PREFIX = "async-waiters:";

	/** How long each waiter may wait: far longer than the whole run needs. */
	private static final Duration WAIT_TIME = Duration.ofMinutes(3);

	/** The holder's fixed lease: no renewal traffic while the waiters wait. */
	private static final Duration HOLDER_LEASE = WAIT_TIME.multipliedBy(2);

	/** Bound of every poll and every wait for a set of futures. */
	private static final Duration BOUND = Duration.ofMinutes(2);

	/** Bound of the poll for the waiting client to hold nothing after its releases. */
	private static final Duration RELEASE_BOUND = Duration.ofSeconds(10);

	/** Characters of a client id in the names of its engine's threads. */
	static final int CLIENT_ID_IN_NAMES = 8;

	private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

	private final int waiters;

	/**
	 * Create the workload.
	 * @param waiters how many asynchronous waiters wait at once, one per busy key
	 */
	public AsyncWaitersWorkload(int waiters) {
		this.waiters = waiters;
	}

	/**
	 * Run the workload.
	 * @param endpoint the Redis
	 * @param admin a connection to the same Redis
	 * @return the result
	 * @throws Exception if a lock cannot be taken, the waiters do not all wait or are not
	 * all completed within the bound
	 */
	public AsyncWaitersResult run(RedisEndpoint endpoint, RedisAdmin admin) throws Exception {
		admin.flush();
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		LettuceConnectionFactory holderConnection = SpringRedis.connectionFactory(endpoint);
		LettuceConnectionFactory waiterConnection = SpringRedis.connectionFactory(endpoint);
		try (DefaultLockClient holder = client(holderConnection); DefaultLockClient waiter = client(waiterConnection)) {
			warmUp(holder, waiter);
			List<String> keys = new ArrayList<>(this.waiters);
			List<LockHold> held = new ArrayList<>(this.waiters);
			for (int i = 0; i < this.waiters; i++) {
				String key = KEY_PREFIX + i;
				keys.add(key);
				held.add(holder.acquire(key, Duration.ZERO, HOLDER_LEASE));
			}
			List<CompletableFuture<LockHold>> waiting = new ArrayList<>(this.waiters);
			long[] grantedAt = new long[this.waiters];
			long heapBefore = usedHeapAfterGc();
			Set<Long> threadIdsBefore = Arrays.stream(threads.getAllThreadIds()).boxed().collect(Collectors.toSet());
			int threadsBefore = threads.getThreadCount();
			threads.resetPeakThreadCount();
			long startedAt = System.nanoTime();
			for (String key : keys) {
				waiting.add(waiter.acquireAsync(key, WAIT_TIME, null).toCompletableFuture());
			}
			awaitCondition("all " + this.waiters + " waiters waiting",
					() -> keys.stream().mapToInt(waiter::waitingCount).sum() == this.waiters,
					() -> keys.stream().mapToInt(waiter::waitingCount).sum() + " waiting, " + waiter.acquiringCount()
							+ " acquiring, " + waiting.stream().filter(CompletableFuture::isDone).count()
							+ " completed");
			long startNanos = System.nanoTime() - startedAt;
			int peakStarting = threads.getPeakThreadCount();
			int threadsWhileWaiting = threads.getThreadCount();
			long heapWhileWaiting = usedHeapAfterGc();
			threadsWhileWaiting = Math.max(threadsWhileWaiting, threads.getThreadCount());
			long early = waiting.stream().filter(CompletableFuture::isDone).count();
			if (early > 0) {
				throw new IllegalStateException(early + " waiters completed before the holder released");
			}
			// wait for these, not for the waiters: they complete once the time is
			// recorded
			List<CompletableFuture<LockHold>> recorded = new ArrayList<>(this.waiters);
			for (int i = 0; i < this.waiters; i++) {
				int index = i;
				recorded.add(waiting.get(i).whenComplete((hold, failure) -> grantedAt[index] = System.nanoTime()));
			}
			threads.resetPeakThreadCount();
			long releasedAt = System.nanoTime();
			List<CompletableFuture<Void>> releases = new ArrayList<>(this.waiters);
			for (LockHold hold : held) {
				releases.add(hold.releaseAsync().toCompletableFuture());
			}
			awaitAll(releases);
			long releaseNanos = System.nanoTime() - releasedAt;
			awaitAll(recorded);
			int peakGranting = threads.getPeakThreadCount();
			Map<String, Integer> newThreads = newThreads(threads, threadIdsBefore, holder, waiter);
			long failed = waiting.stream().filter(CompletableFuture::isCompletedExceptionally).count();
			long[] grant = new long[this.waiters];
			long lastGrant = releasedAt;
			for (int i = 0; i < this.waiters; i++) {
				grant[i] = grantedAt[i] - releasedAt;
				lastGrant = Math.max(lastGrant, grantedAt[i]);
			}
			List<CompletableFuture<Void>> waiterReleases = waiting.stream()
				.filter((future) -> !future.isCompletedExceptionally())
				.map((future) -> future.join().releaseAsync().toCompletableFuture())
				.toList();
			awaitAll(waiterReleases);
			poll(() -> waiter.heldCount() == 0, RELEASE_BOUND);
			long lockKeysLeft = keys.stream().filter((key) -> holder.inspect(key).held()).count();
			return new AsyncWaitersResult(this.waiters, threadsBefore, threadsWhileWaiting, peakStarting, peakGranting,
					heapBefore, heapWhileWaiting, startNanos, releaseNanos, lastGrant - releasedAt, Latency.of(grant),
					failed, waiter.heldCount(), lockKeysLeft, newThreads);
		}
		finally {
			holderConnection.destroy();
			waiterConnection.destroy();
		}
	}

	/**
	 * Name the threads alive now that were not before, without their trailing numbers
	 * (pool threads live on for a while after their work, so the pools that grew during
	 * the grants still show).
	 */
	private static Map<String, Integer> newThreads(ThreadMXBean threads, Set<Long> before, DefaultLockClient holder,
			DefaultLockClient waiter) {
		Map<String, Integer> named = new TreeMap<>();
		long[] added = Arrays.stream(threads.getAllThreadIds()).filter((id) -> !before.contains(id)).toArray();
		for (ThreadInfo info : threads.getThreadInfo(added)) {
			if (info != null) {
				named.merge(threadName(info.getThreadName(), holder.clientId(), waiter.clientId()), 1, Integer::sum);
			}
		}
		return named;
	}

	/**
	 * Drop the trailing number of a thread name and name the client whose id it carries:
	 * the engine names its threads after the first {@value #CLIENT_ID_IN_NAMES}
	 * characters of the client id.
	 */
	static String threadName(String name, String holderId, String waiterId) {
		String general = name.replaceFirst("\\d+$", "*");
		String holder = holderId.substring(0, Math.min(CLIENT_ID_IN_NAMES, holderId.length()));
		String waiter = waiterId.substring(0, Math.min(CLIENT_ID_IN_NAMES, waiterId.length()));
		if (general.contains(holder)) {
			return general.replace(holder, "holder");
		}
		return general.replace(waiter, "waiter");
	}

	private static DefaultLockClient client(LettuceConnectionFactory connection) {
		return new DefaultLockClient(new RedisLockStore(new StringRedisTemplate(connection)));
	}

	/**
	 * One asynchronous wait and grant by the waiting client before the baseline, so that
	 * what any client sets up once (connections, its release subscription, timers) is not
	 * counted as the waiters' cost.
	 */
	private static void warmUp(DefaultLockClient holder, DefaultLockClient waiter) throws Exception {
		String key = KEY_PREFIX + "warm-up";
		LockHold held = holder.acquire(key, Duration.ZERO, HOLDER_LEASE);
		CompletableFuture<LockHold> waiting = waiter.acquireAsync(key, WAIT_TIME, null).toCompletableFuture();
		awaitCondition("the warm-up waiter waiting", () -> waiter.waitingCount(key) == 1,
				() -> waiter.waitingCount(key) + " waiting");
		held.release();
		waiting.get(BOUND.toMillis(), TimeUnit.MILLISECONDS).release();
		waiter.acquire(key, Duration.ZERO, null).release();
	}

	private static void awaitCondition(String what, BooleanSupplier condition, Supplier<String> state)
			throws InterruptedException, TimeoutException {
		if (!poll(condition, BOUND)) {
			throw new TimeoutException("Not " + what + " within " + BOUND.toSeconds() + " s: " + state.get());
		}
	}

	private static boolean poll(BooleanSupplier condition, Duration bound) throws InterruptedException {
		long deadline = System.nanoTime() + bound.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() - deadline > 0) {
				return false;
			}
			TimeUnit.NANOSECONDS.sleep(POLL_NANOS);
		}
		return true;
	}

	private static void awaitAll(List<? extends CompletableFuture<?>> futures) throws Exception {
		try {
			CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
				.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException ex) {
			// counted per future by the caller
		}
	}

	private static long usedHeapAfterGc() throws InterruptedException {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		for (int i = 0; i < 3; i++) {
			System.gc();
			Thread.sleep(100);
		}
		return memory.getHeapMemoryUsage().getUsed();
	}

}
