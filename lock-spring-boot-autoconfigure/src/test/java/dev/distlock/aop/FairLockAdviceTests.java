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

package dev.distlock.aop;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.LockHold;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @DistributedLock(fair = true)}: synchronous, {@code CompletionStage} and
 * reactive methods wait for their lock with a place of their own in the lock's queue in
 * Redis, and run once the holder releases.
 *
 * @author distlock
 */
class FairLockAdviceTests extends RedisAdviceTestSupport {

	@Test
	void aFairSynchronousMethodWaitsInTheQueueAndRunsAfterTheRelease() throws Exception {
		contextRunner().withUserConfiguration(FairJobsConfiguration.class).run((context) -> {
			FairJobs jobs = context.getBean(FairJobs.class);
			assertRunsAfterQueueing("job:sync", () -> CompletableFuture.completedFuture(jobs.sync("sync")));
		});
	}

	@Test
	void aFairCompletionStageMethodWaitsInTheQueueAndRunsAfterTheRelease() throws Exception {
		contextRunner().withUserConfiguration(FairJobsConfiguration.class).run((context) -> {
			FairJobs jobs = context.getBean(FairJobs.class);
			assertRunsAfterQueueing("job:stage", () -> jobs.stage("stage"));
		});
	}

	@Test
	void aFairMonoMethodWaitsInTheQueueAndRunsAfterTheRelease() throws Exception {
		contextRunner().withUserConfiguration(FairJobsConfiguration.class).run((context) -> {
			FairJobs jobs = context.getBean(FairJobs.class);
			assertRunsAfterQueueing("job:mono", () -> jobs.mono("mono").toFuture());
		});
	}

	private void assertRunsAfterQueueing(String key, Supplier<CompletableFuture<String>> call) throws Exception {
		LockHold elsewhere = otherInstance().acquire(key, Duration.ZERO, null);
		CompletableFuture<String> outcome = CompletableFuture.supplyAsync(call, (task) -> {
			Thread thread = new Thread(task, "fair-caller");
			thread.setDaemon(true);
			thread.start();
		}).thenCompose((result) -> result);
		// The fair queue: a sorted set of waiter tokens by arrival
		String queue = redisKey(this.prefix, key) + ":queue";
		await().atMost(Duration.ofSeconds(10)).until(() -> redis.opsForZSet().zCard(queue) > 0);
		assertThat(redis.opsForZSet().zCard(queue)).as("fair waiters queued in Redis").isEqualTo(1);
		assertThat(outcome).isNotDone();
		elsewhere.release();
		assertThat(outcome.get(10, TimeUnit.SECONDS)).isEqualTo(key.substring("job:".length()));
		assertThat(redis.opsForZSet().zCard(queue)).isZero();
		await().atMost(Duration.ofSeconds(10)).until(() -> lockedKeys().isEmpty());
	}

	@Configuration(proxyBeanMethods = false)
	static class FairJobsConfiguration {

		@Bean
		FairJobs fairJobs() {
			return new FairJobs();
		}

	}

	static class FairJobs {

		@DistributedLock(key = "'job:' + #name", waitTime = "10s", fair = true)
		public String sync(String name) {
			return name;
		}

		@DistributedLock(key = "'job:' + #name", waitTime = "10s", fair = true)
		public CompletableFuture<String> stage(String name) {
			return CompletableFuture.completedFuture(name);
		}

		@DistributedLock(key = "'job:' + #name", waitTime = "10s", fair = true)
		public Mono<String> mono(String name) {
			return Mono.just(name);
		}

	}

}
