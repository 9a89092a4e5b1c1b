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

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.distlock.core.LockHold;
import dev.distlock.redis.ReplicaAcknowledgement;
import dev.distlock.faults.Cycle.Release;
import dev.distlock.faults.Resource.Kind;
import dev.distlock.faults.Worker.GrantAction;
import dev.distlock.faults.Worker.Hooks;
import dev.distlock.faults.Worker.Plan;
import dev.distlock.testing.TcpProxy;
import dev.distlock.testing.redis.RedisEndpoint;
import dev.distlock.testing.redis.RedisSentinelHandle;
import dev.distlock.testing.redis.RedisServerHandle;
import dev.distlock.testing.redis.TestRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The fault-injection suite: each scenario runs a workload of several lock clients (a
 * client JVM where the fault is a frozen application) against Redis processes, injects
 * one fault per run, and counts what it did to mutual exclusion, to an unfenced and a
 * fenced database row, to the holder's knowledge of its lock, and to availability. The
 * quick tier runs a few runs per scenario in the default build; the full tier
 * ({@code ./mvnw -B -Pfaults -pl fault-suite -am verify}) runs more, the long soak and
 * thousands of virtual threads. Every scenario prints a row of the table
 * ({@link FaultReport}) even when its assertions fail.
 * <p>
 * Asserted in every scenario: the fenced row never loses an update, and every holder that
 * overlapped another is told of its loss. Asserted where distlock promises mutual
 * exclusion (Redis paused, a client's link frozen, many waiters, the soak): no belief
 * overlap and no lost update at all.
 *
 * @author distlock
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FaultSuiteTests {

	private static final Duration COMMAND_TIMEOUT = Duration.ofMillis(500);

	private static final Tier tier = Tier.current();

	private static Path output;

	private static DatabaseProcess database;

	private static Resource resource;

	private static FaultReport report;

	@BeforeAll
	static void start() throws Exception {
		output = Path.of(System.getProperty("distlock.faults.output", "target/fault-suite"));
		Files.createDirectories(output);
		String version;
		try (RedisServerHandle server = TestRedis.startServer()) {
			version = admin(server.endpoint(), (redis) -> {
			}, (redis) -> redis.execute(
					(RedisCallback<String>) (c) -> c.serverCommands().info("server").getProperty("redis_version")));
		}
		report = new FaultReport(tier, version);
		database = DatabaseProcess.start(output);
		resource = new Resource(database.url(), 8);
	}

	@AfterAll
	static void stop() {
		if (report != null) {
			String table = report.toMarkdown();
			System.out.println();
			System.out.println(table);
			report.write(output);
		}
		if (resource != null) {
			resource.close();
		}
		if (database != null) {
			database.close();
		}
	}

	// Holder paused past its lease

	@Test
	@Order(1)
	void aHolderPausedPastItsLeaseIsFencedOffAndToldOfTheLoss() throws Exception {
		Duration lease = Duration.ofSeconds(1);
		Duration pause = Duration.ofMillis(2500);
		ScenarioResult result = new ScenarioResult(
				"Holder paused past its lease: client JVM frozen (SIGSTOP) between its validity check and its write");
		result.note("3 instances (1 a JVM of its own), lease 1 s, pause 2.5 s");
		try (RedisServerHandle server = TestRedis.startServer();
				ClientProcess frozen = ClientProcess.start("frozen-holder", server.endpoint(), database.url(),
						COMMAND_TIMEOUT, lease, 20, output);
				ClientInstance first = ClientInstance.on(server.endpoint(), COMMAND_TIMEOUT, lease);
				ClientInstance second = ClientInstance.on(server.endpoint(), COMMAND_TIMEOUT, lease)) {
			for (int run = 0; run < tier.pick(2, 10); run++) {
				String key = "holder-paused/" + run + "/";
				Workload workload = new Workload(resource);
				workload.add("first", first.client(), key, Plan.continuous(Duration.ofSeconds(1), 20), Hooks.NONE);
				workload.add("second", second.client(), key, Plan.continuous(Duration.ofSeconds(1), 20), Hooks.NONE);
				frozen.run(key);
				workload.start();
				Thread.sleep(500);
				frozen.arm();
				frozen.awaitPausePoint(Duration.ofSeconds(30));
				frozen.freeze();
				long faultAt = System.nanoTime();
				Thread.sleep(pause.toMillis());
				frozen.thaw();
				frozen.go();
				Thread.sleep(1500);
				List<Cycle> cycles = new ArrayList<>(frozen.stop(Duration.ofSeconds(30)));
				workload.stop(Duration.ofSeconds(30));
				cycles.addAll(workload.cycles());
				result.add(outcome(cycles, faultAt, key));
			}
		}
		finally {
			report.add(result);
		}
		assertFencedAndDetected(result);
		assertThat(result.runsWithOverlap()).as("runs in which the frozen holder overlapped another").isPositive();
	}

	// Redis killed and restarted empty

	@Test
	@Order(2)
	void redisKilledAndRestartedEmptyLosesLocksButNotFencedUpdates() throws Exception {
		Duration lease = Duration.ofSeconds(3);
		ScenarioResult result = new ScenarioResult(
				"Redis killed (SIGKILL) right after a grant and restarted empty, no persistence");
		result.note("3 instances x 2 threads, lease 3 s");
		try (RedisServerHandle server = TestRedis.startServer()) {
			for (int run = 0; run < tier.pick(1, 10); run++) {
				String key = "redis-restarted/" + run + "/";
				AtomicLong faultAt = new AtomicLong();
				AtomicBoolean armed = new AtomicBoolean();
				Hooks hooks = new Hooks() {

					@Override
					public GrantAction afterGrant(String worker, LockHold hold) {
						if (!armed.compareAndSet(true, false)) {
							return GrantAction.NONE;
						}
						server.kill();
						faultAt.set(System.nanoTime());
						server.start();
						return new GrantAction(true, 2000);
					}

				};
				result.add(runOnStandalone(server.endpoint(), lease, 3, 2, key, hooks, armed, faultAt,
						Duration.ofSeconds(4)));
			}
		}
		finally {
			report.add(result);
		}
		assertFencedAndDetected(result);
		assertThat(result.runsWithALostHold()).as("runs whose holder was told its key vanished")
			.isEqualTo(result.runs().size());
		if (tier == Tier.FULL) {
			// Whether another instance gets in before the holder notices is a race: it
			// did in
			// about two runs of three, so only the full tier's 20 runs can show it for
			// sure.
			assertThat(result.runsWithOverlap()).as("runs in which a lock was granted twice").isPositive();
		}
	}

	// Redis paused

	@Test
	@Order(3)
	void redisPausedPastTheLeaseNeverLetsTwoHoldersBelieve() throws Exception {
		Duration lease = Duration.ofSeconds(1);
		ScenarioResult result = new ScenarioResult("Redis paused (SIGSTOP) for 2 s right after a grant, lease 1 s");
		result.note("3 instances x 2 threads; recovery counted from the start of the pause");
		try (RedisServerHandle server = TestRedis.startServer()) {
			for (int run = 0; run < tier.pick(1, 10); run++) {
				String key = "redis-paused/" + run + "/";
				AtomicLong faultAt = new AtomicLong();
				AtomicBoolean armed = new AtomicBoolean();
				Hooks hooks = new Hooks() {

					@Override
					public GrantAction afterGrant(String worker, LockHold hold) {
						if (!armed.compareAndSet(true, false)) {
							return GrantAction.NONE;
						}
						server.pause();
						faultAt.set(System.nanoTime());
						later(Duration.ofSeconds(2), server::resume);
						return new GrantAction(true, 3000);
					}

				};
				result.add(runOnStandalone(server.endpoint(), lease, 3, 2, key, hooks, armed, faultAt,
						Duration.ofSeconds(5)));
			}
		}
		finally {
			report.add(result);
		}
		assertFencedAndDetected(result);
		assertMutualExclusion(result);
	}

	// Sentinel failover

	@Test
	@Order(4)
	void aSentinelFailoverLosesFewerLocksWithReplicaAcknowledgement() throws Exception {
		ScenarioResult unacknowledged = new ScenarioResult(
				"Sentinel failover, master killed right after a grant on an idle key, replication delayed 50 ms: "
						+ "no replica acknowledgement");
		ScenarioResult acknowledged = new ScenarioResult(
				"Same failover with replica acknowledgement (min-replicas 1, timeout 500 ms)");
		for (ScenarioResult result : List.of(unacknowledged, acknowledged)) {
			result
				.note("3 instances (0-400 ms between holds), lease 8 s, Sentinel down-after 1 s; the holder hit works on for 6 s; "
						+ "the killed master is restarted empty as a replica of the new master once the Sentinel named it");
		}
		List<Long> promotions = new ArrayList<>();
		AtomicLong unacknowledgedFailures = new AtomicLong();
		AtomicLong acknowledgedFailures = new AtomicLong();
		try {
			for (int run = 0; run < tier.pick(1, 8); run++) {
				unacknowledged.add(failoverRun(ReplicaAcknowledgement.none(), run, promotions, unacknowledgedFailures));
				acknowledged.add(failoverRun(new ReplicaAcknowledgement(1, Duration.ofMillis(500)), run, promotions,
						acknowledgedFailures));
			}
		}
		finally {
			unacknowledged.note(unacknowledgedFailures.get() + " acquisitions failed (Redis unreachable)");
			acknowledged.note(acknowledgedFailures.get()
					+ " acquisitions failed (Redis unreachable, or too few replicas until the old master rejoined)");
			promotions.sort(Long::compare);
			if (!promotions.isEmpty()) {
				String promoted = "the Sentinel named the new master " + promotions.get(0) + "-"
						+ promotions.get(promotions.size() - 1) + " ms after the kill";
				unacknowledged.note(promoted);
				acknowledged.note(promoted);
			}
			report.add(unacknowledged);
			report.add(acknowledged);
		}
		assertFencedAndDetected(unacknowledged);
		assertFencedAndDetected(acknowledged);
		assertThat(acknowledged.runsWithALostHold()).as("runs that lost a lock with replica acknowledgement")
			.isLessThan(unacknowledged.runsWithALostHold());
	}

	@Test
	@Order(5)
	void aSentinelFailoverRightAfterAReleaseBringsTheReleasedLockBack() throws Exception {
		int runs = tier.pick(0, 5);
		assumeTrue(runs > 0, "full tier only");
		ScenarioResult result = new ScenarioResult(
				"Sentinel failover, master killed 10 ms after a release, replication delayed 50 ms, holds back to back: "
						+ "no replica acknowledgement");
		result.note("3 instances, lease 8 s; the release had not reached the replica, so the promoted replica "
				+ "still holds the released lock; recovery is when its lease ran out");
		AtomicLong failures = new AtomicLong();
		try {
			for (int run = 0; run < runs; run++) {
				result.add(failoverRun(ReplicaAcknowledgement.none(), run, new ArrayList<>(), failures, true));
			}
		}
		finally {
			long cameBack = result.recoveryMillis().stream().filter((millis) -> millis > 4000).count();
			result.note("the released lock came back (no other holder for more than 4 s) in " + cameBack + " of "
					+ result.runs().size() + " runs");
			report.add(result);
		}
		assertFencedAndDetected(result);
		assertThat(result.recoveryMillis()).as("time until another holder got the lock")
			.anyMatch((millis) -> millis > 4000);
	}

	private RunOutcome failoverRun(ReplicaAcknowledgement acknowledgement, int run, List<Long> promotions,
			AtomicLong failures) throws Exception {
		return failoverRun(acknowledgement, run, promotions, failures, false);
	}

	private RunOutcome failoverRun(ReplicaAcknowledgement acknowledgement, int run, List<Long> promotions,
			AtomicLong failures, boolean afterRelease) throws Exception {
		String key = "failover/"
				+ (afterRelease ? "after-release/" : acknowledgement.isEnabled() ? "acknowledged/" : "unacknowledged/")
				+ run + "/";
		AtomicReference<TcpProxy> link = new AtomicReference<>();
		Duration lease = Duration.ofSeconds(8);
		try (RedisSentinelHandle group = TestRedis.startSentinel(Duration.ofSeconds(1), (master) -> {
			link.set(TcpProxy.start(master));
			return link.get().endpoint();
		})) {
			List<ClientInstance> instances = new ArrayList<>();
			try {
				awaitSentinelKnowsTheReplica(group);
				link.get().delayToClients(Duration.ofMillis(50));
				AtomicLong faultAt = new AtomicLong();
				AtomicBoolean armed = new AtomicBoolean();
				AtomicLong lastBeliefEnd = new AtomicLong(System.nanoTime());
				Hooks hooks = new Hooks() {

					@Override
					public GrantAction afterGrant(String worker, LockHold hold) {
						// a grant on a key idle for longer than the replication delay:
						// the
						// release before it reached the replica, the grant itself has not
						if (afterRelease || System.nanoTime() - lastBeliefEnd.get() < TimeUnit.MILLISECONDS.toNanos(120)
								|| !armed.compareAndSet(true, false)) {
							return GrantAction.NONE;
						}
						group.masterServer().kill();
						faultAt.set(System.nanoTime());
						if (Boolean.getBoolean("distlock.faults.debug")) {
							System.err.println("[fault suite] " + faultAt.get() / 1_000_000 + " killed the master");
						}
						return new GrantAction(true, 6000);
					}

					@Override
					public void beliefEnded(String worker, String key) {
						lastBeliefEnd.set(System.nanoTime());
						if (afterRelease && armed.compareAndSet(true, false)) {
							later(Duration.ofMillis(10), () -> {
								group.masterServer().kill();
								faultAt.set(System.nanoTime());
							});
						}
					}

				};
				Workload workload = new Workload(resource);
				for (int i = 0; i < 3; i++) {
					ClientInstance instance = ClientInstance.on(group, Duration.ofSeconds(1), lease, acknowledgement);
					instances.add(instance);
					workload.add("instance-" + i, instance.client(), key,
							Plan.continuous(Duration.ofSeconds(2), 20).withThinkTime(afterRelease ? 0 : 200), hooks);
				}
				AtomicLong promotedAt = new AtomicLong();
				Thread watcher = new Thread(() -> {
					InetSocketAddress promoted = watchPromotion(group, faultAt, promotedAt);
					group.masterServer().start();
					if (promoted != null) {
						replicate(group.master(), promoted);
					}
					if (Boolean.getBoolean("distlock.faults.debug")) {
						System.err.println("[fault suite] " + promotedAt.get() / 1_000_000 + " promoted; "
								+ System.nanoTime() / 1_000_000 + " restarted the old master");
					}
				}, "failover-watcher");
				watcher.setDaemon(true);
				watcher.start();
				RunOutcome outcome = runWorkload(workload, key, armed, faultAt, Duration.ofMillis(1500),
						Duration.ofSeconds(7), Duration.ofSeconds(20));
				watcher.join(10_000);
				failures.addAndGet(workload.workers().stream().mapToLong(Worker::failedCount).sum());
				if (promotedAt.get() != 0) {
					promotions.add(TimeUnit.NANOSECONDS.toMillis(promotedAt.get() - faultAt.get()));
				}
				return outcome;
			}
			finally {
				instances.forEach(ClientInstance::close);
				if (link.get() != null) {
					link.get().close();
				}
			}
		}
	}

	// A client's link frozen

	@Test
	@Order(6)
	void aClientLinkFrozenPastTheLeaseNeverLetsTwoHoldersBelieve() throws Exception {
		Duration lease = Duration.ofSeconds(1);
		ScenarioResult result = new ScenarioResult(
				"One instance's link to Redis frozen (proxy holds all bytes) for 2.5 s right after its grant, lease 1 s");
		result.note("3 instances, 1 behind the proxy; held bytes are delivered after the thaw");
		try (RedisServerHandle server = TestRedis.startServer()) {
			for (int run = 0; run < tier.pick(1, 10); run++) {
				String key = "link-frozen/" + run + "/";
				try (TcpProxy proxy = TcpProxy.start(server.endpoint());
						ClientInstance behindProxy = ClientInstance.on(proxy.endpoint(), COMMAND_TIMEOUT, lease);
						ClientInstance second = ClientInstance.on(server.endpoint(), COMMAND_TIMEOUT, lease);
						ClientInstance third = ClientInstance.on(server.endpoint(), COMMAND_TIMEOUT, lease)) {
					AtomicLong faultAt = new AtomicLong();
					AtomicBoolean armed = new AtomicBoolean();
					Hooks hooks = new Hooks() {

						@Override
						public GrantAction afterGrant(String worker, LockHold hold) {
							if (!worker.equals("behind-proxy") || !armed.compareAndSet(true, false)) {
								return GrantAction.NONE;
							}
							proxy.freeze();
							faultAt.set(System.nanoTime());
							later(Duration.ofMillis(2500), proxy::thaw);
							return new GrantAction(true, 3500);
						}

					};
					Workload workload = new Workload(resource);
					Plan plan = Plan.continuous(Duration.ofSeconds(1), 20).withThinkTime(20);
					workload.add("behind-proxy", behindProxy.client(), key, plan, hooks);
					workload.add("second", second.client(), key, plan, hooks);
					workload.add("third", third.client(), key, plan, hooks);
					result
						.add(runWorkload(workload, key, armed, faultAt, Duration.ofMillis(700), Duration.ofSeconds(5)));
				}
			}
		}
		finally {
			report.add(result);
		}
		assertFencedAndDetected(result);
		assertMutualExclusion(result);
	}

	// Lock key deleted or expired early

	@Test
	@Order(7)
	void aLockKeyDeletedOrExpiredEarlyIsDetectedAndFencedOff() throws Exception {
		Duration lease = Duration.ofSeconds(3);
		ScenarioResult result = new ScenarioResult(
				"Lock key deleted (DEL) or expired early (PEXPIRE 1), half the runs each: eviction stand-in");
		result.note("3 instances x 2 threads, lease 3 s (renewed every 1 s)");
		try (RedisServerHandle server = TestRedis.startServer()) {
			LettuceConnectionFactory adminConnection = TestRedis.connectionFactory(server.endpoint(), COMMAND_TIMEOUT);
			StringRedisTemplate admin = TestRedis.template(adminConnection);
			try {
				for (int run = 0; run < tier.pick(2, 20); run++) {
					String key = "key-vanished/" + run + "/";
					String lockKey = "lock:{" + key + "}";
					boolean delete = run % 2 == 0;
					AtomicLong faultAt = new AtomicLong();
					AtomicBoolean armed = new AtomicBoolean();
					Hooks hooks = new Hooks() {

						@Override
						public GrantAction afterGrant(String worker, LockHold hold) {
							if (!armed.compareAndSet(true, false)) {
								return GrantAction.NONE;
							}
							if (delete) {
								admin.delete(lockKey);
							}
							else {
								admin.expire(lockKey, Duration.ofMillis(1));
							}
							faultAt.set(System.nanoTime());
							return new GrantAction(true, 1500);
						}

					};
					result.add(runOnStandalone(server.endpoint(), lease, 3, 2, key, hooks, armed, faultAt,
							Duration.ofMillis(2500)));
				}
			}
			finally {
				adminConnection.destroy();
			}
		}
		finally {
			report.add(result);
		}
		assertFencedAndDetected(result);
		assertThat(result.runsWithALostHold()).as("runs whose holder was told its key vanished")
			.isEqualTo(result.runs().size());
		if (tier == Tier.FULL) {
			// Whether another instance gets in before the holder notices is a race: it
			// did in
			// about two runs of three, so only the full tier's 20 runs can show it for
			// sure.
			assertThat(result.runsWithOverlap()).as("runs in which a lock was granted twice").isPositive();
		}
	}

	// Many waiters

	@Test
	@Order(8)
	void manyWaitingPlatformThreadsAllGetTheLockWithoutLostWakeUps() throws Exception {
		int threads = tier.pick(150, 300);
		ScenarioResult result = manyWaiters("Many waiters: " + threads + " platform threads on one key", threads,
				Thread::new, tier.pick(1, 3));
		assertMutualExclusion(result);
	}

	@Test
	@Order(9)
	void manyWaitingVirtualThreadsAllGetTheLockWithoutLostWakeUps() throws Exception {
		int threads = tier.pick(1000, 3000);
		ThreadFactory virtualThreads = virtualThreads();
		assumeTrue(virtualThreads != null, "virtual threads need JDK 21 or later");
		ScenarioResult result = manyWaiters("Many waiters: " + threads + " virtual threads on one key", threads,
				virtualThreads, tier.pick(1, 3));
		assertMutualExclusion(result);
	}

	private ScenarioResult manyWaiters(String name, int threads, ThreadFactory threadFactory, int runs)
			throws Exception {
		ScenarioResult result = new ScenarioResult(name);
		List<Long> handOffs = new ArrayList<>();
		long notAcquired = 0;
		try (RedisServerHandle server = TestRedis.startServer()) {
			List<ClientInstance> instances = new ArrayList<>();
			try {
				for (int i = 0; i < 3; i++) {
					instances.add(ClientInstance.on(server.endpoint(), Duration.ofSeconds(2), Duration.ofSeconds(10)));
				}
				for (int run = 0; run < runs; run++) {
					String key = "many-waiters/" + threads + "/" + run + "/";
					resource.create(key);
					Workload workload = new Workload(resource, threadFactory);
					Plan plan = new Plan(Duration.ofSeconds(120), null, 0, 1, 0);
					for (int i = 0; i < threads; i++) {
						workload.add("waiter-" + i, instances.get(i % 3).client(), key, plan, Hooks.NONE);
					}
					workload.start();
					assertThat(workload.join(Duration.ofSeconds(180))).as("every waiter finished").isTrue();
					List<Cycle> cycles = new ArrayList<>(workload.cycles());
					notAcquired += workload.workers()
						.stream()
						.mapToLong((worker) -> worker.busyCount() + worker.failedCount() + worker.errorCount())
						.sum();
					cycles.sort((a, b) -> Long.compare(a.acquiredAt(), b.acquiredAt()));
					for (int i = 1; i < cycles.size(); i++) {
						handOffs.add(TimeUnit.NANOSECONDS
							.toMicros(cycles.get(i).acquiredAt() - cycles.get(i - 1).releasedAt()));
					}
					result.add(outcome(cycles, 0, key));
				}
			}
			finally {
				instances.forEach(ClientInstance::close);
			}
		}
		finally {
			handOffs.sort(Long::compare);
			long slow = handOffs.stream().filter((micros) -> micros >= 1_000_000).count();
			result.note("3 instances; " + notAcquired + " acquisitions failed; hand-off (release to next grant) median "
					+ (handOffs.isEmpty() ? "-" : millis(handOffs.get(handOffs.size() / 2))) + ", p99 "
					+ (handOffs.isEmpty() ? "-" : millis(handOffs.get(handOffs.size() * 99 / 100))) + ", max "
					+ (handOffs.isEmpty() ? "-" : millis(handOffs.get(handOffs.size() - 1)))
					+ "; hand-offs of 1 s or more (a lost wake-up waits for the 1 s re-check): " + slow);
			report.add(result);
		}
		assertThat(notAcquired).as("acquisitions that failed").isZero();
		assertThat(result.cycles()).isEqualTo(threads * runs);
		return result;
	}

	// Soak

	@Test
	@Order(10)
	void aLongSoakOfDistinctKeysLeaksNoHeapThreadsOrRedisKeys() throws Exception {
		Duration duration = Duration.ofSeconds(tier.pick(8, 150));
		Duration lease = Duration.ofSeconds(2);
		ScenarioResult result = new ScenarioResult("Soak: " + duration.toSeconds()
				+ " s of distinct keys (a window of 32 keys moving every 100 ms), 2 instances x 6 threads");
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		try (RedisServerHandle server = TestRedis.startServer();
				ClientInstance first = ClientInstance.on(server.endpoint(), Duration.ofSeconds(2), lease);
				ClientInstance second = ClientInstance.on(server.endpoint(), Duration.ofSeconds(2), lease)) {
			Map<String, AtomicInteger> believers = new ConcurrentHashMap<>();
			AtomicInteger overlaps = new AtomicInteger();
			Hooks hooks = new Hooks() {

				@Override
				public GrantAction afterGrant(String worker, LockHold hold) {
					AtomicInteger inside = believers.computeIfAbsent(hold.key(), (key) -> new AtomicInteger());
					if (inside.incrementAndGet() > 1) {
						overlaps.incrementAndGet();
					}
					return GrantAction.NONE;
				}

				@Override
				public void beliefEnded(String worker, String key) {
					believers.computeIfPresent(key, (k, inside) -> (inside.decrementAndGet() == 0) ? null : inside);
				}

			};
			long started = System.nanoTime();
			Workload workload = new Workload(resource);
			workload.countOnly();
			Plan plan = Plan.continuous(Duration.ofSeconds(2), 1);
			Supplier<String> keys = () -> {
				long window = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started) / 100;
				return "soak/" + (window * 32 + ThreadLocalRandom.current().nextInt(32)) + "/";
			};
			for (int i = 0; i < 12; i++) {
				workload.add("soak-" + i, ((i % 2 == 0) ? first : second).client(), keys, plan, hooks);
			}
			workload.start();
			long warmUp = Math.max(3000, duration.toMillis() / 10);
			Thread.sleep(warmUp);
			long heapBefore = usedHeapAfterGc(memory);
			int threadsBefore = Thread.activeCount();
			long holdsBefore = workload.completedCount();
			List<String> heapSamples = new ArrayList<>(List.of(String.format("%.1f", heapBefore / 1048576.0)));
			for (int sample = 0; sample < 3; sample++) {
				Thread.sleep((duration.toMillis() - warmUp) / 3);
				if (sample < 2) {
					heapSamples.add(String.format("%.1f", usedHeapAfterGc(memory) / 1048576.0));
				}
			}
			long holdsDuring = workload.completedCount() - holdsBefore;
			long heapAfter = usedHeapAfterGc(memory);
			heapSamples.add(String.format("%.1f", heapAfter / 1048576.0));
			int threadsAfter = Thread.activeCount();
			workload.stop(Duration.ofSeconds(30));
			long keysUsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started) / 100 * 32;
			StringRedisTemplate redis = TestRedis
				.template(TestRedis.connectionFactory(server.endpoint(), Duration.ofSeconds(5)));
			long lockKeysLeft = countKeys(redis, "lock:{soak/*}");
			int renewing = first.client().renewedLeaseCount() + second.client().renewedLeaseCount();
			Thread.sleep(lease.toMillis() + 500);
			long allKeysLeft = countKeys(redis, "*");
			((LettuceConnectionFactory) redis.getRequiredConnectionFactory()).destroy();
			result.add(new RunOutcome((int) workload.completedCount(), overlaps.get(), overlaps.get(), 0, List.of(), 0,
					resource.lostUpdates("soak/", Kind.FENCED), resource.lostUpdates("soak/", Kind.UNFENCED), null));
			long growth = heapAfter - heapBefore;
			result.note(String.format(
					"%,d holds on about %,d distinct keys; heap after GC from the end of the warm-up, by thirds: %s MB "
							+ "(%+d B per hold), threads %d -> %d; at the end: %d lock keys in Redis, %d leases renewed, "
							+ "%d keys of any kind one lease later",
					workload.completedCount(), keysUsed, String.join(" -> ", heapSamples),
					(holdsDuring > 0) ? growth / holdsDuring : 0, threadsBefore, threadsAfter, lockKeysLeft, renewing,
					allKeysLeft));
			report.add(result);
			assertMutualExclusion(result);
			assertThat(lockKeysLeft).as("lock keys left in Redis").isZero();
			assertThat(allKeysLeft).as("keys left in Redis one lease after the soak").isZero();
			assertThat(renewing).as("leases still renewed").isZero();
			assertThat(threadsAfter).as("threads").isLessThanOrEqualTo(threadsBefore + 16);
			assertThat(growth).as("heap growth after GC over %d holds", holdsDuring).isLessThan(32L * 1024 * 1024);
		}
	}

	// Helpers

	private RunOutcome runOnStandalone(RedisEndpoint endpoint, Duration lease, int instances, int threadsEach,
			String key, Hooks hooks, AtomicBoolean armed, AtomicLong faultAt, Duration afterFault) throws Exception {
		List<ClientInstance> clients = new ArrayList<>();
		try {
			Workload workload = new Workload(resource);
			for (int i = 0; i < instances; i++) {
				ClientInstance instance = ClientInstance.on(endpoint, COMMAND_TIMEOUT, lease);
				clients.add(instance);
				for (int t = 0; t < threadsEach; t++) {
					workload.add("instance-" + i + "-" + t, instance.client(), key,
							Plan.continuous(Duration.ofSeconds(2), 20), hooks);
				}
			}
			return runWorkload(workload, key, armed, faultAt, Duration.ofMillis(700), afterFault);
		}
		finally {
			clients.forEach(ClientInstance::close);
		}
	}

	private RunOutcome runWorkload(Workload workload, String key, AtomicBoolean armed, AtomicLong faultAt,
			Duration warmUp, Duration afterFault) throws Exception {
		return runWorkload(workload, key, armed, faultAt, warmUp, afterFault, afterFault);
	}

	/**
	 * Run the workload, arm the fault after {@code warmUp}, and stop {@code afterFault}
	 * after the fault, or later if another holder than the one hit had not completed a
	 * hold by then: one second after it did, at most {@code atMostAfterFault} after the
	 * fault.
	 */
	private RunOutcome runWorkload(Workload workload, String key, AtomicBoolean armed, AtomicLong faultAt,
			Duration warmUp, Duration afterFault, Duration atMostAfterFault) throws Exception {
		resource.create(key);
		workload.start();
		Thread.sleep(warmUp.toMillis());
		armed.set(true);
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (faultAt.get() == 0) {
			assertThat(System.nanoTime() - deadline).as("the fault was injected within 30 s").isNegative();
			Thread.sleep(10);
		}
		long fault = faultAt.get();
		long end = fault + afterFault.toNanos();
		long latest = fault + atMostAfterFault.toNanos();
		while (System.nanoTime() - end < 0 || (System.nanoTime() - latest < 0 && !recovered(workload, fault))) {
			Thread.sleep(50);
		}
		if (end - latest < 0 && System.nanoTime() - latest < 0) {
			Thread.sleep(1000);
		}
		workload.stop(Duration.ofSeconds(30));
		return outcome(workload.cycles(), fault, key);
	}

	private static boolean recovered(Workload workload, long faultAt) {
		return workload.cycles()
			.stream()
			.anyMatch(
					(cycle) -> !cycle.victim() && cycle.acquiredAt() > faultAt && cycle.release() == Release.RELEASED);
	}

	private static RunOutcome outcome(List<Cycle> cycles, long faultAt, String key) {
		writeCycles(cycles, faultAt, key);
		return RunOutcome.of(cycles, faultAt, resource.lostUpdates(key, Kind.FENCED),
				resource.lostUpdates(key, Kind.UNFENCED));
	}

	/**
	 * Keep the holds of a run in {@code target/fault-suite/runs}, times in milliseconds
	 * from the fault, for a closer look.
	 */
	private static void writeCycles(List<Cycle> cycles, long faultAt, String key) {
		long origin = (faultAt != 0) ? faultAt
				: cycles.stream().mapToLong(Cycle::acquiredAt).min().orElse(System.nanoTime());
		StringBuilder lines = new StringBuilder(
				"worker,fencing token,acquired ms,loss seen ms,release ms,unfenced write,fenced write,release,victim\n");
		cycles.stream().sorted((a, b) -> Long.compare(a.acquiredAt(), b.acquiredAt())).forEach((cycle) -> {
			lines.append(String.join(",", cycle.worker(), Long.toString(cycle.fencingToken()),
					relative(cycle.acquiredAt(), origin),
					(cycle.lossObservedAt() != 0) ? relative(cycle.lossObservedAt(), origin) : "",
					relative(cycle.releasedAt(), origin), Boolean.toString(cycle.unfenced()), cycle.fenced().name(),
					cycle.release().name(), Boolean.toString(cycle.victim())))
				.append('\n');
		});
		try {
			Path runs = Files.createDirectories(output.resolve("runs"));
			Files.writeString(runs.resolve(key.replaceAll("[^A-Za-z0-9-]+", "_") + "csv"), lines);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String relative(long nanos, long origin) {
		return String.format("%.1f", (nanos - origin) / 1_000_000.0);
	}

	private static void assertFencedAndDetected(ScenarioResult result) {
		assertThat(result.runs()).as("runs").isNotEmpty();
		assertThat(result.fencedLostUpdates()).as("updates the fenced row lost").isZero();
		assertThat(result.undetected()).as("overlapped holders never told of their loss").isZero();
	}

	private static void assertMutualExclusion(ScenarioResult result) {
		assertFencedAndDetected(result);
		assertThat(result.overlapPairs()).as("belief overlaps").isZero();
		assertThat(result.unfencedLostUpdates()).as("updates the unfenced row lost").isZero();
	}

	private static void later(Duration delay, Runnable action) {
		Thread thread = new Thread(() -> {
			try {
				Thread.sleep(delay.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			action.run();
		}, "fault-heal");
		thread.setDaemon(true);
		thread.start();
	}

	private static void awaitSentinelKnowsTheReplica(RedisSentinelHandle group) throws InterruptedException {
		RedisClient client = RedisClient.create(RedisURI.create(group.sentinel().host(), group.sentinel().port()));
		try (StatefulRedisSentinelConnection<String, String> connection = client.connectSentinel()) {
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
			while (connection.sync()
				.replicas(RedisSentinelHandle.MASTER_NAME)
				.stream()
				.noneMatch((replica) -> !replica.getOrDefault("flags", "").contains("down")
						&& !replica.getOrDefault("flags", "").contains("disconnected"))) {
				assertThat(System.nanoTime() - deadline).as("the Sentinel reported the replica").isNegative();
				Thread.sleep(100);
			}
		}
		finally {
			client.shutdown();
		}
	}

	/**
	 * Record when the Sentinel names another master than the one killed at
	 * {@code faultAt}.
	 */
	private static @Nullable InetSocketAddress watchPromotion(RedisSentinelHandle group, AtomicLong faultAt,
			AtomicLong promotedAt) {
		RedisClient client = RedisClient.create(RedisURI.create(group.sentinel().host(), group.sentinel().port()));
		try (StatefulRedisSentinelConnection<String, String> connection = client.connectSentinel()) {
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
			while (System.nanoTime() - deadline < 0) {
				SocketAddress master = connection.sync().getMasterAddrByName(RedisSentinelHandle.MASTER_NAME);
				if (faultAt.get() != 0 && master instanceof InetSocketAddress address
						&& address.getPort() != group.master().port()) {
					promotedAt.set(System.nanoTime());
					return address;
				}
				Thread.sleep(20);
			}
			return null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
		finally {
			client.shutdown();
		}
	}

	/**
	 * Make the restarted old master a replica of the new one, as a start script that asks
	 * the Sentinel for the master would (left alone, the Sentinel turns a returning
	 * master into a replica only after 8 s and more).
	 */
	private static void replicate(RedisEndpoint server, InetSocketAddress master) {
		admin(server, (redis) -> {
		}, (redis) -> redis.execute((RedisCallback<Void>) (connection) -> {
			connection.serverCommands().replicaOf(master.getHostString(), master.getPort());
			return null;
		}));
	}

	private static long countKeys(StringRedisTemplate redis, String pattern) {
		long count = 0;
		try (Cursor<String> cursor = redis.scan(ScanOptions.scanOptions().match(pattern).count(1000).build())) {
			while (cursor.hasNext()) {
				String key = cursor.next();
				if (!key.endsWith(":fence") || pattern.equals("*")) {
					count++;
				}
			}
		}
		return count;
	}

	private static long usedHeapAfterGc(MemoryMXBean memory) throws InterruptedException {
		for (int i = 0; i < 3; i++) {
			System.gc();
			Thread.sleep(200);
		}
		return memory.getHeapMemoryUsage().getUsed();
	}

	private static String millis(long micros) {
		return String.format("%.1f ms", micros / 1000.0);
	}

	private static ThreadFactory virtualThreads() {
		try {
			Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
			return (ThreadFactory) Class.forName("java.lang.Thread$Builder").getMethod("factory").invoke(builder);
		}
		catch (ReflectiveOperationException ex) {
			return null;
		}
	}

	private static <T> T admin(RedisEndpoint endpoint, Consumer<StringRedisTemplate> prepare,
			Function<StringRedisTemplate, T> call) {
		LettuceConnectionFactory connectionFactory = TestRedis.connectionFactory(endpoint, Duration.ofSeconds(5));
		try {
			StringRedisTemplate redis = TestRedis.template(connectionFactory);
			prepare.accept(redis);
			return call.apply(redis);
		}
		finally {
			connectionFactory.destroy();
		}
	}

}
