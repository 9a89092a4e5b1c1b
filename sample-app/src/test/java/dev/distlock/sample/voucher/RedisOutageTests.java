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

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;

import dev.distlock.sample.VoucherApplication;
import dev.distlock.sample.load.VoucherApiClient;
import dev.distlock.testing.redis.RedisServerHandle;
import dev.distlock.testing.redis.TestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis outages with the sample's own Redis timeouts ({@code application.properties}):
 * with Redis down or hanging an order fails closed (503 {@code lock-unavailable}, nothing
 * ordered; within the 2 s command timeout when it hangs) and succeeds again once Redis is
 * back; with Redis failing after the order committed, the order exists and is answered
 * 201 with a {@code Lock-Warning}.
 *
 * @author distlock
 */
class RedisOutageTests {

	@Test
	void orderWhileRedisIsDownIsLockUnavailableAndOrdersNothing() {
		try (RedisServerHandle redis = TestRedis.startServer();
				ConfigurableApplicationContext context = start(redis, "redis-outage-tests")) {
			VoucherApiClient api = api(context);
			long voucher = api.createVoucher("Outage", 5);
			redis.stop();
			HttpResponse<String> down = api.orderAsync(voucher, 1).join();
			assertThat(down.statusCode()).as(down.body()).isEqualTo(503);
			assertThat(api.problemCode(down.body())).isEqualTo("lock-unavailable");
			assertThat(api.orderingUsers(voucher)).isEmpty();
			redis.start();
			HttpResponse<String> back = api.orderAsync(voucher, 1).join();
			assertThat(back.statusCode()).as(back.body()).isEqualTo(201);
		}
	}

	@Test
	void orderWhileRedisHangsIsLockUnavailableWithinTheCommandTimeout() {
		try (RedisServerHandle redis = TestRedis.startServer();
				ConfigurableApplicationContext context = start(redis, "redis-hang-tests")) {
			VoucherApiClient api = api(context);
			long voucher = api.createVoucher("Hang", 5);
			redis.pause();
			HttpResponse<String> hung;
			Duration answeredAfter;
			try {
				long started = System.nanoTime();
				hung = api.orderAsync(voucher, 1).join();
				answeredAfter = Duration.ofNanos(System.nanoTime() - started);
			}
			finally {
				redis.resume();
			}
			assertThat(hung.statusCode()).as(hung.body()).isEqualTo(503);
			assertThat(api.problemCode(hung.body())).isEqualTo("lock-unavailable");
			// spring.data.redis.timeout=2s in application.properties; Lettuce's default
			// is 60 s
			assertThat(answeredAfter).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(10));
			assertThat(api.orderingUsers(voucher)).isEmpty();
			HttpResponse<String> back = api.orderAsync(voucher, 1).join();
			assertThat(back.statusCode()).as(back.body()).isEqualTo(201);
		}
	}

	@Test
	void orderWhoseLockCannotBeReleasedAfterTheCommitIsCreatedWithAWarning() {
		try (RedisServerHandle redis = TestRedis.startServer();
				ConfigurableApplicationContext context = start(redis, "redis-release-tests")) {
			VoucherApiClient api = api(context);
			long voucher = api.createVoucher("Release", 5);
			context.getBean(OrderTransactionHooks.class).afterCommit(1, redis::stop);
			HttpResponse<String> ordered = api.orderAsync(voucher, 1).join();
			assertThat(ordered.statusCode()).as(ordered.body()).isEqualTo(201);
			assertThat(ordered.headers().firstValue("Lock-Warning")).hasValue("lock-release-failed");
			assertThat(ordered.body()).contains("\"userId\":1");
			assertThat(api.orderingUsers(voucher)).containsExactly(1L);
			assertThat(api.stock(voucher)).isEqualTo(4);
		}
	}

	private static ConfigurableApplicationContext start(RedisServerHandle redis, String database) {
		return new SpringApplicationBuilder(VoucherApplication.class, OrderTransactionHooks.HooksConfiguration.class)
			.run("--server.port=0", "--spring.main.banner-mode=off",
					"--spring.datasource.url=jdbc:h2:mem:" + database + ";DB_CLOSE_DELAY=-1",
					"--spring.data.redis.host=" + redis.endpoint().host(),
					"--spring.data.redis.port=" + redis.endpoint().port(), "--sample.embedded-redis.enabled=false");
	}

	private static VoucherApiClient api(ConfigurableApplicationContext context) {
		return new VoucherApiClient(HttpClient.newHttpClient(),
				URI.create("http://localhost:" + context.getEnvironment().getProperty("local.server.port")));
	}

}
