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

import java.util.List;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.LockMode;
import dev.distlock.store.FairQueueExtension;
import dev.distlock.store.ForwardingLockStore;
import dev.distlock.store.HandOverExtension;
import dev.distlock.store.InspectionExtension;
import dev.distlock.store.LockStore;
import dev.distlock.store.LockStoreExtension;
import dev.distlock.store.ReadLockExtension;
import dev.distlock.store.SeveralKeysExtension;
import dev.distlock.store.WakeOneExtension;
import dev.distlock.memory.InMemoryLockStore;
import dev.distlock.redis.ReplicaAcknowledgingLockStore;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * Startup validation of distlock: invalid properties fail with a message naming the
 * property, combinations known at startup fail the startup, and risky setups are logged.
 * On a mocked {@link LockStore} (no Redis server).
 *
 * @author distlock
 */
@ExtendWith(OutputCaptureExtension.class)
class LockStartupValidationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class,
				LockDisabledAutoConfiguration.class));

	@Test
	void failsWithTheNameOfAnInvalidWatchdogLease() {
		assertStartupFailsNaming("distlock.watchdog-lease=10ms", "distlock.watchdog-lease must be at least 30 ms");
	}

	@Test
	void failsWithTheNameOfAnInvalidRenewalBatchSize() {
		assertStartupFailsNaming("distlock.renewal-batch-size=0", "distlock.renewal-batch-size must be positive");
	}

	@Test
	void failsWithTheNameOfAnInvalidMaxKeyLength() {
		assertStartupFailsNaming("distlock.max-key-length=0", "distlock.max-key-length must be positive");
	}

	@Test
	void failsWithTheNameOfAnInvalidMaxKeys() {
		assertStartupFailsNaming("distlock.max-keys=-1", "distlock.max-keys must be positive");
	}

	@Test
	void failsWithTheNameOfANegativeWaitTime() {
		assertStartupFailsNaming("distlock.wait-time=-1s", "distlock.wait-time must not be negative");
	}

	@Test
	void failsWithTheNameOfANegativeMinReplicas() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class))
			.withBean(StringRedisTemplate.class, LockStartupValidationTests::mockTemplate)
			.withPropertyValues("distlock.redis.replication.min-replicas=-1")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("distlock.redis.replication.min-replicas must not be negative"));
	}

	@Test
	void failsStartupForAFairLockWithReplicaAcknowledgement() {
		onAReplicaAcknowledgingStore().withBean(FairService.class)
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("fair = true")
				.hasMessageContaining("FairService.place")
				.hasMessageContaining(ReplicaAcknowledgingLockStore.class.getName())
				.hasMessageContaining(FairQueueExtension.class.getName()));
	}

	@Test
	void failsStartupForAReadLockWithReplicaAcknowledgement() {
		onAReplicaAcknowledgingStore().withBean(ReadService.class)
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("mode = READ")
				.hasMessageContaining("ReadService.read")
				.hasMessageContaining(ReplicaAcknowledgingLockStore.class.getName())
				.hasMessageContaining(ReadLockExtension.class.getName()));
	}

	@Test
	void startsWithAWriteLockWithReplicaAcknowledgement() {
		onAReplicaAcknowledgingStore().withBean(WriteService.class)
			.run((context) -> assertThat(context).hasNotFailed()
				.getBean(LockStore.class)
				.isInstanceOf(ReplicaAcknowledgingLockStore.class));
	}

	/**
	 * The Redis store wrapped for replica acknowledgement, on a mocked Lettuce template:
	 * the advice knows nothing of replicas, the store's missing extensions refuse.
	 */
	private ApplicationContextRunner onAReplicaAcknowledgingStore() {
		return this.contextRunner.withBean(StringRedisTemplate.class, () -> {
			StringRedisTemplate template = mock(StringRedisTemplate.class);
			// A real factory always has a client configuration; the store reads its
			// options
			LettuceConnectionFactory connectionFactory = mock(LettuceConnectionFactory.class);
			given(connectionFactory.getClientConfiguration())
				.willReturn(LettuceClientConfiguration.defaultConfiguration());
			given(template.getRequiredConnectionFactory()).willReturn(connectionFactory);
			return template;
		}).withPropertyValues("distlock.redis.replication.min-replicas=1");
	}

	@Test
	void startsWithFairAndReadLocksWithoutReplicaAcknowledgement() {
		this.contextRunner.withBean(LockStore.class, InMemoryLockStore::new)
			.withBean(FairService.class)
			.withBean(ReadService.class)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void failsStartupForAFairLockOnAStoreWithoutAFairQueue() {
		this.contextRunner.withBean(LockStore.class, () -> without(FairQueueExtension.class))
			.withBean(FairService.class)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("@DistributedLock(fair = true)")
				.hasMessageContaining("FairService.place")
				.hasMessageContaining(StoreWithout.class.getName())
				.hasMessageContaining(FairQueueExtension.class.getName()));
	}

	@Test
	void failsStartupForAReadLockOnAStoreWithoutReadLocks() {
		this.contextRunner.withBean(LockStore.class, () -> without(ReadLockExtension.class))
			.withBean(ReadService.class)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("@DistributedLock(mode = READ)")
				.hasMessageContaining("ReadService.read")
				.hasMessageContaining(StoreWithout.class.getName())
				.hasMessageContaining(ReadLockExtension.class.getName()));
	}

	@Test
	void startsWithAWriteLockOnAStoreWithoutAnyExtension() {
		this.contextRunner
			.withBean(LockStore.class,
					() -> without(ReadLockExtension.class, FairQueueExtension.class, WakeOneExtension.class,
							HandOverExtension.class, SeveralKeysExtension.class, InspectionExtension.class))
			.withBean(WriteService.class)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	/**
	 * Return the runner with a mocked store, which has no extension: for the cases whose
	 * locked methods the store is not asked about.
	 */
	private ApplicationContextRunner onAMockStore() {
		return this.contextRunner.withBean(LockStore.class, () -> mock(LockStore.class));
	}

	@SafeVarargs
	private static LockStore without(Class<? extends LockStoreExtension>... missing) {
		return new StoreWithout(List.of(missing));
	}

	@Test
	void failsStartupForHoldAtLeastLongerThanTheFixedLease() {
		onAMockStore().withBean(HoldTooLongService.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("holdAtLeast = \"5s\"")
				.hasMessageContaining("leaseTime"));
	}

	@Test
	void warnsAtStartupWhenDisabledWhileMethodsAreLocked(CapturedOutput output) {
		onAMockStore().withPropertyValues("distlock.enabled=false").withBean(FairService.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).contains("distlock.enabled=false, so 1 @DistributedLock method(s) run without any lock")
				.contains("FairService.place");
		});
	}

	@Test
	void doesNotWarnWhenDisabledWithoutLockedMethods(CapturedOutput output) {
		onAMockStore().withPropertyValues("distlock.enabled=false")
			.run((context) -> assertThat(output).doesNotContain("distlock.enabled=false"));
	}

	@Test
	void doesNotWarnAboutDisabledLocksWhenEnabled(CapturedOutput output) {
		this.contextRunner.withBean(LockStore.class, InMemoryLockStore::new)
			.withBean(FairService.class)
			.run((context) -> assertThat(output).doesNotContain("run without any lock"));
	}

	@Test
	void warnsAtStartupForAScheduledLockedMethodWithoutHoldAtLeast(CapturedOutput output) {
		onAMockStore().withBean(ScheduledJobs.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).contains("ScheduledJobs.withoutHoldAtLeast()")
				.contains("may run on several instances in one tick")
				.doesNotContain("ScheduledJobs.withHoldAtLeast()");
		});
	}

	private static StringRedisTemplate mockTemplate() {
		StringRedisTemplate template = mock(StringRedisTemplate.class);
		given(template.getRequiredConnectionFactory()).willReturn(mock(RedisConnectionFactory.class));
		return template;
	}

	private void assertStartupFailsNaming(String property, String message) {
		onAMockStore().withPropertyValues(property)
			.withBean(FairService.class)
			.run((context) -> assertThat(context).getFailure().rootCause().hasMessageContaining(message));
	}

	static class FairService {

		@DistributedLock(key = "'order'", fair = true)
		public void place() {
		}

	}

	static class ReadService {

		@DistributedLock(key = "'prices'", mode = LockMode.READ)
		public void read() {
		}

	}

	static class WriteService {

		@DistributedLock(key = "'stock'")
		public void take() {
		}

	}

	/**
	 * An in-memory store without some of its extensions.
	 */
	static class StoreWithout extends ForwardingLockStore {

		private final List<Class<? extends LockStoreExtension>> missing;

		StoreWithout(List<Class<? extends LockStoreExtension>> missing) {
			super(new InMemoryLockStore());
			this.missing = missing;
		}

		@Override
		public <E extends LockStoreExtension> @Nullable E extension(Class<E> type) {
			return this.missing.contains(type) ? null : super.extension(type);
		}

	}

	static class HoldTooLongService {

		@DistributedLock(key = "'report'", leaseTime = "2s", holdAtLeast = "5s")
		public void report() {
		}

	}

	static class ScheduledJobs {

		@Scheduled(fixedDelay = 60_000, initialDelay = 600_000)
		@DistributedLock(key = "'job-a'")
		public void withoutHoldAtLeast() {
		}

		@Scheduled(fixedDelay = 60_000, initialDelay = 600_000)
		@DistributedLock(key = "'job-b'", holdAtLeast = "1s")
		public void withHoldAtLeast() {
		}

	}

}
