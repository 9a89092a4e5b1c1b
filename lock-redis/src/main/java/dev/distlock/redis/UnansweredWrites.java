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

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * The keys whose last granting request (an acquire, a hand-over) failed without an
 * answer: Redis may still run it later, on its own connection (a Jedis pool's other
 * connection, the replica-acknowledged acquire's connection, or after a stall), so the
 * release that gives its grant back could run first and find nothing. A release of such a
 * key that answers "not the owner" is sent once more after that answer, when the request
 * it compensates has run: Redis runs what reached it before it answered the first
 * release. A key is forgotten once a release of it was answered; at most
 * {@value #MAX_KEYS} keys are kept.
 *
 * @author distlock
 * @since 0.1.0
 */
final class UnansweredWrites {

	static final int MAX_KEYS = 10_000;

	private final Set<String> keys = ConcurrentHashMap.newKeySet();

	/**
	 * Record {@code key} if {@code request} fails.
	 * @param <T> the result type
	 * @param key the lock key
	 * @param request the granting request
	 * @return {@code request}
	 */
	<T extends @Nullable Object> CompletableFuture<T> watch(String key, CompletableFuture<T> request) {
		request.whenComplete((result, failure) -> {
			if (failure != null) {
				failed(key);
			}
		});
		return request;
	}

	/**
	 * Record that a granting request for {@code key} got no answer.
	 * @param key the lock key
	 */
	void failed(String key) {
		if (this.keys.size() < MAX_KEYS) {
			this.keys.add(key);
		}
	}

	/**
	 * Release {@code key}, once more after a "not the owner" answer if a granting request
	 * of that key got no answer.
	 * @param key the lock key
	 * @param release sends the release
	 * @return whether the lock was released
	 */
	CompletableFuture<Boolean> release(String key, Supplier<CompletableFuture<Boolean>> release) {
		if (this.keys.isEmpty() || !this.keys.contains(key)) {
			return release.get();
		}
		return release.get()
			.thenCompose((released) -> (this.keys.remove(key) && !released) ? release.get()
					: CompletableFuture.completedFuture(released));
	}

}
