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

package dev.distlock.store.support;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.store.LockStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.clearInvocations;
import static org.mockito.Mockito.mock;

/**
 * Tests for {@link LockKeyRules}, through every kind of {@link LockClient} call: a
 * refused key never reaches the {@link LockStore}.
 *
 * @author distlock
 */
class LockKeyRulesTests {

	private static final String TOO_LONG = "k".repeat(LockKeyRules.DEFAULT_MAX_KEY_LENGTH + 1);

	private final LockStore store = mock(LockStore.class);

	private DefaultLockClient client;

	@BeforeEach
	void createClient() {
		this.client = new DefaultLockClient(this.store, LockClientSettings.defaults());
		clearInvocations(this.store);
	}

	@AfterEach
	void closeClient() {
		this.client.close();
	}

	@Test
	void refusesAKeyLongerThanTheMaximumBeforeAnyStoreCall() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.client.acquire(TOO_LONG, Duration.ZERO, null))
			.withMessageContaining("513 bytes of UTF-8")
			.withMessageContaining("distlock.max-key-length");
		then(this.store).shouldHaveNoInteractions();
	}

	@Test
	void countsTheMaximumKeyLengthInBytesOfUtf8() {
		String euros = "\u20ac".repeat(171);
		assertThat(euros).hasSize(171);
		assertThat(LockKeyRules.keyProblem(euros, 512)).contains("513 bytes");
		assertThat(LockKeyRules.keyProblem("k".repeat(512), 512)).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "order:\uD83D", "order:\uDE00", "\uDE00\uD83D", "a\uD83Db" })
	void refusesMalformedUtf16BeforeAnyStoreCall(String key) {
		assertThatIllegalArgumentException().isThrownBy(() -> this.client.acquire(key, Duration.ZERO, null))
			.withMessageContaining("lone surrogate");
		assertThatIllegalArgumentException().isThrownBy(() -> this.client.obtain(key))
			.withMessageContaining("lone surrogate");
		then(this.store).shouldHaveNoInteractions();
	}

	@Test
	void acceptsSurrogatePairs() {
		assertThat(LockKeyRules.keyProblem("order:\uD83D\uDE00", 512)).isNull();
	}

	@Test
	void refusesMoreKeysThanTheMaximumInOneCallBeforeAnyStoreCall() {
		List<String> keys = IntStream.rangeClosed(1, LockKeyRules.DEFAULT_MAX_KEYS + 1)
			.mapToObj((i) -> "k" + i)
			.toList();
		assertThatIllegalArgumentException().isThrownBy(() -> this.client.acquireAll(keys, Duration.ZERO, null))
			.withMessageContaining("65 keys")
			.withMessageContaining("distlock.max-keys");
		assertThatIllegalArgumentException().isThrownBy(() -> this.client.acquireAllAsync(keys, Duration.ZERO, null))
			.withMessageContaining("65 keys");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.client.readLocks().acquireAll(keys, Duration.ZERO, null))
			.withMessageContaining("65 keys");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.client.readLocks().acquireAllAsync(keys, Duration.ZERO, null))
			.withMessageContaining("65 keys");
		then(this.store).shouldHaveNoInteractions();
	}

	@Test
	void countsDuplicateKeysOnce() {
		List<String> keys = IntStream.rangeClosed(1, LockKeyRules.DEFAULT_MAX_KEYS * 2)
			.mapToObj((i) -> "k" + (i % LockKeyRules.DEFAULT_MAX_KEYS))
			.toList();
		assertThat(LockKeyRules.requireKeys(keys, LockClientSettings.defaults().maxKeyLength(),
				LockClientSettings.defaults().maxKeys()))
			.hasSize(64);
	}

	@Test
	@SuppressWarnings("NullAway")
	void refusesNullAndBlankKeysAndNullElementsBeforeAnyStoreCall() {
		String none = null;
		assertThatIllegalArgumentException().isThrownBy(() -> this.client.acquire(none, Duration.ZERO, null))
			.withMessageContaining("is null");
		assertThatIllegalArgumentException().isThrownBy(() -> this.client.acquireAsync(none, Duration.ZERO, null))
			.withMessageContaining("is null");
		assertThatIllegalArgumentException().isThrownBy(() -> this.client.acquire(" ", Duration.ZERO, null))
			.withMessageContaining("is blank");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.client.acquireAll(Arrays.asList("ok", none), Duration.ZERO, null))
			.withMessageContaining("is null");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.client.readLocks().acquire(none, Duration.ZERO, null))
			.withMessageContaining("is null");
		then(this.store).shouldHaveNoInteractions();
	}

	@Test
	void refusesBadKeysOfEveryKindOfCall() {
		LockClient reads = this.client.readLocks();
		LockClient fair = this.client.fair();
		assertThatIllegalArgumentException().isThrownBy(() -> this.client.acquireAsync(TOO_LONG, Duration.ZERO, null));
		assertThatIllegalArgumentException().isThrownBy(() -> this.client.obtain("orders", TOO_LONG));
		assertThatIllegalArgumentException().isThrownBy(() -> reads.acquire(TOO_LONG, Duration.ZERO, null));
		assertThatIllegalArgumentException().isThrownBy(() -> reads.obtain(TOO_LONG));
		assertThatIllegalArgumentException().isThrownBy(() -> fair.acquire(TOO_LONG, Duration.ZERO, null));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.client.acquireAll(List.of("ok", TOO_LONG), Duration.ZERO, null));
		then(this.store).shouldHaveNoInteractions();
	}

	@Test
	void appliesTheLimitsOfTheSettings() {
		try (DefaultLockClient strict = new DefaultLockClient(this.store,
				LockClientSettings.defaults().withMaxKeyLength(4).withMaxKeys(2))) {
			clearInvocations(this.store);
			assertThatIllegalArgumentException().isThrownBy(() -> strict.acquire("12345", Duration.ZERO, null))
				.withMessageContaining("maximum of 4");
			assertThatIllegalArgumentException()
				.isThrownBy(() -> strict.acquireAll(List.of("a", "b", "c"), Duration.ZERO, null))
				.withMessageContaining("maximum of 2");
			then(this.store).shouldHaveNoInteractions();
		}
	}

}
