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

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;

import dev.distlock.LockBackendException;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Makes concurrent first requests share one connection attempt. Spring Data Redis opens
 * its shared connection under a lock, one caller after another, so against a Redis that
 * accepts connections but does not answer, N concurrent first requests would fail after N
 * timeouts. Here one background attempt runs at a time and every caller waits for that
 * one: they all fail together, within one connect and command timeout.
 *
 * @author distlock
 * @since 0.2.0
 */
final class FirstConnection {

	private final StringRedisTemplate redis;

	private final AtomicReference<@Nullable CompletableFuture<Void>> attempt = new AtomicReference<>();

	private volatile boolean established;

	FirstConnection(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * Return once Redis has answered once, or fail with the outcome of the connection
	 * attempt under way.
	 * @param key the lock key, for the error
	 * @param operation the operation, for the error
	 * @throws LockBackendException if the attempt failed or the caller was interrupted
	 * (with its interrupt flag set)
	 */
	void await(String key, String operation) {
		if (this.established) {
			return;
		}
		try {
			currentAttempt().get();
			this.established = true;
		}
		catch (ExecutionException ex) {
			throw new LockBackendException(key, operation, (ex.getCause() != null) ? ex.getCause() : ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockBackendException(key, operation, ex);
		}
	}

	private CompletableFuture<Void> currentAttempt() {
		while (true) {
			CompletableFuture<Void> current = this.attempt.get();
			if (current != null && !current.isCompletedExceptionally()) {
				return current;
			}
			CompletableFuture<Void> next = new CompletableFuture<>();
			if (this.attempt.compareAndSet(current, next)) {
				Thread connector = new Thread(() -> connect(next), "distlock-connect");
				connector.setDaemon(true);
				connector.start();
				return next;
			}
		}
	}

	private void connect(CompletableFuture<Void> outcome) {
		try {
			this.redis.execute((RedisCallback<String>) RedisConnection::ping);
			outcome.complete(null);
		}
		catch (RuntimeException ex) {
			outcome.completeExceptionally(ex);
		}
	}

}
