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

import dev.distlock.core.LockStore.Capability;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for the capabilities of {@link ReplicaAcknowledgingLockStore}, no Redis needed:
 * only plain write locks are acknowledged, so the client refuses the rest before any
 * request.
 *
 * @author distlock
 */
class ReplicaAcknowledgingLockStoreTests {

	private static final ReplicaAcknowledgement ONE_REPLICA = new ReplicaAcknowledgement(1, Duration.ofSeconds(1));

	@Test
	void declaresNoFairReadWakeOneOrHandOverCapability() {
		RedisLockStore plain = new RedisLockStore(template(new LettuceConnectionFactory()));
		try (ReplicaAcknowledgingLockStore store = new ReplicaAcknowledgingLockStore(plain, ONE_REPLICA)) {
			assertThat(plain.capabilities()).contains(Capability.FAIR_LOCKS, Capability.READ_LOCKS, Capability.WAKE_ONE,
					Capability.HAND_OVER);
			assertThat(store.capabilities())
				.doesNotContain(Capability.FAIR_LOCKS, Capability.READ_LOCKS, Capability.WAKE_ONE, Capability.HAND_OVER,
						Capability.ACQUIRE_ALL)
				.containsExactlyInAnyOrder(Capability.INSPECT, Capability.FORCE_RELEASE);
		}
	}

	@Test
	void refusesFairAndReadLocksNamingTheProperty() {
		RedisLockStore plain = new RedisLockStore(template(new LettuceConnectionFactory()));
		try (ReplicaAcknowledgingLockStore store = new ReplicaAcknowledgingLockStore(plain, ONE_REPLICA)) {
			assertThatExceptionOfType(UnsupportedOperationException.class)
				.isThrownBy(() -> store.tryAcquireRead("key", "token", Duration.ofSeconds(1)))
				.withMessageContaining("distlock.replication.min-replicas");
			assertThatExceptionOfType(UnsupportedOperationException.class)
				.isThrownBy(() -> store.tryAcquireFair("key", "token", Duration.ofSeconds(1), null))
				.withMessageContaining("distlock.replication.min-replicas");
		}
	}

	@Test
	void needsLettuce() {
		RedisLockStore plain = new RedisLockStore(
				template(new JedisConnectionFactory(new RedisStandaloneConfiguration())));
		assertThatIllegalStateException().isThrownBy(() -> new ReplicaAcknowledgingLockStore(plain, ONE_REPLICA))
			.withMessageContaining("LettuceConnectionFactory");
		plain.close();
	}

	private static StringRedisTemplate template(
			org.springframework.data.redis.connection.RedisConnectionFactory factory) {
		StringRedisTemplate template = new StringRedisTemplate(factory);
		template.afterPropertiesSet();
		return template;
	}

}
