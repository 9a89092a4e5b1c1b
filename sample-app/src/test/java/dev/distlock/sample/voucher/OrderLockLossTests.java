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
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.distlock.sample.SampleInstance;
import dev.distlock.sample.SharedDatabase;
import dev.distlock.sample.load.VoucherApiClient;
import dev.distlock.testing.redis.TestRedis;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The user's lock goes missing in Redis during an order, on a real database: lost after
 * the order committed, the order exists and is answered 201 with a {@code Lock-Warning};
 * lost before the commit, the order rolls back and is answered 503, nothing ordered. Runs
 * on MariaDB and PostgreSQL when they answer on 127.0.0.1 (skipped otherwise) and always
 * on an H2 TCP server.
 *
 * @author distlock
 */
class OrderLockLossTests {

	static Stream<Arguments> databases() {
		return Stream.of(Arguments.of("MariaDB", (Supplier<@Nullable SharedDatabase>) SharedDatabase::mariadb),
				Arguments.of("PostgreSQL", (Supplier<@Nullable SharedDatabase>) SharedDatabase::postgres),
				Arguments.of("H2 server", (Supplier<@Nullable SharedDatabase>) SharedDatabase::h2Server));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("databases")
	void lockLostAfterTheCommitAnswersTheOrderWhileALossBeforeTheCommitOrdersNothing(String name,
			Supplier<@Nullable SharedDatabase> databases) throws Exception {
		SharedDatabase database = databases.get();
		Assumptions.assumeTrue(database != null, () -> name + " does not answer on 127.0.0.1");
		String keyPrefix = "sample-loss-" + UUID.randomUUID() + ":";
		try (database; ConfigurableApplicationContext context = start(database, keyPrefix)) {
			VoucherApiClient api = new VoucherApiClient(HttpClient.newHttpClient(),
					URI.create("http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port")));
			OrderTransactionHooks hooks = context.getBean(OrderTransactionHooks.class);
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			long voucher = api.createVoucher("Loss", 5);

			hooks.afterCommit(1, () -> redis.delete(keyPrefix + "{order:1}"));
			HttpResponse<String> lostAfterCommit = api.orderAsync(voucher, 1).join();
			assertThat(lostAfterCommit.statusCode()).as(lostAfterCommit.body()).isEqualTo(201);
			assertThat(lostAfterCommit.headers().firstValue("Lock-Warning")).hasValue("lock-lost-after-commit");
			assertThat(lostAfterCommit.body()).contains("\"userId\":1");
			assertThat(api.orderingUsers(voucher)).containsExactly(1L);
			assertThat(api.stock(voucher)).isEqualTo(4);

			hooks.beforeCommit(2, () -> redis.delete(keyPrefix + "{order:2}"));
			HttpResponse<String> lostBeforeCommit = api.orderAsync(voucher, 2).join();
			assertThat(lostBeforeCommit.statusCode()).as(lostBeforeCommit.body()).isEqualTo(503);
			assertThat(api.problemCode(lostBeforeCommit.body())).isEqualTo("lock-unavailable");
			assertThat(api.orderingUsers(voucher)).containsExactly(1L);
			assertThat(api.stock(voucher)).isEqualTo(4);

			HttpResponse<String> plain = api.orderAsync(voucher, 3).join();
			assertThat(plain.statusCode()).as(plain.body()).isEqualTo(201);
			assertThat(plain.headers().firstValue("Lock-Warning")).isEmpty();
		}
	}

	private static ConfigurableApplicationContext start(SharedDatabase database, String keyPrefix) {
		return SampleInstance.on(database)
			.redis(TestRedis.endpoint(), keyPrefix)
			.source(OrderTransactionHooks.HooksConfiguration.class)
			.start();
	}

}
