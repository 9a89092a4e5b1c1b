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
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockHold;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a caller that gives up while the lock is being acquired leaves behind through the
 * annotation: a cancelled {@code CompletableFuture}, a disposed {@code Mono} (a WebFlux
 * client that disconnects), a cancelled {@code Flux}, at random instants from right after
 * the call to after the grant. Nothing: no key is left held in Redis, the client holds
 * nothing and renews nothing (a reactive subscription cancelled after the grant keeps its
 * lock for {@code distlock.reactive.hold-after-cancel}, here 1 s, and then releases it).
 *
 * @author distlock
 */
class CancelDuringAcquisitionAdviceTests extends RedisAdviceTestSupport {

	private static final int CALLS = 100;

	@Test
	void cancellingFuturesAtAnyInstantLeavesNoKeyHeld() {
		contextRunner().withUserConfiguration(OrdersConfiguration.class).run((context) -> {
			Orders orders = context.getBean(Orders.class);
			for (int i = 0; i < CALLS; i++) {
				CompletableFuture<String> call = orders.future("f" + i);
				pauseUpToTwoMillis();
				call.cancel(true);
			}
			assertNothingLeftHeld(context.getBean(DefaultLockClient.class));
		});
	}

	@Test
	void disposingMonosAtAnyInstantLeavesNoKeyHeld() {
		contextRunner().withUserConfiguration(OrdersConfiguration.class)
			.withPropertyValues("distlock.reactive.hold-after-cancel=1s")
			.run((context) -> {
				Orders orders = context.getBean(Orders.class);
				for (int i = 0; i < CALLS; i++) {
					Disposable subscription = orders.mono("m" + i).subscribe();
					pauseUpToTwoMillis();
					subscription.dispose();
				}
				assertNothingLeftHeld(context.getBean(DefaultLockClient.class));
			});
	}

	@Test
	void cancellingFluxesAtAnyInstantLeavesNoKeyHeld() {
		contextRunner().withUserConfiguration(OrdersConfiguration.class)
			.withPropertyValues("distlock.reactive.hold-after-cancel=1s")
			.run((context) -> {
				Orders orders = context.getBean(Orders.class);
				for (int i = 0; i < CALLS; i++) {
					Disposable subscription = orders.flux("x" + i).subscribe();
					pauseUpToTwoMillis();
					subscription.dispose();
				}
				assertNothingLeftHeld(context.getBean(DefaultLockClient.class));
			});
	}

	@Test
	void cancellingCallersThatWaitForABusyKeyLeavesNothingBehindWhenItIsReleased() throws Exception {
		try (LockHold elsewhere = otherInstance().acquire("order:busy", Duration.ZERO, null)) {
			contextRunner().withUserConfiguration(OrdersConfiguration.class).run((context) -> {
				Orders orders = context.getBean(Orders.class);
				DefaultLockClient client = context.getBean(DefaultLockClient.class);
				CompletableFuture<String> future = orders.future("busy");
				Disposable mono = orders.mono("busy").subscribe();
				await().atMost(Duration.ofSeconds(5)).until(() -> client.waitingCount("order:busy") == 2);
				future.cancel(true);
				mono.dispose();
				await().atMost(Duration.ofSeconds(5)).until(() -> client.acquiringCount() == 0);
				elsewhere.release();
				assertNothingLeftHeld(client);
				assertThat(client.waitingCount("order:busy")).isZero();
			});
		}
	}

	private void assertNothingLeftHeld(DefaultLockClient client) {
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			assertThat(lockedKeys()).isEmpty();
			assertThat(client.heldCount()).isZero();
			assertThat(client.renewedLeaseCount()).isZero();
			assertThat(client.acquiringCount()).isZero();
		});
	}

	private static void pauseUpToTwoMillis() {
		LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(TimeUnit.MILLISECONDS.toNanos(2) + 1));
	}

	@Configuration(proxyBeanMethods = false)
	static class OrdersConfiguration {

		@Bean
		Orders orders() {
			return new Orders();
		}

	}

	static class Orders {

		@DistributedLock(key = "'order:' + #id", waitTime = "10s")
		public CompletableFuture<String> future(String id) {
			return CompletableFuture.supplyAsync(() -> id, CompletableFuture.delayedExecutor(1, TimeUnit.MILLISECONDS));
		}

		@DistributedLock(key = "'order:' + #id", waitTime = "10s")
		public Mono<String> mono(String id) {
			return Mono.just(id).delayElement(Duration.ofMillis(1));
		}

		@DistributedLock(key = "'order:' + #id", waitTime = "10s")
		public Flux<Integer> flux(String id) {
			return Flux.range(1, 3).delayElements(Duration.ofMillis(1));
		}

	}

}
