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

package dev.distlock.sample.jdbc;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.distlock.store.LockStore;
import dev.distlock.jdbc.JdbcLockStore;
import dev.distlock.sample.SampleInstance;
import dev.distlock.sample.SharedDatabase;
import dev.distlock.sample.load.Burst;
import dev.distlock.sample.load.BurstResult;
import org.flywaydb.core.Flyway;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample on the JDBC lock store (profile {@code jdbc}, {@code distlock.store=jdbc}),
 * with no Redis at all: two instances (two application contexts on random ports) share
 * one database, which holds the vouchers, the orders and the locks in the table of the
 * sample's own Flyway migration; the load command's burst (300 users x 10 concurrent
 * duplicates over both instances, stock 200) gives exactly the stock in orders and no
 * duplicate. Runs on MariaDB and PostgreSQL when they answer on 127.0.0.1 (skipped with
 * the reason otherwise) and always on an H2 TCP server.
 *
 * @author distlock
 */
class JdbcStoreTwoInstancesTests {

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
	void burstOverTwoInstancesOnTheJdbcStoreSellsStockExactlyOncePerUserWithoutRedis(String name,
			Supplier<@Nullable SharedDatabase> databases) throws Exception {
		SharedDatabase database = databases.get();
		Assumptions.assumeTrue(database != null, () -> name + " does not answer on 127.0.0.1");
		List<ConfigurableApplicationContext> instances = new ArrayList<>();
		try (database) {
			instances.add(start("instance-a", database));
			instances.add(start("instance-b", database));
			for (ConfigurableApplicationContext instance : instances) {
				assertThat(instance.getBean(LockStore.class)).isInstanceOf(JdbcLockStore.class);
				assertThat(instance.containsBean("embeddedRedisServer")).as("embedded Redis").isFalse();
				assertThat(redisBeans(instance)).as("Redis beans").isEmpty();
			}
			assertThat(appliedMigrations(instances.get(0))).contains("4 distlock lock", "8 distlock lock version 3");
			List<URI> uris = instances.stream()
				.map((instance) -> URI
					.create("http://127.0.0.1:" + instance.getEnvironment().getProperty("local.server.port")))
				.toList();
			BurstResult result = Burst.against(uris, USERS, DUPLICATES, STOCK, 100).fire();
			System.out.println(database + ", JDBC lock store" + System.lineSeparator() + result.table());
			assertThat(result.serverErrors()).as("5xx responses and requests without response").isZero();
			assertThat(result.count(201)).isEqualTo(STOCK);
			assertThat(result.count(201) + result.count(409) + result.count(429)).isEqualTo(USERS * DUPLICATES);
			assertThat(result.ordersCreated()).isEqualTo(STOCK);
			assertThat(result.duplicates()).isZero();
			assertThat(result.finalStock()).isZero();
			assertThat(result.lowestStock()).isNotNegative();
		}
		finally {
			instances.forEach(ConfigurableApplicationContext::close);
		}
	}

	private static ConfigurableApplicationContext start(String name, SharedDatabase database) {
		return SampleInstance.on(database).with("spring.application.name", name).profile("jdbc").start();
	}

	/**
	 * Return the names of the beans of Spring Data Redis's types in the context.
	 */
	private static List<String> redisBeans(ConfigurableApplicationContext context) {
		List<String> names = new ArrayList<>();
		for (String type : List.of("org.springframework.data.redis.connection.RedisConnectionFactory",
				"org.springframework.data.redis.core.RedisTemplate")) {
			Class<?> redisType = ClassUtils.resolveClassName(type, context.getClassLoader());
			names.addAll(List.of(context.getBeanNamesForType(redisType)));
		}
		return names;
	}

	/**
	 * Return the descriptions of the Flyway migrations applied to the database.
	 */
	private static List<String> appliedMigrations(ConfigurableApplicationContext context) {
		return Stream.of(context.getBean(Flyway.class).info().applied())
			.map((migration) -> migration.getVersion() + " " + migration.getDescription())
			.toList();
	}

}
