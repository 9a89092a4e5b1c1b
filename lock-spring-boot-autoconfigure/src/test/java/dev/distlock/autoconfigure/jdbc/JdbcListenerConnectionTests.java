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

package dev.distlock.autoconfigure.jdbc;

import dev.distlock.autoconfigure.JdbcTestDatabase;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHold;
import dev.distlock.jdbc.JdbcLockStoreSettings.ListenerConnectionFactory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * On PostgreSQL, the auto-configured JDBC store's release listener ({@code LISTEN}) has a
 * connection of its own, opened outside the application's HikariCP pool: with every lock
 * released, no pool connection is in use, and a waiter is still woken by the release.
 * Skipped, saying so, when PostgreSQL does not answer on 127.0.0.1.
 *
 * @author distlock
 */
class JdbcListenerConnectionTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class))
		.withPropertyValues("distlock.store=jdbc", "distlock.jdbc.initialize-schema=always");

	@Test
	void theListenerOfPostgresqlTakesNoConnectionOfThePool() throws Exception {
		JdbcTestDatabase database = JdbcTestDatabase.postgres();
		Assumptions.assumeTrue(database != null, "PostgreSQL does not answer on 127.0.0.1");
		try (database; HikariDataSource pool = pool(database)) {
			this.contextRunner.withBean(DataSource.class, () -> pool).run((context) -> {
				LockClient client = context.getBean(LockClient.class);
				LockHold hold = client.acquire("listened", Duration.ZERO, null);
				CompletableFuture<LockHold> waiter = client.acquireAsync("listened", Duration.ofSeconds(20), null)
					.toCompletableFuture();
				hold.release();
				waiter.get(10, TimeUnit.SECONDS).release();
				assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
			});
		}
	}

	@Test
	void theListenerReadsThePoolsCredentialsAgainAtEveryConnect() throws Exception {
		JdbcTestDatabase database = JdbcTestDatabase.postgres();
		Assumptions.assumeTrue(database != null, "PostgreSQL does not answer on 127.0.0.1");
		try (database; HikariDataSource pool = pool(database)) {
			ListenerConnectionFactory factory = ListenerConnections.outsideThePool(pool);
			assertThat(factory).isNotNull();
			try (Connection connection = factory.connect()) {
				assertThat(connection.isValid(3)).isTrue();
			}
			// A user rotated in the pool (as its MXBean allows) reaches the next connect
			pool.getHikariConfigMXBean().setUsername("distlock_no_such_role");
			assertThatExceptionOfType(SQLException.class).isThrownBy(factory::connect)
				.withMessageContaining("distlock_no_such_role");
			pool.getHikariConfigMXBean().setUsername("postgres");
			try (Connection connection = factory.connect()) {
				assertThat(connection.isValid(3)).isTrue();
			}
		}
	}

	private static HikariDataSource pool(JdbcTestDatabase database) {
		HikariDataSource pool = new HikariDataSource();
		pool.setJdbcUrl(database.url());
		pool.setUsername("postgres");
		pool.setPassword("");
		pool.setMaximumPoolSize(2);
		return pool;
	}

}
