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
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.distlock.sample.SampleInstance;
import dev.distlock.sample.SharedDatabase;
import dev.distlock.testing.redis.TestRedis;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances of the sample (two application contexts on random ports) share one Redis
 * and one database; 300 users send 10 concurrent duplicate orders each, spread over both
 * instances, for a voucher with stock 200. Runs on MariaDB and PostgreSQL when they
 * answer on 127.0.0.1 (skipped otherwise) and always on an H2 TCP server.
 *
 * @author distlock
 */
class TwoInstancesTests {

	private static final int USERS = 300;

	private static final int DUPLICATES = 10;

	private static final int STOCK = 200;

	static Stream<Arguments> databases() {
		return Stream.of(Arguments.of("MariaDB", (Supplier<@Nullable SharedDatabase>) SharedDatabase::mariadb),
				Arguments.of("PostgreSQL", (Supplier<@Nullable SharedDatabase>) SharedDatabase::postgres),
				Arguments.of("H2 server", (Supplier<@Nullable SharedDatabase>) SharedDatabase::h2Server));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("databases")
	void burstOfDuplicateOrdersOverTwoInstancesSellsStockExactlyOncePerUser(String name,
			Supplier<@Nullable SharedDatabase> databases) throws Exception {
		SharedDatabase database = databases.get();
		Assumptions.assumeTrue(database != null, () -> name + " does not answer on 127.0.0.1");
		String keyPrefix = "sample-it-" + UUID.randomUUID() + ":";
		List<ConfigurableApplicationContext> instances = new ArrayList<>();
		try (database) {
			instances.add(start("instance-a", database, keyPrefix));
			instances.add(start("instance-b", database, keyPrefix));
			List<URI> uris = instances.stream()
				.map((instance) -> URI
					.create("http://127.0.0.1:" + instance.getEnvironment().getProperty("local.server.port")))
				.toList();
			BurstResult result = Burst.against(uris, USERS, DUPLICATES, STOCK, 100).fire();
			System.out.println(database + System.lineSeparator() + result.table());
			assertThat(result.serverErrors()).as("5xx responses and requests without response").isZero();
			assertThat(result.count(201)).isEqualTo(STOCK);
			assertThat(result.count(201) + result.count(409) + result.count(429)).isEqualTo(USERS * DUPLICATES);
			assertThat(result.rejections().keySet()).allMatch((code) -> code.equals("409 already-ordered")
					|| code.equals("409 sold-out") || code.equals("429 busy"));
			assertThat(result.ordersCreated()).isEqualTo(STOCK);
			assertThat(result.duplicates()).isZero();
			assertThat(result.finalStock()).isZero();
			assertThat(result.lowestStock()).isNotNegative();
		}
		finally {
			instances.forEach(ConfigurableApplicationContext::close);
		}
	}

	private static ConfigurableApplicationContext start(String name, SharedDatabase database, String keyPrefix) {
		return SampleInstance.on(database)
			.with("spring.application.name", name)
			.redis(TestRedis.endpoint(), keyPrefix)
			.start();
	}

}
