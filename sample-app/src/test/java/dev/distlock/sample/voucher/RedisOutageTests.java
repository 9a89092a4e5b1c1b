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

import dev.distlock.sample.VoucherApplication;
import dev.distlock.sample.load.VoucherApiClient;
import dev.distlock.test.RedisServerHandle;
import dev.distlock.test.TestRedis;
import org.junit.jupiter.api.Test;

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

	@Test
	void orderWhileRedisIsDownIsLockUnavailableAndOrdersNothing() {
		try (RedisServerHandle redis = TestRedis.startServer();
				ConfigurableApplicationContext context = new SpringApplicationBuilder(VoucherApplication.class).run(
						"--server.port=0", "--spring.main.banner-mode=off",
						"--spring.datasource.url=jdbc:h2:mem:redis-outage-tests;DB_CLOSE_DELAY=-1",
						"--spring.data.redis.host=" + redis.endpoint().host(),
						"--spring.data.redis.port=" + redis.endpoint().port(), "--spring.data.redis.timeout=1s",
						"--sample.embedded-redis.enabled=false")) {
			VoucherApiClient api = new VoucherApiClient(HttpClient.newHttpClient(),
					URI.create("http://localhost:" + context.getEnvironment().getProperty("local.server.port")));
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

}
