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

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;

import dev.distlock.sample.VoucherApplication;
import dev.distlock.test.RedisServerHandle;
import dev.distlock.test.TestRedis;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Without Redis the order fails closed: 503 {@code lock-unavailable}, nothing ordered,
 * and orders succeed again once Redis is back.
 *
 * @author distlock
 */
class RedisOutageTests {

	private final HttpClient http = HttpClient.newHttpClient();

	private final JsonMapper json = JsonMapper.builder().build();

	@Test
	void orderWhileRedisIsDownIsLockUnavailableAndOrdersNothing() {
		try (RedisServerHandle redis = TestRedis.startServer();
				ConfigurableApplicationContext context = new SpringApplicationBuilder(VoucherApplication.class).run(
						"--server.port=0", "--spring.main.banner-mode=off",
						"--spring.datasource.url=jdbc:h2:mem:redis-outage-tests;DB_CLOSE_DELAY=-1",
						"--spring.data.redis.host=" + redis.endpoint().host(),
						"--spring.data.redis.port=" + redis.endpoint().port(), "--spring.data.redis.timeout=1s",
						"--sample.embedded-redis.enabled=false")) {
			String base = "http://localhost:" + context.getEnvironment().getProperty("local.server.port");
			long voucher = this.json
				.readTree(send(HttpRequest.newBuilder(URI.create(base + "/api/vouchers"))
					.header("Content-Type", "application/json")
					.POST(BodyPublishers.ofString("{\"title\":\"Outage\",\"stock\":5}"))
					.build()).body())
				.get("id")
				.asLong();
			redis.stop();
			HttpResponse<String> down = order(base, voucher);
			assertThat(down.statusCode()).as(down.body()).isEqualTo(503);
			assertThat(this.json.readTree(down.body()).get("code").asString()).isEqualTo("lock-unavailable");
			assertThat(send(HttpRequest.newBuilder(URI.create(base + "/api/vouchers/" + voucher + "/orders")).build())
				.body()).isEqualTo("[]");
			redis.start();
			HttpResponse<String> back = order(base, voucher);
			assertThat(back.statusCode()).as(back.body()).isEqualTo(201);
		}
	}

	private HttpResponse<String> order(String base, long voucher) {
		return send(HttpRequest.newBuilder(URI.create(base + "/api/vouchers/" + voucher + "/orders"))
			.header("X-User-Id", "1")
			.POST(BodyPublishers.noBody())
			.build());
	}

	private HttpResponse<String> send(HttpRequest request) {
		try {
			return this.http.send(request, BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
