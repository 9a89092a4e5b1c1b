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

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

import dev.distlock.benchmarks.RedisAdmin;
import dev.distlock.benchmarks.RedisEndpoint;
import dev.distlock.benchmarks.workload.ClusterRenewalResult.Round;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientListener;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import dev.distlock.core.RenewalBatch;
import dev.distlock.redis.RedisLockStore;
import dev.distlock.testing.redis.RedisClusterHandle;
import dev.distlock.testing.redis.TestRedis;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Many locks held at once on a three-master Redis Cluster under the watchdog, with a
 * short lease: every renewal batch the watchdog reports to its
 * {@link LockClientListener}, grouped into rounds (the batches of a round are sent
 * together, each batch's duration runs from the round's start), and the renewal scripts
 * each master ran, from {@code INFO commandstats}.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class ClusterRenewalWorkload {

	/** Masters of the Cluster. */
	public static final int MASTERS = 3;

	/** Complete renewal rounds to measure. */
	public static final int ROUNDS = 3;

	private static final String KEY_PREFIX = "cluster-renewal:";

	private static final int CHUNK = 500;

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);

	private final Duration lease;

	/**
	 * Create the workload.
	 * @param lease the watchdog lease; renewal runs every third of it
	 */
	public ClusterRenewalWorkload(Duration lease) {
		this.lease = lease;
	}

	/**
	 * Start the Cluster, take the locks, hold them through {@link #ROUNDS} renewal
	 * rounds, release them and stop the Cluster.
	 * @param count how many locks to hold
	 * @return the result
	 * @throws Exception if the Cluster cannot be started or a lock cannot be taken
	 */
	public ClusterRenewalResult run(int count) throws Exception {
		try (RedisClusterHandle cluster = TestRedis.startCluster(MASTERS)) {
			LettuceConnectionFactory factory = TestRedis.connectionFactory(cluster, COMMAND_TIMEOUT);
			List<RedisAdmin> admins = cluster.endpoints()
				.stream()
				.map((node) -> new RedisAdmin(new RedisEndpoint(node.host(), node.port())))
				.toList();
			Queue<RenewalBatch> batches = new ConcurrentLinkedQueue<>();
			LockClientListener listener = new LockClientListener() {

				@Override
				public void renewalBatchFinished(RenewalBatch batch) {
					batches.add(batch);
				}

			};
			LockClientSettings settings = LockClientSettings.defaults().withWatchdogLease(this.lease);
			DefaultLockClient client = new DefaultLockClient(new RedisLockStore(TestRedis.template(factory)), settings,
					listener);
			try {
				List<LockHold> held = acquire(client, count);
				Duration interval = settings.renewalInterval();
				// Start counting between two rounds: after the first complete round
				// since every lock was taken, so that no round in flight is counted
				Instant acquired = Instant.now();
				long deadline = System.nanoTime() + interval.multipliedBy(ROUNDS + 4).toNanos();
				while (completeRounds(roundsSince(batches, acquired, interval), count).isEmpty()
						&& System.nanoTime() < deadline) {
					Thread.sleep(10);
				}
				Instant windowStart = Instant.now();
				long[] before = scripts(admins);
				List<Round> measured = completeRounds(roundsSince(batches, windowStart, interval), count);
				while (measured.size() < ROUNDS && System.nanoTime() < deadline) {
					Thread.sleep(10);
					measured = completeRounds(roundsSince(batches, windowStart, interval), count);
				}
				long[] after = scripts(admins);
				List<Round> rounds = (measured.size() >= ROUNDS) ? measured.subList(0, ROUNDS)
						: roundsSince(batches, windowStart, interval);
				List<Long> perNode = new ArrayList<>();
				for (int i = 0; i < after.length; i++) {
					perNode.add(after[i] - before[i]);
				}
				release(held);
				return new ClusterRenewalResult(count, MASTERS, interval, List.copyOf(rounds), perNode);
			}
			finally {
				client.close();
				admins.forEach(RedisAdmin::close);
				factory.destroy();
			}
		}
	}

	private static List<LockHold> acquire(DefaultLockClient client, int count) {
		List<LockHold> held = new ArrayList<>(count);
		for (int from = 0; from < count; from += CHUNK) {
			List<CompletableFuture<LockHold>> chunk = new ArrayList<>(CHUNK);
			for (int i = from; i < Math.min(count, from + CHUNK); i++) {
				chunk.add(client.acquireAsync(KEY_PREFIX + i, WAIT, null).toCompletableFuture());
			}
			chunk.forEach((hold) -> held.add(hold.join()));
		}
		return held;
	}

	private static void release(List<LockHold> held) {
		for (int from = 0; from < held.size(); from += CHUNK) {
			CompletableFuture
				.allOf(held.subList(from, Math.min(held.size(), from + CHUNK))
					.stream()
					.map((hold) -> hold.releaseAsync().toCompletableFuture())
					.toArray(CompletableFuture[]::new))
				.join();
		}
	}

	private static long[] scripts(List<RedisAdmin> admins) {
		return admins.stream().mapToLong((admin) -> {
			Map<String, Long> calls = admin.commandCalls();
			return calls.getOrDefault("evalsha", 0L) + calls.getOrDefault("eval", 0L);
		}).toArray();
	}

	private static List<Round> roundsSince(Queue<RenewalBatch> batches, Instant windowStart, Duration interval) {
		return rounds(batches.stream().filter((batch) -> !start(batch).isBefore(windowStart)).toList(), interval);
	}

	/**
	 * Group renewal batches into rounds: batches whose start (finish minus duration) lies
	 * within half a renewal interval of the first batch of a round belong to that round.
	 * @param batches the batches, in any order
	 * @param interval the renewal interval
	 * @return the rounds, in order of their start
	 */
	static List<Round> rounds(List<RenewalBatch> batches, Duration interval) {
		List<RenewalBatch> sorted = batches.stream()
			.sorted(Comparator.comparing(ClusterRenewalWorkload::start))
			.toList();
		List<Round> rounds = new ArrayList<>();
		List<RenewalBatch> current = new ArrayList<>();
		Duration half = interval.dividedBy(2);
		for (RenewalBatch batch : sorted) {
			if (!current.isEmpty() && start(batch).isAfter(start(current.get(0)).plus(half))) {
				rounds.add(round(current));
				current = new ArrayList<>();
			}
			current.add(batch);
		}
		if (!current.isEmpty()) {
			rounds.add(round(current));
		}
		return rounds;
	}

	/**
	 * Return the rounds that asked to renew every one of {@code count} leases.
	 * @param rounds the rounds
	 * @param count the leases held
	 * @return the complete rounds, in order
	 */
	static List<Round> completeRounds(List<Round> rounds, int count) {
		return rounds.stream().filter((round) -> round.leases() >= count).toList();
	}

	private static Round round(List<RenewalBatch> batches) {
		return new Round(batches.size(), batches.stream().mapToInt(RenewalBatch::leases).sum(),
				batches.stream().mapToInt(RenewalBatch::renewed).sum(),
				batches.stream().mapToInt(RenewalBatch::lost).sum(),
				batches.stream().mapToInt(RenewalBatch::failed).sum(),
				batches.stream().map(RenewalBatch::duration).max(Duration::compareTo).orElse(Duration.ZERO));
	}

	private static Instant start(RenewalBatch batch) {
		return batch.finishedAt().minus(batch.duration());
	}

}
