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

package dev.distlock.memory;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.distlock.store.LockStore;
import org.jspecify.annotations.Nullable;

/**
 * The waiting clients registered with an {@link InMemoryLockStore} by a refused attempt
 * ({@link LockStore#tryAcquire(String, String, Duration, String, Duration)}), each with
 * the end of its time to live: the one registered first is the one woken when a lock with
 * no live fair waiter is released.
 * <p>
 * Not thread-safe: the store calls it under its monitor only.
 *
 * @author distlock
 * @since 0.1.0
 */
final class InMemoryRegisteredWaiters {

	private final Map<String, Map<String, Long>> waiters = new HashMap<>();

	/**
	 * Register {@code waiter} as waiting for {@code key} for {@code ttl} from now,
	 * renewing its registration if it has one.
	 */
	void register(String key, String waiter, Duration ttl) {
		this.waiters.computeIfAbsent(key, (name) -> new HashMap<>()).put(waiter, System.nanoTime() + ttl.toNanos());
	}

	/**
	 * Drop the registration of {@code waiter} for {@code key}.
	 */
	void forget(String key, String waiter) {
		Map<String, Long> registered = this.waiters.get(key);
		if (registered != null) {
			registered.remove(waiter);
		}
	}

	/**
	 * Return how many waiters are registered for {@code key} within their time to live.
	 */
	int count(String key) {
		long now = System.nanoTime();
		return (int) this.waiters.getOrDefault(key, Map.of()).values().stream().filter((at) -> at - now > 0).count();
	}

	/**
	 * Remove and return the live waiter of {@code key} whose registration is oldest,
	 * dropping the expired ones, or {@code null} if there is none.
	 */
	@Nullable String pollOldest(String key) {
		Map<String, Long> registered = this.waiters.getOrDefault(key, new HashMap<>());
		long now = System.nanoTime();
		registered.values().removeIf((at) -> at - now <= 0);
		String woken = registered.entrySet()
			.stream()
			.min(Map.Entry.comparingByValue())
			.map(Map.Entry::getKey)
			.orElse(null);
		if (woken != null) {
			registered.remove(woken);
		}
		return woken;
	}

}
