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

package dev.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default methods of {@link LockClient} keep the lock's name: an implementation
 * writes the named methods, and the unnamed ones reach them with
 * {@link LockClient#UNNAMED}.
 *
 * @author distlock
 */
class LockClientDefaultsTests {

	private final NameRecordingClient client = new NameRecordingClient();

	@Test
	void theUnnamedMethodsReachTheNamedOnesAsUnnamed() throws Exception {
		this.client.obtain("k");
		this.client.acquire("k", Duration.ZERO, null);
		this.client.acquireAsync("k", Duration.ZERO, null);
		this.client.acquireAll(List.of("k"), Duration.ZERO, null);
		this.client.acquireAllAsync(List.of("k"), Duration.ZERO, null);
		assertThat(this.client.names).containsExactly("obtain unnamed", "acquire unnamed", "acquireAsync unnamed",
				"acquireAll unnamed", "acquireAllAsync unnamed");
	}

	@Test
	void theNamedMethodsKeepTheName() throws Exception {
		this.client.obtain("orders", "k");
		this.client.acquire("orders", "k", Duration.ZERO, null);
		this.client.acquireAsync("orders", "k", Duration.ZERO, null);
		this.client.acquireAll("orders", List.of("k"), Duration.ZERO, null);
		this.client.acquireAllAsync("orders", List.of("k"), Duration.ZERO, null);
		assertThat(this.client.names).containsExactly("obtain orders", "acquire orders", "acquireAsync orders",
				"acquireAll orders", "acquireAllAsync orders");
	}

	/**
	 * A client that records the name each call reaches it with, and holds nothing.
	 */
	static final class NameRecordingClient implements LockClient {

		final List<String> names = new ArrayList<>();

		@Override
		public @Nullable LockHandle obtain(String name, String key) {
			this.names.add("obtain " + name);
			return null;
		}

		@Override
		public @Nullable LockHold acquire(String name, String key, Duration waitTime, @Nullable Duration leaseTime) {
			this.names.add("acquire " + name);
			return null;
		}

		@Override
		public CompletionStage<LockHold> acquireAsync(String name, String key, Duration waitTime,
				@Nullable Duration leaseTime) {
			this.names.add("acquireAsync " + name);
			return new CompletableFuture<>();
		}

		@Override
		public List<LockHold> acquireAll(String name, Collection<String> keys, Duration waitTime,
				@Nullable Duration leaseTime) {
			this.names.add("acquireAll " + name);
			return List.of();
		}

		@Override
		public CompletionStage<List<LockHold>> acquireAllAsync(String name, Collection<String> keys, Duration waitTime,
				@Nullable Duration leaseTime) {
			this.names.add("acquireAllAsync " + name);
			return new CompletableFuture<>();
		}

		@Override
		public void close() {
		}

	}

}
