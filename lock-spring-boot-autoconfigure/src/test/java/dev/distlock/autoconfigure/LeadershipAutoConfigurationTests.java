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

package dev.distlock.autoconfigure;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.annotation.LeaderOnly;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.HeldLock;
import dev.distlock.core.LockHold;
import dev.distlock.store.LockStore;
import dev.distlock.leader.Leadership;
import dev.distlock.memory.InMemoryLockStore;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The auto-configuration of leadership on the in-memory store: its name, the startup
 * refusals, what {@code @LeaderOnly} methods return on an instance that does not lead,
 * and the leader state in the health and the endpoint.
 *
 * @author distlock
 */
class LeadershipAutoConfigurationTests {

	private final InMemoryLockStore store = new InMemoryLockStore();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class,
				LeadershipAutoConfiguration.class, LockEndpointAutoConfiguration.class))
		.withBean(LockStore.class, () -> new CutOffLockStore(this.store, false))
		.withPropertyValues("management.endpoints.web.exposure.include=distlock", "distlock.endpoint.show-keys=always");

	@AfterEach
	void closeStore() {
		this.store.close();
	}

	@Test
	void isOffByDefault() {
		this.contextRunner.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(Leadership.class));
	}

	@Test
	void isNamedAfterTheApplicationUnlessNamedItselfAndLocksLeaderColonName() {
		this.contextRunner.withPropertyValues("distlock.leader.enabled=true", "spring.application.name=billing")
			.run((context) -> {
				Leadership leadership = context.getBean(Leadership.class);
				assertThat(leadership.name()).isEqualTo("billing");
				await().atMost(Duration.ofSeconds(5)).until(leadership::isLeader);
				assertThat(context.getBean(DefaultLockClient.class).heldLocks()).extracting(HeldLock::key)
					.containsExactly("leader:billing");
				assertThat(leadership.hold()).map(LockHold::fencingToken)
					.isEqualTo(Optional.of(leadership.fencingToken().getAsLong()));
			});
		this.contextRunner
			.withPropertyValues("distlock.leader.enabled=true", "spring.application.name=billing",
					"distlock.leader.name=invoices")
			.run((context) -> assertThat(context.getBean(Leadership.class).name()).isEqualTo("invoices"));
	}

	@Test
	void failsStartupWithoutANameNamingBothProperties() {
		this.contextRunner.withPropertyValues("distlock.leader.enabled=true")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("distlock.leader.name")
				.hasMessageContaining("spring.application.name"));
	}

	@Test
	void failsStartupWithAnInvalidRetryIntervalNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("distlock.leader.enabled=true", "distlock.leader.name=jobs",
					"distlock.leader.retry-interval=0ms")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("distlock.leader.retry-interval"));
	}

	@Test
	void failsStartupWhenLeaderOnlyIsUsedWithoutLeadership() {
		this.contextRunner.withBean(Jobs.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining(Jobs.class.getName())
				.hasMessageContaining("distlock.leader.enabled=true"));
	}

	@Test
	void failsStartupWhenALeaderOnlyMethodReturnsAPrimitive() {
		this.contextRunner.withPropertyValues("distlock.leader.enabled=true", "distlock.leader.name=jobs")
			.withBean(PrimitiveJob.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("Invalid @LeaderOnly")
				.hasMessageContaining("count"));
	}

	@Test
	void leaderOnlyMethodsOfAnInstanceThatDoesNotLeadReturnAsSkippedCallsDo() throws Exception {
		try (DefaultLockClient otherInstance = new DefaultLockClient(new CutOffLockStore(this.store, false));
				LockHold leader = otherInstance.acquire(Leadership.key("jobs"), Duration.ZERO, null)) {
			this.contextRunner.withPropertyValues("distlock.leader.enabled=true", "distlock.leader.name=jobs")
				.withBean(Jobs.class)
				.run((context) -> {
					Jobs jobs = context.getBean(Jobs.class);
					assertThat(context.getBean(Leadership.class).isLeader()).isFalse();
					assertThat(jobs.text()).isNull();
					assertThat(jobs.optional()).isEmpty();
					assertThat(jobs.future()).isCompletedWithValue(null);
					assertThat(jobs.mono().block()).isNull();
					assertThat(jobs.flux().collectList().block()).isEmpty();
					jobs.run();
					assertThat(jobs.runs()).isZero();
				});
		}
	}

	@Test
	void leaderOnlyMethodsOfTheLeaderRun() {
		this.contextRunner.withPropertyValues("distlock.leader.enabled=true", "distlock.leader.name=jobs")
			.withBean(Jobs.class)
			.run((context) -> {
				Jobs jobs = context.getBean(Jobs.class);
				await().atMost(Duration.ofSeconds(5)).until(context.getBean(Leadership.class)::isLeader);
				assertThat(jobs.text()).isEqualTo("ran");
				assertThat(jobs.optional()).contains("ran");
				assertThat(jobs.future()).isCompletedWithValue("ran");
				assertThat(jobs.mono().block()).isEqualTo("ran");
				assertThat(jobs.flux().collectList().block()).containsExactly("ran");
				jobs.run();
				assertThat(jobs.runs()).isEqualTo(6);
			});
	}

	@Test
	void healthAndEndpointShowTheLeaderState() {
		this.contextRunner.withPropertyValues("distlock.leader.enabled=true", "distlock.leader.name=jobs")
			.run((context) -> {
				Leadership leadership = context.getBean(Leadership.class);
				await().atMost(Duration.ofSeconds(5)).until(leadership::isLeader);
				LockHealth health = new LockHealth(context.getBean(DefaultLockClient.class),
						context.getBeanProvider(LockStoreHealth.class).orderedStream().toList());
				assertThat(health.state().down()).isFalse();
				assertThat(health.state().details()).extractingByKey("leadership")
					.isEqualTo(Map.of("name", "jobs", "leader", true, "since",
							leadership.leaderSince().orElseThrow().toString(), "fencingToken",
							leadership.fencingToken().getAsLong()));
				DistlockEndpoint.LeaderDescriptor leader = context.getBean(DistlockEndpoint.class).heldLocks().leader();
				assertThat(leader).isEqualTo(new DistlockEndpoint.LeaderDescriptor("jobs", true,
						leadership.leaderSince().orElseThrow().toString(), leadership.fencingToken().getAsLong()));
				leadership.yieldLeadership();
				assertThat(context.getBean(DistlockEndpoint.class).heldLocks().leader())
					.isEqualTo(new DistlockEndpoint.LeaderDescriptor("jobs", false, null, null));
				assertThat(health.state().details()).extractingByKey("leadership")
					.isEqualTo(Map.of("name", "jobs", "leader", false));
			});
	}

	static class Jobs {

		private final AtomicInteger runs = new AtomicInteger();

		@LeaderOnly
		public @Nullable String text() {
			return ran();
		}

		@LeaderOnly
		public Optional<String> optional() {
			return Optional.of(ran());
		}

		@LeaderOnly
		public CompletableFuture<String> future() {
			return CompletableFuture.completedFuture(ran());
		}

		@LeaderOnly
		public Mono<String> mono() {
			return Mono.fromSupplier(this::ran);
		}

		@LeaderOnly
		public Flux<String> flux() {
			return Flux.defer(() -> Flux.just(ran()));
		}

		@LeaderOnly
		public void run() {
			ran();
		}

		public int runs() {
			return this.runs.get();
		}

		private String ran() {
			this.runs.incrementAndGet();
			return "ran";
		}

	}

	static class PrimitiveJob {

		@LeaderOnly
		public int count() {
			return 1;
		}

	}

}
