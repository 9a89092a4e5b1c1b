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

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;

import dev.distlock.LockBackendException;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.support.Stages;
import dev.distlock.testing.redis.RedisServerHandle;
import dev.distlock.testing.redis.TestRedis;
import dev.distlock.store.support.StageTimeouts;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.TimeoutOptions;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link RedisLockStore} never blocks its caller: Lettuce's asynchronous API with no
 * thread per request, a bounded executor for Jedis that refuses rather than queue without
 * end, and stages that fail within about the command timeout when Redis does not answer.
 *
 * @author distlock
 */
class RedisLockStoreNonBlockingTests extends RedisStoreTestSupport {

	private static final Duration LEASE = Duration.ofSeconds(30);

	@Test
	void twoThousandConcurrentRequestsOnLettuceAddNoThreadPerRequest() {
		RedisLockStore store = new RedisLockStore(redis);
		try {
			String warmUp = uniqueKey("warm-up");
			assertThat(Stages.join(store.tryAcquire(warmUp, "token", LEASE)).acquired()).isTrue();
			Stages.join(store.release(warmUp, "token"));
			ThreadMXBean threads = ManagementFactory.getThreadMXBean();
			int before = threads.getThreadCount();
			List<String> keys = new ArrayList<>();
			List<CompletableFuture<Attempt>> attempts = new ArrayList<>();
			for (int i = 0; i < 2000; i++) {
				String key = uniqueKey("concurrent-" + i);
				keys.add(key);
				attempts.add(store.tryAcquire(key, "token-" + i, LEASE).toCompletableFuture());
			}
			int whileInFlight = threads.getThreadCount();
			CompletableFuture.allOf(attempts.toArray(CompletableFuture[]::new)).join();
			int after = threads.getThreadCount();
			assertThat(attempts).allSatisfy((attempt) -> assertThat(attempt.join().acquired()).isTrue());
			assertThat(whileInFlight).as("threads while 2,000 requests were in flight").isLessThanOrEqualTo(before + 2);
			assertThat(after).as("threads once they completed").isLessThanOrEqualTo(before + 2);
			List<CompletableFuture<Boolean>> releases = new ArrayList<>();
			for (int i = 0; i < keys.size(); i++) {
				releases.add(store.release(keys.get(i), "token-" + i).toCompletableFuture());
			}
			assertThat(releases).allSatisfy((released) -> assertThat(released.join()).isTrue());
		}
		finally {
			store.close();
		}
	}

	@Test
	void aFullExecutorQueueFailsTheStageAtOnceInsteadOfBlockingTheCaller() {
		try (RedisServerHandle server = TestRedis.startServer()) {
			JedisConnectionFactory jedis = new JedisConnectionFactory(
					new RedisStandaloneConfiguration(server.endpoint().host(), server.endpoint().port()),
					JedisClientConfiguration.builder()
						.connectTimeout(Duration.ofSeconds(2))
						.readTimeout(Duration.ofSeconds(2))
						.usePooling()
						.build());
			jedis.afterPropertiesSet();
			jedis.start();
			RedisLockStore store = new RedisLockStore(TestRedis.template(jedis), RedisLockStore.DEFAULT_KEY_PREFIX, 1,
					1);
			server.pause();
			try {
				CompletableFuture<Attempt> running = store.tryAcquire("jedis-1", "a", LEASE).toCompletableFuture();
				CompletableFuture<Attempt> queued = store.tryAcquire("jedis-2", "b", LEASE).toCompletableFuture();
				CompletableFuture<Attempt> refused = store.tryAcquire("jedis-3", "c", LEASE).toCompletableFuture();
				assertThat(refused).as("refused as soon as asked").isCompletedExceptionally();
				assertThatExceptionOfType(CompletionException.class).isThrownBy(refused::join)
					.havingCause()
					.isInstanceOf(LockBackendException.class)
					.withCauseInstanceOf(RejectedExecutionException.class);
				Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> running.isDone() && queued.isDone());
				assertThat(List.of(running, queued))
					.allSatisfy((stage) -> assertThatExceptionOfType(CompletionException.class).isThrownBy(stage::join)
						.withCauseInstanceOf(LockBackendException.class));
			}
			finally {
				server.resume();
				store.close();
				jedis.destroy();
			}
		}
	}

	@Test
	void aStageFailsWithinAboutTheCommandTimeoutWhileRedisIsPaused() {
		try (RedisServerHandle server = TestRedis.startServer()) {
			LettuceConnectionFactory lettuce = TestRedis.connectionFactory(server.endpoint(), Duration.ofMillis(500));
			RedisLockStore store = new RedisLockStore(TestRedis.template(lettuce));
			try {
				assertThat(Stages.join(store.tryAcquire("paused-warm-up", "a", LEASE)).acquired()).isTrue();
				server.pause();
				CompletableFuture<Attempt> attempt = store.tryAcquire("paused", "b", LEASE).toCompletableFuture();
				Awaitility.await("the stage completes").atMost(Duration.ofSeconds(10)).until(attempt::isDone);
				assertThatExceptionOfType(CompletionException.class).isThrownBy(attempt::join)
					.havingCause()
					.isInstanceOf(LockBackendException.class);
			}
			finally {
				server.resume();
				store.close();
				lettuce.destroy();
			}
		}
	}

	@Test
	void aScriptRedisNoLongerKnowsIsNotSentAgainAsSourceOnceItsRequestTimedOut() {
		try (RedisServerHandle server = TestRedis.startServer()) {
			// Lettuce leaves its asynchronous commands unbounded here, so only the
			// store's
			// own bound ends the request, and the NOSCRIPT answer comes after it
			LettuceConnectionFactory lettuce = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration(server.endpoint().host(), server.endpoint().port()),
					LettuceClientConfiguration.builder()
						.commandTimeout(Duration.ofMillis(500))
						.clientOptions(ClientOptions.builder()
							.timeoutOptions(TimeoutOptions.builder().timeoutCommands(false).build())
							.build())
						.build());
			lettuce.afterPropertiesSet();
			lettuce.start();
			StringRedisTemplate redis = TestRedis.template(lettuce);
			RedisLockStore store = new RedisLockStore(redis);
			try {
				Awaitility.await("the connection is made")
					.atMost(Duration.ofSeconds(10))
					.ignoreExceptions()
					.until(() -> Stages.join(store.tryAcquire("noscript-warm-up", "a", LEASE)).acquired());
				redis.execute((RedisCallback<Void>) (connection) -> {
					connection.scriptingCommands().scriptFlush();
					return null;
				});
				server.pause();
				CompletableFuture<Attempt> late = store.tryAcquire("noscript-late", "gave-up", LEASE)
					.toCompletableFuture();
				Awaitility.await("the request times out").atMost(Duration.ofSeconds(10)).until(late::isDone);
				assertThat(late).isCompletedExceptionally();
				server.resume();
				// Answered after the late NOSCRIPT on the same connection, and itself
				// sent
				// again as source after its own NOSCRIPT
				Awaitility.await("a later acquire is answered")
					.atMost(Duration.ofSeconds(10))
					.ignoreExceptions()
					.until(() -> Stages.join(store.tryAcquire("noscript-after", "next", LEASE)).acquired());
				assertThat(Stages.join(store.inspect("noscript-late")).held())
					.as("the timed-out acquire was not sent again as source")
					.isFalse();
			}
			finally {
				server.resume();
				store.close();
				lettuce.destroy();
			}
		}
	}

	@Test
	void aRequestThatTimedOutWhileTheConnectionWasBeingMadeIsNeverSentLate() {
		try (RedisServerHandle server = TestRedis.startServer()) {
			LettuceConnectionFactory lettuce = TestRedis.connectionFactory(server.endpoint(), Duration.ofMillis(500));
			RedisLockStore store = new RedisLockStore(TestRedis.template(lettuce));
			try {
				// No connection yet: the store's first request waits for one to a frozen
				// server
				server.pause();
				CompletableFuture<Attempt> late = store.tryAcquire("late", "gave-up", LEASE).toCompletableFuture();
				Awaitility.await("the request times out").atMost(Duration.ofSeconds(10)).until(late::isDone);
				assertThat(late).isCompletedExceptionally();
				server.resume();
				Awaitility.await("the connection is made")
					.atMost(Duration.ofSeconds(10))
					.ignoreExceptions()
					.until(() -> Stages.join(store.tryAcquire("after", "next", LEASE)).acquired());
				assertThat(Stages.join(store.inspect("late")).held()).as("the timed-out acquire was not sent late")
					.isFalse();
			}
			finally {
				server.resume();
				store.close();
				lettuce.destroy();
			}
		}
	}

	@Test
	void theStoreNeedsNoStartedFactoryWhenCreatedAndSurvivesTheFactorysRestart() {
		LettuceConnectionFactory lettuce = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(TestRedis.endpoint().host(), TestRedis.endpoint().port()),
				LettuceClientConfiguration.builder().commandTimeout(COMMAND_TIMEOUT).build());
		RedisLockStore store = new RedisLockStore(TestRedis.template(lettuce));
		try {
			lettuce.afterPropertiesSet();
			lettuce.start();
			String key = uniqueKey("started-later");
			assertThat(Stages.join(store.tryAcquire(key, "a", LEASE)).acquired()).isTrue();
			lettuce.stop();
			lettuce.start();
			assertThat(Stages.join(store.release(key, "a"))).as("released after the factory's restart").isTrue();
		}
		finally {
			store.close();
			lettuce.destroy();
		}
	}

	@Test
	void tenThousandBoundedRequestsShareOneTimerTaskAndLeaveNothingPendingOnceAnswered() {
		List<CompletableFuture<Object>> requests = new ArrayList<>();
		for (int i = 0; i < 10_000; i++) {
			requests.add(StageTimeouts.within(new CompletableFuture<>(), Duration.ofSeconds(30), "a test"));
		}
		assertThat(StageTimeouts.pendingAndScheduled()[1]).as("timer tasks scheduled").isLessThanOrEqualTo(1);
		requests.forEach((request) -> request.complete("answered"));
		Awaitility.await()
			.atMost(Duration.ofSeconds(5))
			.until(() -> Arrays.equals(StageTimeouts.pendingAndScheduled(), new int[] { 0, 0 }));
		assertThat(requests).allMatch((request) -> "answered".equals(request.join()));
	}

	@Test
	void aTimeoutFailsTheStageWithTheStoresOwnBoundWhereTheClientAppliesNone() {
		CompletableFuture<Object> never = new CompletableFuture<>();
		StageTimeouts.within(never, Duration.ofMillis(50), "a test");
		Awaitility.await().atMost(Duration.ofSeconds(5)).until(never::isDone);
		assertThatExceptionOfType(CompletionException.class).isThrownBy(never::join)
			.withCauseInstanceOf(TimeoutException.class);
	}

}
