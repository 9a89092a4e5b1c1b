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
import java.util.List;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.store.FairQueueExtension;
import dev.distlock.store.HandOverExtension;
import dev.distlock.store.InspectionExtension;
import dev.distlock.store.LockStoreExtension;
import dev.distlock.store.ReadLockExtension;
import dev.distlock.store.SeveralKeysExtension;
import dev.distlock.store.WakeOneExtension;
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
	void offersInspectionAloneOfTheWrappedStoresExtensions() {
		RedisLockStore plain = new RedisLockStore(template(new LettuceConnectionFactory()));
		try (ReplicaAcknowledgingLockStore store = new ReplicaAcknowledgingLockStore(plain, ONE_REPLICA)) {
			List<Class<? extends LockStoreExtension>> notAcknowledged = List.of(FairQueueExtension.class,
					ReadLockExtension.class, WakeOneExtension.class, HandOverExtension.class,
					SeveralKeysExtension.class);
			assertThat(notAcknowledged).allSatisfy((type) -> assertThat(plain.extension(type)).isNotNull());
			assertThat(notAcknowledged).allSatisfy((type) -> assertThat(store.extension(type)).isNull());
			assertThat(store.extension(InspectionExtension.class)).isSameAs(store);
		}
	}

	@Test
	void aClientOnItRefusesFairAndReadLocksNamingTheMissingExtension() {
		RedisLockStore plain = new RedisLockStore(template(new LettuceConnectionFactory()));
		try (DefaultLockClient client = new DefaultLockClient(new ReplicaAcknowledgingLockStore(plain, ONE_REPLICA))) {
			assertThatExceptionOfType(UnsupportedOperationException.class)
				.isThrownBy(() -> client.readLocks().acquire("key", Duration.ZERO, null))
				.withMessageContaining(ReadLockExtension.class.getName());
			assertThatExceptionOfType(UnsupportedOperationException.class)
				.isThrownBy(() -> client.fair().acquire("key", Duration.ZERO, null))
				.withMessageContaining(FairQueueExtension.class.getName());
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
