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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockHold;
import dev.distlock.LockReplicationException;
import dev.distlock.testing.redis.RedisClusterHandle;
import dev.distlock.testing.redis.RedisSentinelHandle;
import dev.distlock.testing.redis.RedisServerHandle;
import dev.distlock.testing.redis.TestRedis;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ReplicaAcknowledgement} on {@link RedisLockStore}: grants wait for
 * replicas with Redis {@code WAIT} on connections of the store's own, on Sentinel,
 * standalone and Cluster.
 *
 * @author distlock
 */
class ReplicaAcknowledgementTests {

	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

	@Test
	void aGrantIsReportedOnlyOnceTheReplicaHasIt() throws Exception {
		try (RedisSentinelHandle sentinel = TestRedis.startSentinel()) {
			LettuceConnectionFactory application = TestRedis.connectionFactory(sentinel, COMMAND_TIMEOUT);
			LettuceConnectionFactory replicaConnection = TestRedis.connectionFactory(sentinel.replica(),
					COMMAND_TIMEOUT);
			StringRedisTemplate replica = TestRedis.template(replicaConnection);
			try (DefaultLockClient client = client(application, new ReplicaAcknowledgement(1, Duration.ofSeconds(2)))) {
				for (int i = 0; i < 20; i++) {
					try (LockHold hold = client.acquire("replicated:" + i, Duration.ZERO, null)) {
						assertThat(replica.hasKey(lockKey("replicated:" + i))).as("grant %d on the replica", i)
							.isTrue();
						assertThat(hold.fencingToken()).isPositive();
					}
				}
			}
			finally {
				replicaConnection.destroy();
				application.destroy();
			}
		}
	}

	@Test
	void aGrantTooFewReplicasAcknowledgedIsReleasedAndTheFailureSaysHowMany() throws Exception {
		try (RedisSentinelHandle sentinel = TestRedis.startSentinel()) {
			LettuceConnectionFactory application = TestRedis.connectionFactory(sentinel, COMMAND_TIMEOUT);
			StringRedisTemplate redis = TestRedis.template(application);
			Duration timeout = Duration.ofMillis(400);
			try (DefaultLockClient client = client(application, new ReplicaAcknowledgement(1, timeout));
					DefaultLockClient other = new DefaultLockClient(new RedisLockStore(redis))) {
				sentinel.replicaServer().pause();
				long started = System.nanoTime();
				try {
					assertThatExceptionOfType(LockReplicationException.class)
						.isThrownBy(() -> client.acquire("unreplicated", Duration.ZERO, null))
						.withMessageContaining("only 0 of the 1 required replica(s) acknowledged")
						.satisfies((ex) -> {
							assertThat(ex.getAcknowledged()).isZero();
							assertThat(ex.getRequired()).isOne();
							assertThat(ex.getTimeout()).isEqualTo(timeout);
							assertThat(ex.getKey()).isEqualTo("unreplicated");
						});
				}
				finally {
					sentinel.replicaServer().resume();
				}
				assertThat(elapsedMillis(started)).isGreaterThanOrEqualTo(timeout.toMillis());
				assertThat(redis.hasKey(lockKey("unreplicated"))).isFalse();
				try (LockHold hold = other.acquire("unreplicated", Duration.ZERO, null)) {
					assertThat(hold.isValid()).isTrue();
				}
			}
			finally {
				application.destroy();
			}
		}
	}

	@Test
	void waitingForReplicasNeitherDelaysTheApplicationsOtherCommandsNorOtherAcquisitions() throws Exception {
		try (RedisServerHandle server = TestRedis.startServer()) {
			LettuceConnectionFactory application = TestRedis.connectionFactory(server.endpoint(), COMMAND_TIMEOUT);
			StringRedisTemplate redis = TestRedis.template(application);
			redis.opsForValue().set("app:key", "value");
			Duration timeout = Duration.ofMillis(1500);
			// A server without replicas: every WAIT runs to its timeout (1.5 s), so a GET
			// queued
			// behind one would take more than a second
			try (DefaultLockClient client = client(application, new ReplicaAcknowledgement(1, timeout))) {
				long started = System.nanoTime();
				List<CompletableFuture<LockHold>> acquisitions = new ArrayList<>();
				for (int i = 0; i < 4; i++) {
					acquisitions.add(client.acquireAsync("waiting:" + i, Duration.ZERO, null).toCompletableFuture());
				}
				Thread.sleep(300);
				long getStarted = System.nanoTime();
				assertThat(redis.opsForValue().get("app:key")).isEqualTo("value");
				assertThat(elapsedMillis(getStarted)).as("GET on the application's template while WAITs are pending")
					.isLessThan(800);
				assertThat(acquisitions).noneMatch(CompletableFuture::isDone);
				for (CompletableFuture<LockHold> acquisition : acquisitions) {
					assertThatExceptionOfType(ExecutionException.class)
						.isThrownBy(() -> acquisition.get(10, TimeUnit.SECONDS))
						.withCauseInstanceOf(LockReplicationException.class);
				}
				assertThat(elapsedMillis(started)).as("four acquisitions waiting at once")
					.isLessThan(timeout.toMillis() * 2);
				assertThat(redis.keys("lock:{waiting:*}")).isEmpty();
			}
			finally {
				application.destroy();
			}
		}
	}

	@Test
	void aWaitOnTheApplicationsSharedConnectionWouldHoldUpItsOtherCommands() throws Exception {
		// Why the store waits on connections of its own: the hazard, shown directly
		try (RedisServerHandle server = TestRedis.startServer()) {
			LettuceConnectionFactory application = TestRedis.connectionFactory(server.endpoint(), COMMAND_TIMEOUT);
			StringRedisTemplate redis = TestRedis.template(application);
			redis.opsForValue().set("app:key", "value");
			try {
				CompletableFuture<Object> wait = CompletableFuture
					.supplyAsync(() -> redis.execute((RedisCallback<Object>) (connection) -> connection.execute("WAIT",
							"1".getBytes(), "1000".getBytes())));
				Thread.sleep(200);
				long getStarted = System.nanoTime();
				assertThat(redis.opsForValue().get("app:key")).isEqualTo("value");
				assertThat(elapsedMillis(getStarted)).as("GET queued behind a WAIT on the shared connection")
					.isGreaterThanOrEqualTo(500);
				// Spring Data Redis cannot decode WAIT's integer reply to a custom
				// command;
				// only that the command ended matters here
				assertThat(wait.handle((reply, failure) -> true).get(10, TimeUnit.SECONDS)).isTrue();
			}
			finally {
				application.destroy();
			}
		}
	}

	@Test
	void theReplicationTimeoutMayExceedTheCommandTimeout() throws Exception {
		try (RedisServerHandle server = TestRedis.startServer()) {
			LettuceConnectionFactory application = TestRedis.connectionFactory(server.endpoint(),
					Duration.ofMillis(300));
			Duration timeout = Duration.ofMillis(1000);
			try (DefaultLockClient client = client(application, new ReplicaAcknowledgement(1, timeout))) {
				long started = System.nanoTime();
				assertThatExceptionOfType(LockReplicationException.class)
					.isThrownBy(() -> client.acquire("slow-replicas", Duration.ZERO, null));
				assertThat(elapsedMillis(started)).isGreaterThanOrEqualTo(timeout.toMillis());
			}
			finally {
				application.destroy();
			}
		}
	}

	@Test
	void eachKeyWaitsForTheReplicasOfItsOwnMasterOnACluster() throws Exception {
		try (RedisClusterHandle cluster = TestRedis.startCluster(3, 1)) {
			LettuceConnectionFactory application = TestRedis.connectionFactory(cluster, COMMAND_TIMEOUT);
			List<String> keys = List.of(keyServedBy(cluster, 0), keyServedBy(cluster, 1), keyServedBy(cluster, 2));
			try (DefaultLockClient client = client(application,
					new ReplicaAcknowledgement(1, Duration.ofMillis(500)))) {
				for (String key : keys) {
					client.acquire(key, Duration.ZERO, null).release();
				}
				RedisServerHandle firstMastersReplica = cluster.replicas().get(0);
				firstMastersReplica.pause();
				try {
					assertThatExceptionOfType(LockReplicationException.class)
						.isThrownBy(() -> client.acquire(keys.get(0), Duration.ZERO, null))
						.withMessageContaining("only 0 of the 1");
					client.acquire(keys.get(1), Duration.ZERO, null).release();
					client.acquire(keys.get(2), Duration.ZERO, null).release();
				}
				finally {
					firstMastersReplica.resume();
				}
			}
			finally {
				application.destroy();
			}
		}
	}

	private static DefaultLockClient client(LettuceConnectionFactory connectionFactory,
			ReplicaAcknowledgement acknowledgement) {
		return new DefaultLockClient(new ReplicaAcknowledgingLockStore(
				new RedisLockStore(TestRedis.template(connectionFactory)), acknowledgement));
	}

	/**
	 * Return a key whose slot the {@code index}th master serves (the harness gives each
	 * master an equal range of slots, in order).
	 */
	private static String keyServedBy(RedisClusterHandle cluster, int index) {
		int perMaster = SlotHash.SLOT_COUNT / cluster.endpoints().size();
		for (int i = 0;; i++) {
			String key = "clustered:" + i;
			if (SlotHash.getSlot(lockKey(key)) / perMaster == index) {
				return key;
			}
		}
	}

	private static String lockKey(String key) {
		return LockKeys.of(RedisLockStore.DEFAULT_KEY_PREFIX, key).lockKey();
	}

	private static long elapsedMillis(long startedNanos) {
		return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos);
	}

}
