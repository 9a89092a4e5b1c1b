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

package dev.distlock.sample.voucher;

import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;

import dev.distlock.core.LockClient;
import dev.distlock.core.LockHandle;
import dev.distlock.sample.SampleHttp;
import dev.distlock.sample.SampleTestRedis;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The JSON API over HTTP on H2 and the shared test Redis: created resources and every
 * rejection as problem+json with its stable code.
 *
 * @author distlock
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "spring.datasource.url=jdbc:h2:mem:voucher-api-tests;DB_CLOSE_DELAY=-1")
class VoucherApiTests {

	private static final String PROBLEM_JSON = "application/problem+json";

	@Autowired
	private Environment environment;

	private SampleHttp http;

	@BeforeEach
	void connect() {
		this.http = new SampleHttp(this.environment);
	}

	@Autowired
	private LockClient lockClient;

	@Autowired
	private VoucherOrderRepository orders;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		SampleTestRedis.register(registry);
	}

	@Test
	void createsVoucherWithLocationAndReadsItBack() {
		HttpResponse<String> created = post("/api/vouchers", Map.of("title", "Half price coffee", "stock", 3,
				"beginTime", "2026-01-01T00:00:00Z", "endTime", "2099-01-01T00:00:00Z"), null);
		assertThat(created.statusCode()).isEqualTo(201);
		long id = body(created).get("id").asLong();
		assertThat(created.headers().firstValue("Location")).hasValue("/api/vouchers/" + id);
		JsonNode voucher = body(get("/api/vouchers/" + id));
		assertThat(voucher.get("title").asString()).isEqualTo("Half price coffee");
		assertThat(voucher.get("stock").asInt()).isEqualTo(3);
		assertThat(voucher.get("beginTime").asString()).isEqualTo("2026-01-01T00:00:00Z");
		assertThat(voucher.get("endTime").asString()).isEqualTo("2099-01-01T00:00:00Z");
	}

	@Test
	void ordersVoucherWithFencingTokenAndListsTheOrder() {
		long voucher = createVoucher(5, null);
		HttpResponse<String> first = order(voucher, "7");
		HttpResponse<String> second = order(voucher, "8");
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(second.statusCode()).isEqualTo(201);
		JsonNode order = body(first);
		assertThat(order.get("userId").asLong()).isEqualTo(7);
		assertThat(order.get("voucherId").asLong()).isEqualTo(voucher);
		assertThat(order.get("fencingToken").asLong()).isPositive();
		assertThat(first.headers().firstValue("Location"))
			.hasValue("/api/vouchers/" + voucher + "/orders/" + order.get("id").asLong());
		assertThat(body(get("/api/vouchers/" + voucher)).get("stock").asInt()).isEqualTo(3);
		JsonNode listed = body(get("/api/vouchers/" + voucher + "/orders"));
		assertThat(listed).hasSize(2);
		assertThat(listed.get(0).get("userId").asLong()).isEqualTo(7);
		assertThat(listed.get(1).get("userId").asLong()).isEqualTo(8);
	}

	@Test
	void locationOfACreatedOrderAnswersTheOrder() {
		long voucher = createVoucher(2, null);
		HttpResponse<String> created = order(voucher, "31");
		assertThat(created.statusCode()).isEqualTo(201);
		JsonNode order = body(created);
		String location = created.headers().firstValue("Location").orElseThrow();
		HttpResponse<String> read = get(location);
		assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
		assertThat(body(read)).isEqualTo(order);
	}

	@Test
	void unknownOrderIsNotFound() {
		long voucher = createVoucher(2, null);
		long otherVoucher = createVoucher(2, null);
		long orderOfOtherVoucher = body(order(otherVoucher, "32")).get("id").asLong();
		assertProblem(get("/api/vouchers/" + voucher + "/orders/987654"), 404, "unknown-order");
		assertProblem(get("/api/vouchers/" + voucher + "/orders/" + orderOfOtherVoucher), 404, "unknown-order");
		assertProblem(get("/api/vouchers/987654/orders/" + orderOfOtherVoucher), 404, "unknown-voucher");
	}

	@Test
	void fencingTokensOfOneUserIncrease() {
		long firstVoucher = createVoucher(1, null);
		long secondVoucher = createVoucher(1, null);
		long first = body(order(firstVoucher, "9")).get("fencingToken").asLong();
		long second = body(order(secondVoucher, "9")).get("fencingToken").asLong();
		assertThat(second).isGreaterThan(first);
	}

	@Test
	void secondOrderOfSameUserIsAlreadyOrdered() {
		long voucher = createVoucher(5, null);
		order(voucher, "11");
		assertProblem(order(voucher, "11"), 409, "already-ordered");
		assertThat(body(get("/api/vouchers/" + voucher)).get("stock").asInt()).isEqualTo(4);
	}

	@Test
	void orderAfterStockRunsOutIsSoldOut() {
		long voucher = createVoucher(1, null);
		assertThat(order(voucher, "21").statusCode()).isEqualTo(201);
		assertProblem(order(voucher, "22"), 409, "sold-out");
		assertThat(body(get("/api/vouchers/" + voucher)).get("stock").asInt()).isZero();
	}

	@Test
	void orderBeforeSaleBeginsIsNotStarted() {
		Instant begin = Instant.now().plus(1, ChronoUnit.DAYS);
		long voucher = createVoucher(1, begin);
		assertProblem(order(voucher, "31"), 409, "not-started");
	}

	@Test
	void orderAfterSaleEndsIsEnded() {
		HttpResponse<String> created = post("/api/vouchers", Map.of("title", "Yesterday", "stock", 1, "beginTime",
				"2020-01-01T00:00:00Z", "endTime", "2020-01-02T00:00:00Z"), null);
		assertProblem(order(body(created).get("id").asLong(), "32"), 409, "ended");
	}

	@Test
	void orderWhileSameUserHoldsTheLockIsBusyWithRetryAfterWithinTheHoldersLease() throws Exception {
		long voucher = createVoucher(1, null);
		LockHandle lock = this.lockClient.obtain("order:41");
		assertThat(lock.tryLock(Duration.ZERO, Duration.ofSeconds(5))).isTrue();
		HttpResponse<String> busy;
		try {
			busy = order(voucher, "41");
		}
		finally {
			lock.unlock();
		}
		assertProblem(busy, 429, "busy");
		// the holder's remaining lease, rounded up, or 1 s where the lock store does not
		// report it
		assertThat(busy.headers().firstValue("Retry-After"))
			.hasValueSatisfying((retryAfter) -> assertThat(Integer.parseInt(retryAfter)).isBetween(1, 5));
		assertThat(body(get("/api/vouchers/" + voucher)).get("stock").asInt()).isEqualTo(1);
		assertThat(order(voucher, "41").statusCode()).isEqualTo(201);
	}

	@Test
	void missingUserHeaderIsInvalidUser() {
		long voucher = createVoucher(1, null);
		assertProblem(this.http.send(HttpRequest.newBuilder(this.http.uri("/api/vouchers/" + voucher + "/orders"))
			.POST(BodyPublishers.noBody())
			.build()), 400, "invalid-user");
	}

	@Test
	void nonNumericNegativeOrZeroUserHeaderIsInvalidUser() {
		long voucher = createVoucher(1, null);
		for (String userId : new String[] { "abc", "-5", "0", " ", "12345678901234567890" }) {
			assertProblem(order(voucher, userId), 400, "invalid-user");
		}
		assertThat(body(get("/api/vouchers/" + voucher)).get("stock").asInt()).isEqualTo(1);
	}

	@Test
	void unknownVoucherIsNotFound() {
		assertProblem(get("/api/vouchers/987654"), 404, "unknown-voucher");
		assertProblem(get("/api/vouchers/987654/orders"), 404, "unknown-voucher");
		assertProblem(order(987654, "1"), 404, "unknown-voucher");
		assertProblem(order("not-a-number", "1"), 404, "unknown-voucher");
	}

	@Test
	void invalidVoucherIsBadRequest() {
		assertProblem(post("/api/vouchers", Map.of("stock", 1), null), 400, "invalid-voucher");
		assertProblem(post("/api/vouchers", Map.of("title", "Negative", "stock", -1), null), 400, "invalid-voucher");
		assertProblem(post("/api/vouchers", Map.of("title", "Backwards", "stock", 1, "beginTime",
				"2030-01-02T00:00:00Z", "endTime", "2030-01-01T00:00:00Z"), null), 400, "invalid-voucher");
		assertProblem(this.http.send(HttpRequest.newBuilder(this.http.uri("/api/vouchers"))
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString("{\"title\":"))
			.build()), 400, "invalid-voucher");
	}

	@Test
	void uniqueConstraintRejectsSecondOrderOfSameUserWrittenPastTheLock() {
		long voucher = createVoucher(5, null);
		this.orders.insert(voucher, 51, Instant.now(), 1);
		assertThatExceptionOfType(DuplicateKeyException.class)
			.isThrownBy(() -> this.orders.insert(voucher, 51, Instant.now(), 2));
	}

	private long createVoucher(int stock, @Nullable Instant begin) {
		Map<String, Object> request = (begin != null) ? Map.of("title", "Voucher", "stock", stock, "beginTime", begin)
				: Map.of("title", "Voucher", "stock", stock);
		HttpResponse<String> response = post("/api/vouchers", request, null);
		assertThat(response.statusCode()).isEqualTo(201);
		return body(response).get("id").asLong();
	}

	private HttpResponse<String> order(Object voucherId, String userId) {
		return post("/api/vouchers/" + voucherId + "/orders", null, userId);
	}

	private HttpResponse<String> post(String path, @Nullable Map<String, ?> body, @Nullable String userId) {
		return this.http.post(path, body, userId);
	}

	private HttpResponse<String> get(String path) {
		return this.http.get(path);
	}

	private JsonNode body(HttpResponse<String> response) {
		return this.http.body(response);
	}

	private void assertProblem(HttpResponse<String> response, int status, String code) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((contentType) -> assertThat(contentType).startsWith(PROBLEM_JSON));
		JsonNode problem = body(response);
		assertThat(problem.get("code").asString()).isEqualTo(code);
		assertThat(problem.get("status").asInt()).isEqualTo(status);
		assertThat(problem.get("detail").asString()).isNotBlank();
		assertThat(problem.get("type").asString()).isEqualTo("urn:distlock:sample:problem:" + code);
	}

}
