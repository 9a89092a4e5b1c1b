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

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;

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
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A voucher whose stock is split into segments, over HTTP on H2 and the shared test
 * Redis: concurrent orders never oversell and are never refused while stock remains.
 *
 * @author distlock
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "spring.datasource.url=jdbc:h2:mem:segmented-voucher-tests;DB_CLOSE_DELAY=-1")
class SegmentedVoucherTests {

	@Autowired
	private Environment environment;

	private SampleHttp http;

	@BeforeEach
	void connect() {
		this.http = new SampleHttp(this.environment);
	}

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		SampleTestRedis.register(registry);
	}

	@Test
	void aVoucherCreatedWithSegmentsShowsItsTotalAndPerSegmentStock() {
		long voucher = createVoucher(150, 8);
		JsonNode shown = body(get("/api/vouchers/" + voucher));
		assertThat(shown.get("stock").asInt()).isEqualTo(150);
		assertThat(shown.get("segments").asInt()).isEqualTo(8);
		assertThat(segmentStock(shown)).containsExactly(19, 19, 19, 19, 19, 19, 18, 18);
		JsonNode plain = body(get("/api/vouchers/" + createVoucher(3, null)));
		assertThat(plain.get("segments").asInt()).isOne();
		assertThat(plain.get("segmentStock")).isEmpty();
	}

	@Test
	void twoHundredUsersOrderingAStockOf150Over8SegmentsGetExactly150OrdersAnd50SoldOuts() throws Exception {
		assertSellsExactlyItsStock(createVoucher(150, 8), 150, 200);
	}

	@Test
	void aVoucherOf1SegmentWithStockLocksKeepsItsStockInOneSegmentRowAndSellsExactlyIt() throws Exception {
		HttpResponse<String> created = post("/api/vouchers",
				Map.of("title", "Locked", "stock", 60, "segments", 1, "stockLocks", true), null);
		assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
		long voucher = body(created).get("id").asLong();
		JsonNode shown = body(get("/api/vouchers/" + voucher));
		assertThat(shown.get("segments").asInt()).isOne();
		assertThat(shown.get("stockLocks").asBoolean()).isTrue();
		assertThat(segmentStock(shown)).containsExactly(60);
		assertSellsExactlyItsStock(voucher, 60, 100);
	}

	@Test
	void stockLocksDefaultToTrueWithSegmentsAndFalseWith1Segment() {
		assertThat(body(get("/api/vouchers/" + createVoucher(10, 4))).get("stockLocks").asBoolean()).isTrue();
		JsonNode plain = body(get("/api/vouchers/" + createVoucher(10, null)));
		assertThat(plain.get("stockLocks").asBoolean()).isFalse();
		assertThat(plain.get("segmentStock")).isEmpty();
	}

	@Test
	void segmentsWithoutStockLocksAreRefusedNamingTheField() {
		HttpResponse<String> refused = post("/api/vouchers",
				Map.of("title", "Unlocked", "stock", 10, "segments", 4, "stockLocks", false), null);
		assertThat(refused.statusCode()).isEqualTo(400);
		assertThat(body(refused).get("code").asString()).isEqualTo("invalid-voucher");
		assertThat(body(refused).get("detail").asString()).contains("'stockLocks'");
	}

	private void assertSellsExactlyItsStock(long voucher, int stock, int userCount) throws Exception {
		ExecutorService users = Executors.newFixedThreadPool(50);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<HttpResponse<String>>> answers = new ArrayList<>();
		try {
			for (int user = 1; user <= userCount; user++) {
				String userId = String.valueOf(user);
				answers.add(users.submit(() -> {
					start.await();
					return post("/api/vouchers/" + voucher + "/orders", null, userId);
				}));
			}
			start.countDown();
			int created = 0;
			int soldOut = 0;
			List<String> others = new ArrayList<>();
			for (Future<HttpResponse<String>> answer : answers) {
				HttpResponse<String> response = answer.get(2, TimeUnit.MINUTES);
				if (response.statusCode() == 201) {
					created++;
				}
				else if (response.statusCode() == 409 && body(response).get("code").asString().equals("sold-out")) {
					soldOut++;
				}
				else {
					others.add(response.statusCode() + " " + response.body());
				}
			}
			assertThat(others).as("answers neither created nor sold out").isEmpty();
			assertThat(created).isEqualTo(stock);
			assertThat(soldOut).isEqualTo(userCount - stock);
		}
		finally {
			users.shutdownNow();
		}
		JsonNode shown = body(get("/api/vouchers/" + voucher));
		assertThat(shown.get("stock").asInt()).isZero();
		assertThat(segmentStock(shown)).containsOnly(0);
		assertThat(body(get("/api/vouchers/" + voucher + "/orders"))).hasSize(stock);
	}

	@Test
	void segmentsOutOfRangeAreRefused() {
		for (int segments : new int[] { 0, 65 }) {
			HttpResponse<String> refused = post("/api/vouchers",
					Map.of("title", "Too many", "stock", 10, "segments", segments), null);
			assertThat(refused.statusCode()).isEqualTo(400);
			assertThat(body(refused).get("code").asString()).isEqualTo("invalid-voucher");
			assertThat(body(refused).get("detail").asString()).contains("segments");
		}
	}

	private long createVoucher(int stock, @Nullable Integer segments) {
		Map<String, Object> request = (segments != null)
				? Map.of("title", "Flash sale", "stock", stock, "segments", segments)
				: Map.of("title", "Plain", "stock", stock);
		HttpResponse<String> response = post("/api/vouchers", request, null);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
		return body(response).get("id").asLong();
	}

	private static List<Integer> segmentStock(JsonNode voucher) {
		return StreamSupport.stream(voucher.get("segmentStock").spliterator(), false).map(JsonNode::asInt).toList();
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

}
