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
package dev.distlock.store;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

import dev.distlock.LockBackendException;
import dev.distlock.store.LockStore.Attempt;
import org.jspecify.annotations.Nullable;

/**
 * Several keys in one atomic step, all or nothing. Without this extension (or when it
 * answers {@code null}) the client takes the keys one by one, in their order, and gives
 * back those it took if a later one is refused.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface SeveralKeysExtension extends LockStoreExtension {

	/**
	 * Take every lock in {@code keys} in one atomic step, all or nothing, if this store
	 * can for these keys (a sharded backend may not, when they live on different shards).
	 * @param keys the lock keys, distinct, in the order the client locks them
	 * @param token the owner token to store under every key
	 * @param lease how long the locks live unless renewed or released
	 * @return one attempt per key, in order: all granted, or none (those held by someone
	 * else saying how long their holder's lease has left); or {@code null} if the store
	 * cannot take these keys in one step; failed with {@link LockBackendException} if the
	 * backend failed (the locks may or may not have been taken)
	 */
	CompletionStage<@Nullable List<Attempt>> tryAcquireAll(List<String> keys, String token, Duration lease);

}
