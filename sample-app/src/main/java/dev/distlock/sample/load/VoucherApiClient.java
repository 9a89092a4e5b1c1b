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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Minimal HTTP client of the voucher API of one instance.
 *
 * @author distlock
 * @since 0.1.0
 */
public class VoucherApiClient {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final HttpClient http;

	private final URI baseUri;

	private final JsonMapper json = JsonMapper.builder().build();

	/**
	 * Create a client of one instance.
	 * @param http the HTTP client to use
	 * @param baseUri the base URI of the instance, for example
	 * {@code http://localhost:8080}
	 */
	public VoucherApiClient(HttpClient http, URI baseUri) {
		this.http = http;
		this.baseUri = URI.create(baseUri.toString().replaceAll("/+$", "") + "/");
	}

	/**
	 * Return the base URI of the instance.
	 * @return the base URI
	 */
	public URI baseUri() {
		return this.baseUri;
	}

	/**
	 * Create a voucher on sale from now for one day.
	 * @param title the title
	 * @param stock the stock
	 * @return the id of the new voucher
	 */
	public long createVoucher(String title, int stock) {
		return createVoucher(Map.of("title", title, "stock", stock));
	}

	/**
	 * Create a voucher on sale from now for one day, in segments.
	 * @param title the title
	 * @param stock the stock
	 * @param segments the number of segments
	 * @param stockLocks whether its stock is taken under segment locks
	 * @return the id of the new voucher
	 */
	public long createVoucher(String title, int stock, int segments, boolean stockLocks) {
		return createVoucher(Map.of("title", title, "stock", stock, "segments", segments, "stockLocks", stockLocks));
	}

	private long createVoucher(Map<String, Object> voucher) {
		String body = this.json.writeValueAsString(voucher);
		HttpRequest request = request("api/vouchers").header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
		return expect(send(request), 201).get("id").asLong();
	}

	/**
	 * Return the current stock of a voucher.
	 * @param voucherId the voucher id
	 * @return the stock
	 */
	public int stock(long voucherId) {
		return expect(send(request("api/vouchers/" + voucherId).GET().build()), 200).get("stock").asInt();
	}

	/**
	 * Return the user ids of the orders of a voucher, one entry per order.
	 * @param voucherId the voucher id
	 * @return the user ids
	 */
	public List<Long> orderingUsers(long voucherId) {
		JsonNode orders = expect(send(request("api/vouchers/" + voucherId + "/orders").GET().build()), 200);
		List<Long> users = new ArrayList<>();
		for (JsonNode order : orders) {
			users.add(order.get("userId").asLong());
		}
		return users;
	}

	/**
	 * Send an order without waiting for the answer.
	 * @param voucherId the voucher id
	 * @param userId the user id
	 * @return the answer
	 */
	public CompletableFuture<HttpResponse<String>> orderAsync(long voucherId, long userId) {
		HttpRequest request = request("api/vouchers/" + voucherId + "/orders")
			.header("X-User-Id", Long.toString(userId))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build();
		return this.http.sendAsync(request, BodyHandlers.ofString());
	}

	/**
	 * Return the {@code code} of a problem+json body.
	 * @param body the response body
	 * @return the code, or an empty string if the body carries none
	 */
	public String problemCode(String body) {
		try {
			return this.json.readTree(body).path("code").asString("");
		}
		catch (RuntimeException ex) {
			return "";
		}
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(this.baseUri.resolve(path)).timeout(TIMEOUT).header("Accept", "application/json");
	}

	private HttpResponse<String> send(HttpRequest request) {
		try {
			return this.http.send(request, BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted during " + request.method() + " " + request.uri(), ex);
		}
	}

	private JsonNode expect(HttpResponse<String> response, int status) {
		if (response.statusCode() != status) {
			throw new IllegalStateException(response.request().method() + " " + response.request().uri() + " answered "
					+ response.statusCode() + " instead of " + status + ": " + response.body());
		}
		return this.json.readTree(response.body());
	}

}
