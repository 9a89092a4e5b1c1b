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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHandle;
import dev.distlock.LockLostException;
import dev.distlock.testing.redis.RedisSentinelHandle;
import dev.distlock.testing.redis.TestRedis;
import io.lettuce.core.ReadFrom;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The engine through a Sentinel-managed connection factory.
 *
 * @author distlock
 */
class RedisSentinelLockTests {

	private RedisSentinelHandle sentinel;

	private LettuceConnectionFactory connectionFactory;

	@BeforeEach
	void start() {
		this.sentinel = TestRedis.startSentinel();
		this.connectionFactory = TestRedis.connectionFactory(this.sentinel, Duration.ofSeconds(2));
	}

	@AfterEach
	void stop() {
		this.connectionFactory.destroy();
		this.sentinel.close();
	}

	@Test
	void locksRenewsAndWakesWaitersThroughSentinel() throws Exception {
		StringRedisTemplate redis = TestRedis.template(this.connectionFactory);
		// Renewed every 1 s: held for 7 s, past two leases, only if the renewals go
		// through
		LockClientSettings settings = LockClientSettings.defaults().withWatchdogLease(Duration.ofSeconds(3));
		try (DefaultLockClient first = new DefaultLockClient(new RedisLockStore(redis), settings);
				DefaultLockClient second = new DefaultLockClient(new RedisLockStore(redis), settings)) {
			LockHandle holder = first.obtain("sentinel:order:1");
			assertThat(holder.tryLock(Duration.ZERO)).isTrue();
			await("the lock held through its renewals").during(Duration.ofSeconds(7))
				.atMost(Duration.ofSeconds(8))
				.pollInSameThread()
				.until(holder::isHeldByCurrentThread);
			LockHandle waiter = second.obtain("sentinel:order:1");
			assertThat(waiter.tryLock(Duration.ZERO)).isFalse();
			CompletableFuture<Boolean> waited = CompletableFuture.supplyAsync(() -> {
				try {
					boolean acquired = waiter.tryLock(Duration.ofSeconds(10));
					waiter.unlock();
					return acquired;
				}
				catch (InterruptedException ex) {
					throw new IllegalStateException(ex);
				}
			});
			Thread.sleep(100);
			holder.unlock();
			assertThat(waited.get(10, TimeUnit.SECONDS)).isTrue();
		}
		LettuceConnectionFactory masterConnection = TestRedis.connectionFactory(this.sentinel.master(),
				Duration.ofSeconds(2));
		try {
			StringRedisTemplate master = TestRedis.template(masterConnection);
			// Besides the fence, only the released-by markers of the releases may be
			// left,
			// and only for one command timeout (a replayed release reads them)
			assertThat(master.keys("lock:*")).filteredOn((key) -> !key.contains(":released-by:"))
				.containsOnly("lock:{sentinel:order:1}:fence");
			assertThat(master.keys("lock:{sentinel:order:1}:released-by:*"))
				.allSatisfy((marker) -> assertThat(master.getExpire(marker, TimeUnit.MILLISECONDS)).isPositive()
					.isLessThanOrEqualTo(Duration.ofSeconds(2).toMillis()));
		}
		finally {
			masterConnection.destroy();
		}
	}

	@Test
	void ownershipIsCheckedOnTheMasterWhenTheApplicationReadsFromReplicas() throws Exception {
		awaitSentinelKnowsAReplica();
		LettuceConnectionFactory readingFromReplicas = new LettuceConnectionFactory(
				new RedisSentinelConfiguration().master(RedisSentinelHandle.MASTER_NAME)
					.sentinel(this.sentinel.sentinel().host(), this.sentinel.sentinel().port()),
				LettuceClientConfiguration.builder()
					.readFrom(ReadFrom.REPLICA)
					.commandTimeout(Duration.ofSeconds(2))
					.build());
		readingFromReplicas.afterPropertiesSet();
		readingFromReplicas.start();
		LettuceConnectionFactory masterConnection = TestRedis.connectionFactory(this.sentinel.master(),
				Duration.ofSeconds(2));
		LettuceConnectionFactory replicaConnection = TestRedis.connectionFactory(this.sentinel.replica(),
				Duration.ofSeconds(2));
		StringRedisTemplate application = TestRedis.template(readingFromReplicas);
		StringRedisTemplate master = TestRedis.template(masterConnection);
		StringRedisTemplate replica = TestRedis.template(replicaConnection);
		String lockKey = "lock:{replicated}";
		try (DefaultLockClient client = new DefaultLockClient(new RedisLockStore(application))) {
			LockHandle lock = client.obtain("replicated");
			assertThat(lock.tryLock(Duration.ZERO)).isTrue();
			lock.confirmOwnership();
			String token = master.opsForValue().get(lockKey);
			// Another owner takes the key on the master while the replica, made writable
			// here, still says this holder owns it: a stale replica.
			master.opsForValue().set(lockKey, "someone-else");
			awaitValue(replica, lockKey, "someone-else");
			replica.execute((RedisCallback<Void>) (connection) -> {
				connection.serverCommands().setConfig("replica-read-only", "no");
				return null;
			});
			replica.opsForValue().set(lockKey, token);
			assertThat(application.opsForValue().get(lockKey)).as("what a read through the application sees")
				.isEqualTo(token);
			assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::confirmOwnership);
			assertThatExceptionOfType(LockLostException.class).isThrownBy(lock::unlock);
			assertThat(master.opsForValue().get(lockKey)).isEqualTo("someone-else");
		}
		finally {
			readingFromReplicas.destroy();
			masterConnection.destroy();
			replicaConnection.destroy();
		}
	}

	private void awaitSentinelKnowsAReplica() throws InterruptedException {
		RedisClient client = RedisClient
			.create(RedisURI.create(this.sentinel.sentinel().host(), this.sentinel.sentinel().port()));
		try (StatefulRedisSentinelConnection<String, String> connection = client.connectSentinel()) {
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
			while (connection.sync()
				.replicas(RedisSentinelHandle.MASTER_NAME)
				.stream()
				.noneMatch((replica) -> !replica.getOrDefault("flags", "").contains("down")
						&& !replica.getOrDefault("flags", "").contains("disconnected"))) {
				if (System.nanoTime() - deadline > 0) {
					throw new AssertionError("The Sentinel never reported the replica");
				}
				Thread.sleep(100);
			}
		}
		finally {
			client.shutdown();
		}
	}

	private static void awaitValue(StringRedisTemplate redis, String key, String value) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!value.equals(redis.opsForValue().get(key))) {
			if (System.nanoTime() - deadline > 0) {
				throw new AssertionError(key + " never became " + value);
			}
			Thread.sleep(10);
		}
	}

}
