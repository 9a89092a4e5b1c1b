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
import dev.distlock.testing.redis.RedisEndpoint;
import dev.distlock.testing.redis.TestRedis;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A small hot-item run through the real application: two instances on random ports, one
 * Redis, one database, {@code sample.orders.work=5ms}; for the baseline and 1, 2, 4 and 8
 * locked segments, 66 users order a stock of 60 once each over both instances. Every
 * configuration sells exactly its stock, with no oversold, false sold-out or stranded
 * stock. Runs on PostgreSQL when it answers on 127.0.0.1 (skipped otherwise) and always
 * on an H2 TCP server. No timing is asserted.
 *
 * @author distlock
 */
class HotItemRunTests {

	private static final int STOCK = 60;

	private static final int USERS = 66;

	static Stream<Arguments> databases() {
		return Stream.of(Arguments.of("PostgreSQL", (Supplier<@Nullable SharedDatabase>) SharedDatabase::postgres),
				Arguments.of("H2 server", (Supplier<@Nullable SharedDatabase>) SharedDatabase::h2Server));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("databases")
	void everyConfigurationSellsExactlyItsStockWithoutFalseSoldOutsOrStrandedStock(String name,
			Supplier<@Nullable SharedDatabase> databases) throws Exception {
		SharedDatabase database = databases.get();
		Assumptions.assumeTrue(database != null, () -> name + " does not answer on 127.0.0.1");
		String keyPrefix = "sample-hot-" + UUID.randomUUID() + ":";
		RedisEndpoint redis = TestRedis.endpoint();
		List<ConfigurableApplicationContext> instances = new ArrayList<>();
		try (database;
				RedisCommandCounter counter = RedisCommandCounter
					.connect("redis://" + redis.host() + ":" + redis.port())) {
			instances.add(start("instance-a", database, redis, keyPrefix));
			instances.add(start("instance-b", database, redis, keyPrefix));
			List<URI> uris = instances.stream()
				.map((instance) -> URI
					.create("http://127.0.0.1:" + instance.getEnvironment().getProperty("local.server.port")))
				.toList();
			HotItemTable table = HotItemRun.against(uris, STOCK, USERS, 16, counter)
				.run(HotItemCommand.configurations(List.of(1, 2, 4, 8)));
			System.out.println(database + System.lineSeparator() + table.table());
			assertThat(table.results()).hasSize(5);
			for (HotItemResult result : table.results()) {
				String configuration = result.configuration().name();
				assertThat(result.ordersCreated()).as(configuration).isEqualTo(STOCK);
				assertThat(result.soldOuts()).as(configuration).isEqualTo(USERS - STOCK);
				assertThat(result.otherFailures()).as(configuration).isZero();
				assertThat(result.finalStock()).as(configuration).isZero();
				assertThat(result.oversold()).as(configuration).isZero();
				assertThat(result.falseSoldOuts()).as(configuration).isZero();
				assertThat(result.stranded()).as(configuration).isZero();
				assertThat(result.storeRequestsPerOrder()).as(configuration).isNotNull();
			}
		}
		finally {
			instances.forEach(ConfigurableApplicationContext::close);
		}
	}

	private static ConfigurableApplicationContext start(String name, SharedDatabase database, RedisEndpoint redis,
			String keyPrefix) {
		return SampleInstance.on(database)
			.with("spring.application.name", name)
			.redis(redis, keyPrefix)
			.with("sample.orders.work", "5ms")
			.start();
	}

}
