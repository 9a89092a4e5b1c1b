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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.distlock.annotation.DistributedLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.awaitility.Awaitility.await;

/**
 * A hold kept past {@code distlock.max-hold} is logged with the method that took it, even
 * when the lock has a name of its own: synchronous, {@code CompletableFuture} and
 * {@code Mono} methods alike.
 *
 * @author distlock
 */
@ExtendWith(OutputCaptureExtension.class)
class LockCallerAdviceTests extends RedisAdviceTestSupport {

	private static final Duration WARNED = Duration.ofSeconds(10);

	private ApplicationContextRunner runner() {
		return contextRunner().withBean(Jobs.class, Jobs::new)
			.withPropertyValues("distlock.watchdog-lease=1s", "distlock.max-hold=500ms");
	}

	@Test
	void namesTheSynchronousMethodThatKeptItsLockTooLong(CapturedOutput output) {
		runner().run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			CountDownLatch finish = new CountDownLatch(1);
			CompletableFuture<Void> running = CompletableFuture.runAsync(() -> jobs.nightly(finish));
			await().atMost(WARNED).until(() -> output.toString().contains("(nightly, taken by Jobs.nightly) was held"));
			finish.countDown();
			await().atMost(WARNED).until(running::isDone);
		});
	}

	@Test
	void namesTheMethodWhoseFutureKeptItsLockTooLong(CapturedOutput output) {
		runner().run((context) -> {
			CompletableFuture<String> result = new CompletableFuture<>();
			CompletableFuture<String> call = context.getBean(Jobs.class).report(result);
			await().atMost(WARNED).until(() -> output.toString().contains("(report, taken by Jobs.report) was held"));
			result.complete("done");
			await().atMost(WARNED).until(call::isDone);
		});
	}

	@Test
	void namesTheMethodWhoseMonoKeptItsLockTooLong(CapturedOutput output) {
		runner().run((context) -> {
			Sinks.One<String> result = Sinks.one();
			CompletableFuture<String> call = context.getBean(Jobs.class).export(result.asMono()).toFuture();
			await().atMost(WARNED).until(() -> output.toString().contains("(export, taken by Jobs.export) was held"));
			result.tryEmitValue("done");
			await().atMost(WARNED).until(call::isDone);
		});
	}

	static class Jobs {

		@DistributedLock(key = "'nightly'", name = "nightly")
		void nightly(CountDownLatch finish) {
			try {
				finish.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		@DistributedLock(key = "'report'", name = "report")
		CompletableFuture<String> report(CompletableFuture<String> result) {
			return result;
		}

		@DistributedLock(key = "'export'", name = "export")
		Mono<String> export(Mono<String> result) {
			return result;
		}

	}

}
