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

package dev.distlock.autoconfigure.redis;

import dev.distlock.autoconfigure.LockAutoConfiguration;
import java.time.Duration;

import dev.distlock.store.LockStore;
import dev.distlock.redis.RedisLockStore;
import dev.distlock.redis.ReplicaAcknowledgement;
import dev.distlock.redis.ReplicaAcknowledgingLockStore;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * Tests for the {@code distlock.redis.replication.*} properties (and the deprecated
 * {@code distlock.replication.*} they replace) of {@link LockAutoConfiguration}, on
 * mocked templates (no Redis server).
 *
 * @author distlock
 */
class ReplicationAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class));

	@Test
	void waitsForNoReplicaByDefault() {
		this.contextRunner.withBean(StringRedisTemplate.class, () -> template(mock(RedisConnectionFactory.class)))
			.run((context) -> assertThat(context).hasSingleBean(LockStore.class)
				.getBean(LockStore.class)
				.isInstanceOf(RedisLockStore.class));
	}

	@Test
	void wrapsTheRedisLockStoreInAReplicaAcknowledgingStore() {
		this.contextRunner.withBean(StringRedisTemplate.class, () -> template(lettuceConnectionFactory()))
			.withPropertyValues("distlock.redis.replication.min-replicas=2", "distlock.redis.replication.timeout=250ms")
			.run((context) -> assertThat(context.getBean(ReplicaAcknowledgingLockStore.class).replicaAcknowledgement())
				.isEqualTo(new ReplicaAcknowledgement(2, Duration.ofMillis(250))));
	}

	@Test
	void bindsTheDeprecatedNames() {
		this.contextRunner.withBean(StringRedisTemplate.class, () -> template(lettuceConnectionFactory()))
			.withPropertyValues("distlock.replication.min-replicas=2", "distlock.replication.timeout=250ms")
			.run((context) -> assertThat(context.getBean(ReplicaAcknowledgingLockStore.class).replicaAcknowledgement())
				.isEqualTo(new ReplicaAcknowledgement(2, Duration.ofMillis(250))));
	}

	@Test
	void prefersTheNewNamesOverTheDeprecatedOnes() {
		this.contextRunner.withBean(StringRedisTemplate.class, () -> template(lettuceConnectionFactory()))
			.withPropertyValues("distlock.replication.min-replicas=1", "distlock.replication.timeout=250ms",
					"distlock.redis.replication.min-replicas=2")
			.run((context) -> assertThat(context.getBean(ReplicaAcknowledgingLockStore.class).replicaAcknowledgement())
				.isEqualTo(new ReplicaAcknowledgement(2, Duration.ofMillis(250))));
	}

	@Test
	void failsAtStartupWhenReplicasAreToBeWaitedForWithoutLettuce() {
		this.contextRunner.withBean(StringRedisTemplate.class, () -> template(mock(RedisConnectionFactory.class)))
			.withPropertyValues("distlock.redis.replication.min-replicas=1")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("needs a LettuceConnectionFactory"));
	}

	@Test
	void failsAtStartupOnANegativeNumberOfReplicas() {
		this.contextRunner.withBean(StringRedisTemplate.class, () -> template(lettuceConnectionFactory()))
			.withPropertyValues("distlock.redis.replication.min-replicas=-1")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("distlock.redis.replication.min-replicas must not be negative"));
	}

	private static LettuceConnectionFactory lettuceConnectionFactory() {
		// A real factory always has a client configuration; the store reads its options
		LettuceConnectionFactory connectionFactory = mock(LettuceConnectionFactory.class);
		given(connectionFactory.getClientConfiguration()).willReturn(LettuceClientConfiguration.defaultConfiguration());
		return connectionFactory;
	}

	private static StringRedisTemplate template(RedisConnectionFactory connectionFactory) {
		StringRedisTemplate template = mock(StringRedisTemplate.class);
		given(template.getRequiredConnectionFactory()).willReturn(connectionFactory);
		return template;
	}

}
