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
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import dev.distlock.store.HandOverExtension.HandOff;
import dev.distlock.store.support.Stages;
import dev.distlock.store.test.RequestCountingLockStore;
import dev.distlock.testing.redis.TestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A holder yields its key to other clients only when one waits: the hand-over script
 * tells whether a client other than the holder's is registered as waiting, with only
 * local callers waiting the lock passes among them without a release, and a waiting
 * client on a store and connection of its own (another process) still gets in while the
 * local callers keep coming. Counted, never timed.
 *
 * @author distlock
 */
class RedisCohortYieldTests extends RedisStoreTestSupport {

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final Duration WAIT = Duration.ofSeconds(30);

	@Test
	void aHandOverTellsWhetherAClientOtherThanTheHoldersWaits() {
		RedisLockStore store = newStore();
		String key = uniqueKey("others-wait");
		LockKeys keys = LockKeys.of(store.keyPrefix(), key);
		assertThat(Stages.join(store.tryAcquire(key, "t1", LEASE)).acquired()).isTrue();
		assertThat(handOver(store, key, "t1", "t2", "me").othersWait()).as("nobody registered").isFalse();
		assertThat(Stages.join(store.tryAcquire(key, "mine", LEASE, "me", LEASE)).acquired()).isFalse();
		assertThat(handOver(store, key, "t2", "t3", "me").othersWait()).as("only our own registration").isFalse();
		assertThat(Stages.join(store.tryAcquire(key, "theirs", LEASE, "other", LEASE)).acquired()).isFalse();
		HandOff handOff = handOver(store, key, "t3", "t4", "me");
		assertThat(handOff.attempt().acquired()).isTrue();
		assertThat(handOff.othersWait()).as("another client's registration").isTrue();
		assertThat(handOver(store, key, "t3", "t4", "me")).as("a replay answers the grant as the first did")
			.isEqualTo(handOff);
		redis.opsForZSet().remove(keys.waitersKey(), "other");
		assertThat(handOver(store, key, "t4", "t5", "me").othersWait()).isFalse();
		redis.opsForZSet().add(keys.waitersKey(), LuaHelpers.EVERY_RELEASE, Long.MAX_VALUE / 2);
		assertThat(handOver(store, key, "t5", "t6", "me").othersWait()).as("a listener of every release may be anyone")
			.isTrue();
		assertThat(handOver(store, key, "t5", "t7", "me").attempt().acquired()).as("not the owner any more").isFalse();
	}

	@Test
	void withOnlyLocalWaitersTheHolderPassesTheLockOnWithoutReleasingIt() throws InterruptedException {
		RequestCountingLockStore store = new RequestCountingLockStore(new RedisLockStore(redis));
		DefaultLockClient client = register(
				new DefaultLockClient(store, LockClientSettings.defaults().withCohortHandOffs(2)));
		String key = uniqueKey("local-only");
		warmUp(client);
		LockHold holder = client.acquire(key, Duration.ZERO, null);
		int waiters = 6;
		List<CompletableFuture<Void>> served = new ArrayList<>();
		for (int i = 0; i < waiters; i++) {
			served.add(client.acquireAsync(key, WAIT, null).thenCompose(LockHold::releaseAsync).toCompletableFuture());
			int queued = i + 1;
			await().atMost(WAIT).until(() -> client.waitingCount(key) == queued);
		}
		store.reset();
		holder.release();
		CompletableFuture.allOf(served.toArray(CompletableFuture[]::new)).join();
		assertThat(store.handOvers()).as("every local waiter got the lock handed over").isEqualTo(waiters);
		assertThat(store.releases()).as("one release, by the last holder, with nobody left waiting").isEqualTo(1);
		assertThat(store.attempts()).as("no local waiter yielded and asked the store").isZero();
	}

	@Test
	void aClientOfAnotherProcessThatWaitsGetsInWhileLocalCallersKeepComing() throws InterruptedException {
		RedisLockStore localStore = new RedisLockStore(redis);
		DefaultLockClient local = register(
				new DefaultLockClient(localStore, LockClientSettings.defaults().withCohortHandOffs(2)));
		LettuceConnectionFactory otherConnection = TestRedis.connectionFactory(TestRedis.endpoint(), COMMAND_TIMEOUT);
		try {
			DefaultLockClient remote = register(new DefaultLockClient(
					new RedisLockStore(TestRedis.template(otherConnection)), LockClientSettings.defaults()));
			String key = uniqueKey("remote-waits");
			warmUp(local);
			warmUp(remote);
			LockHold holder = local.acquire(key, Duration.ZERO, null);
			int loopers = 4;
			int rounds = 25;
			AtomicInteger localHolds = new AtomicInteger();
			List<CompletableFuture<Void>> loops = new ArrayList<>();
			for (int i = 0; i < loopers; i++) {
				loops.add(loop(local, key, rounds, localHolds));
			}
			await().atMost(WAIT).until(() -> local.waitingCount(key) == loopers);
			AtomicInteger localHoldsAtRemoteGrant = new AtomicInteger(-1);
			CompletableFuture<Void> remoteServed = remote.acquireAsync(key, WAIT, null).thenCompose((hold) -> {
				localHoldsAtRemoteGrant.set(localHolds.get());
				return hold.releaseAsync();
			}).toCompletableFuture();
			// Registered in Redis, not only queued in its client (a loaded machine may
			// send its first request late)
			String waitersKey = LockKeys.of(localStore.keyPrefix(), key).waitersKey();
			await().atMost(WAIT).until(() -> remote.waitingCount(key) > 0 && redis.opsForZSet().size(waitersKey) > 0);
			holder.release();
			remoteServed.join();
			CompletableFuture.allOf(loops.toArray(CompletableFuture[]::new)).join();
			assertThat(localHolds).hasValue(loopers * rounds);
			assertThat(localHoldsAtRemoteGrant.get()).as("the remote client got in while local callers kept coming")
				.isBetween(0, loopers * rounds / 2);
		}
		finally {
			otherConnection.destroy();
		}
	}

	private static CompletableFuture<Void> loop(DefaultLockClient client, String key, int rounds, AtomicInteger holds) {
		if (rounds == 0) {
			return CompletableFuture.completedFuture(null);
		}
		return client.acquireAsync(key, WAIT, null).thenCompose((hold) -> {
			holds.incrementAndGet();
			return hold.releaseAsync();
		}).thenCompose((released) -> loop(client, key, rounds - 1, holds)).toCompletableFuture();
	}

	/**
	 * Take and give back a lock of its own with {@code client} until it works: the first
	 * request of a JVM or connection (connecting, loading the scripts) may take longer
	 * than the command timeout on a loaded machine.
	 */
	private static void warmUp(DefaultLockClient client) {
		await().atMost(WAIT).ignoreExceptions().until(() -> {
			client.acquire(uniqueKey("warm-up"), Duration.ZERO, null).release();
			return true;
		});
	}

	private static HandOff handOver(RedisLockStore store, String key, String token, String nextToken, String client) {
		HandOff handOff = Stages.join(store.handOver(key, token, nextToken, LEASE, client));
		assertThat(handOff).isNotNull();
		return handOff;
	}

}
