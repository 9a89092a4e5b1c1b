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

package dev.distlock.sample.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * A burst of duplicate orders: a new voucher, then every user sends several orders at
 * once, spread over all instances, while the stock is watched. The orders of one user are
 * sent back to back, alternating between instances, so they race each other.
 *
 * @param clients one client per instance; the voucher is created through the first
 * @param users how many users order
 * @param requestsPerUser how many concurrent orders each user sends
 * @param stock the stock of the voucher
 * @param concurrency how many requests are in flight at most
 * @author distlock
 * @since 0.1.0
 */
public record Burst(List<VoucherApiClient> clients, int users, int requestsPerUser, int stock, int concurrency) {

	private static final long STOCK_POLL_MILLIS = 20;

	/**
	 * Create a burst.
	 * @param clients one client per instance
	 * @param users how many users order, at least 1
	 * @param requestsPerUser how many concurrent orders each user sends, at least 1
	 * @param stock the stock of the voucher, not negative
	 * @param concurrency how many requests are in flight at most, at least 1
	 */
	public Burst {
		Assert.notEmpty(clients, "'clients' must not be empty");
		Assert.isTrue(users > 0, () -> "'users' must be at least 1, but was " + users);
		Assert.isTrue(requestsPerUser > 0, () -> "'requestsPerUser' must be at least 1, but was " + requestsPerUser);
		Assert.isTrue(stock >= 0, () -> "'stock' must not be negative, but was " + stock);
		Assert.isTrue(concurrency > 0, () -> "'concurrency' must be at least 1, but was " + concurrency);
		clients = List.copyOf(clients);
	}

	/**
	 * Create a burst of {@code users} x {@code requestsPerUser} orders against the given
	 * instances, over one shared HTTP/1.1 client.
	 * @param baseUris the base URIs of the instances
	 * @param users how many users order
	 * @param requestsPerUser how many concurrent orders each user sends
	 * @param stock the stock of the voucher
	 * @param concurrency how many requests are in flight at most
	 * @return the burst
	 */
	public static Burst against(List<URI> baseUris, int users, int requestsPerUser, int stock, int concurrency) {
		HttpClient http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(5))
			.build();
		return new Burst(baseUris.stream().map((uri) -> new VoucherApiClient(http, uri)).toList(), users,
				requestsPerUser, stock, concurrency);
	}

	/**
	 * Fire the burst and collect the outcome.
	 * @return the result
	 * @throws InterruptedException if interrupted while firing
	 */
	public BurstResult fire() throws InterruptedException {
		VoucherApiClient first = this.clients.get(0);
		long voucherId = first.createVoucher("Flash sale " + Instant.now(), this.stock);
		AtomicInteger lowestStock = new AtomicInteger(this.stock);
		ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor();
		watch.scheduleWithFixedDelay(() -> lowestStock.accumulateAndGet(first.stock(voucherId), Math::min), 0,
				STOCK_POLL_MILLIS, TimeUnit.MILLISECONDS);
		Outcomes outcomes = new Outcomes(this.users * this.requestsPerUser);
		long start = System.nanoTime();
		try {
			send(voucherId, outcomes);
		}
		finally {
			watch.shutdownNow();
			watch.awaitTermination(5, TimeUnit.SECONDS);
		}
		Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
		List<Long> orderingUsers = first.orderingUsers(voucherId);
		int finalStock = this.clients.get(this.clients.size() - 1).stock(voucherId);
		lowestStock.accumulateAndGet(finalStock, Math::min);
		return new BurstResult(this.clients.stream().map(VoucherApiClient::baseUri).toList(), this.users,
				this.requestsPerUser, voucherId, this.stock, new TreeMap<>(outcomes.statuses),
				new TreeMap<>(outcomes.rejections), outcomes.failures.get(), orderingUsers.size(),
				orderingUsers.size() - new HashSet<>(orderingUsers).size(), finalStock, lowestStock.get(),
				outcomes.latencies(), elapsed);
	}

	private void send(long voucherId, Outcomes outcomes) throws InterruptedException {
		Semaphore inFlight = new Semaphore(this.concurrency);
		List<CompletableFuture<?>> pending = new ArrayList<>();
		int index = 0;
		for (long user = 1; user <= this.users; user++) {
			for (int copy = 0; copy < this.requestsPerUser; copy++) {
				VoucherApiClient client = this.clients.get(index % this.clients.size());
				int slot = index++;
				inFlight.acquire();
				long sent = System.nanoTime();
				pending.add(client.orderAsync(voucherId, user).whenComplete((response, failure) -> {
					outcomes.record(slot, System.nanoTime() - sent, response, failure, client);
					inFlight.release();
				}));
			}
		}
		CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).exceptionally((ex) -> null).join();
	}

	private static final class Outcomes {

		private final Map<Integer, Long> statuses = new ConcurrentHashMap<>();

		private final Map<String, Long> rejections = new ConcurrentHashMap<>();

		private final AtomicLong failures = new AtomicLong();

		private final long[] latencyNanos;

		Outcomes(int requests) {
			this.latencyNanos = new long[requests];
		}

		void record(int slot, long nanos, @Nullable HttpResponse<String> response, @Nullable Throwable failure,
				VoucherApiClient client) {
			synchronized (this.latencyNanos) {
				this.latencyNanos[slot] = nanos;
			}
			if (failure != null || response == null) {
				this.failures.incrementAndGet();
				return;
			}
			this.statuses.merge(response.statusCode(), 1L, Long::sum);
			if (response.statusCode() != 201) {
				String code = client.problemCode(response.body());
				this.rejections.merge(response.statusCode() + " " + (code.isEmpty() ? "(no code)" : code), 1L,
						Long::sum);
			}
		}

		long[] latencies() {
			synchronized (this.latencyNanos) {
				return Arrays.copyOf(this.latencyNanos, this.latencyNanos.length);
			}
		}

	}

}
