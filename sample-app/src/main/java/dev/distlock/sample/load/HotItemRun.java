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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;

import dev.distlock.sample.load.HotItemResult.Answer;
import dev.distlock.sample.load.HotItemResult.Outcome;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * A hot-item run: for each configuration, a fresh voucher with a large stock, then one
 * order from each of many distinct users, sent concurrently and spread over all instances
 * in turn.
 *
 * @param clients one client per instance; vouchers are created through the first
 * @param stock the stock of each voucher
 * @param users how many distinct users order, one order each
 * @param concurrency how many orders are in flight at most
 * @param redis the counter of the Redis the instances use, or {@code null} to not count
 * store requests
 * @author distlock
 * @since 0.1.0
 */
public record HotItemRun(List<VoucherApiClient> clients, int stock, int users, int concurrency,
		@Nullable RedisCommandCounter redis) {

	/**
	 * Create a run.
	 * @param clients one client per instance
	 * @param stock the stock of each voucher, not negative
	 * @param users how many users order, at least 1
	 * @param concurrency how many orders are in flight at most, at least 1
	 * @param redis the counter of the instances' Redis, or {@code null}
	 */
	public HotItemRun {
		Assert.notEmpty(clients, "'clients' must not be empty");
		Assert.isTrue(stock >= 0, () -> "'stock' must not be negative, but was " + stock);
		Assert.isTrue(users > 0, () -> "'users' must be at least 1, but was " + users);
		Assert.isTrue(concurrency > 0, () -> "'concurrency' must be at least 1, but was " + concurrency);
		clients = List.copyOf(clients);
	}

	/**
	 * Create a run against the given instances, over one shared HTTP/1.1 client.
	 * @param baseUris the base URIs of the instances
	 * @param stock the stock of each voucher
	 * @param users how many users order
	 * @param concurrency how many orders are in flight at most
	 * @param redis the counter of the instances' Redis, or {@code null}
	 * @return the run
	 */
	public static HotItemRun against(List<URI> baseUris, int stock, int users, int concurrency,
			@Nullable RedisCommandCounter redis) {
		HttpClient http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(5))
			.build();
		return new HotItemRun(baseUris.stream().map((uri) -> new VoucherApiClient(http, uri)).toList(), stock, users,
				concurrency, redis);
	}

	/**
	 * Run every configuration, one after the other.
	 * @param configurations the configurations, in run order
	 * @return the table of the results
	 * @throws InterruptedException if interrupted
	 */
	public HotItemTable run(List<HotItemConfiguration> configurations) throws InterruptedException {
		List<HotItemResult> results = new ArrayList<>();
		for (HotItemConfiguration configuration : configurations) {
			results.add(run(configuration));
		}
		return new HotItemTable(results);
	}

	/**
	 * Run one configuration on a fresh voucher.
	 * @param configuration how the voucher's stock is taken
	 * @return the result
	 * @throws InterruptedException if interrupted
	 */
	public HotItemResult run(HotItemConfiguration configuration) throws InterruptedException {
		VoucherApiClient first = this.clients.get(0);
		long voucherId = first.createVoucher("Hot item " + configuration.name() + " " + Instant.now(), this.stock,
				configuration.segments(), configuration.stockLocks());
		Long commandsBefore = (this.redis != null) ? this.redis.commandsProcessed() : null;
		Answer[] answers = new Answer[this.users];
		long start = System.nanoTime();
		send(voucherId, answers);
		Duration elapsed = Duration
			.ofNanos(Arrays.stream(answers).mapToLong(Answer::answeredNanos).max().orElse(start) - start);
		int ordersCreated = first.orderingUsers(voucherId).size();
		int finalStock = this.clients.get(this.clients.size() - 1).stock(voucherId);
		// the INFO that read commandsBefore counted itself once it completed
		Long storeCommands = (this.redis != null && commandsBefore != null)
				? this.redis.commandsProcessed() - commandsBefore - 1 : null;
		List<Answer> all = List.of(answers);
		long[] orderLatencies = all.stream()
			.filter((answer) -> answer.outcome() == Outcome.CREATED)
			.mapToLong((answer) -> answer.answeredNanos() - answer.sentNanos())
			.toArray();
		return new HotItemResult(configuration, this.stock, this.users, ordersCreated, count(all, Outcome.SOLD_OUT),
				HotItemResult.falseSoldOuts(all, finalStock), finalStock, count(all, Outcome.OTHER), orderLatencies,
				elapsed, storeCommands);
	}

	private static int count(List<Answer> answers, Outcome outcome) {
		return (int) answers.stream().filter((answer) -> answer.outcome() == outcome).count();
	}

	private void send(long voucherId, Answer[] answers) throws InterruptedException {
		Semaphore inFlight = new Semaphore(this.concurrency);
		List<CompletableFuture<?>> pending = new ArrayList<>();
		for (int slot = 0; slot < this.users; slot++) {
			VoucherApiClient client = this.clients.get(slot % this.clients.size());
			int index = slot;
			long user = slot + 1;
			inFlight.acquire();
			long sent = System.nanoTime();
			pending.add(client.orderAsync(voucherId, user).whenComplete((response, failure) -> {
				answers[index] = new Answer(sent, System.nanoTime(), outcome(client, response, failure));
				inFlight.release();
			}));
		}
		CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).exceptionally((ex) -> null).join();
	}

	private static Outcome outcome(VoucherApiClient client, @Nullable HttpResponse<String> response,
			@Nullable Throwable failure) {
		if (failure != null || response == null) {
			return Outcome.OTHER;
		}
		if (response.statusCode() == 201) {
			return Outcome.CREATED;
		}
		if (response.statusCode() == 409 && client.problemCode(response.body()).equals("sold-out")) {
			return Outcome.SOLD_OUT;
		}
		return Outcome.OTHER;
	}

}
