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

import dev.distlock.autoconfigure.DistlockProperties;
import dev.distlock.autoconfigure.JdbcTestDatabase;
import dev.distlock.autoconfigure.LockAspectAutoConfiguration;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import dev.distlock.autoconfigure.LockHealthAutoConfiguration;
import dev.distlock.autoconfigure.LockHealthIndicators;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;

import javax.sql.DataSource;

import dev.distlock.LockBackendException;
import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHold;
import dev.distlock.jdbc.JdbcLockStore;
import dev.distlock.jdbc.JdbcLockStoreSettings;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code distlock.jdbc.initialize-schema} ({@code embedded}, {@code always},
 * {@code never}) on H2 in memory (embedded), and on the PostgreSQL and MariaDB that
 * answer on 127.0.0.1 (not embedded; skipped with the reason when they do not), each in a
 * fresh schema or database; and two instances creating one table at once.
 *
 * @author distlock
 */
class JdbcLockSchemaInitializationTests {

	private static final String TABLE = "distlock_lock";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class))
		.withPropertyValues("distlock.store=jdbc");

	static Stream<Arguments> databases() {
		return Stream.of(Arguments.of("H2", (Supplier<@Nullable JdbcTestDatabase>) JdbcTestDatabase::h2),
				Arguments.of("PostgreSQL", (Supplier<@Nullable JdbcTestDatabase>) JdbcTestDatabase::postgres),
				Arguments.of("MariaDB", (Supplier<@Nullable JdbcTestDatabase>) JdbcTestDatabase::mariadb));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("databases")
	void embeddedCreatesTheTableOnEmbeddedDatabasesOnly(String name, Supplier<@Nullable JdbcTestDatabase> databases)
			throws Exception {
		try (JdbcTestDatabase database = database(name, databases)) {
			this.contextRunner.withBean(DataSource.class, database::dataSource).run((context) -> {
				assertThat(database.hasTable(TABLE)).isEqualTo(database.embedded());
				if (database.embedded()) {
					assertThat(context).hasNotFailed();
				}
				else {
					assertFailsNamingTheTableThePropertyAndTheScript(context);
				}
			});
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("databases")
	void alwaysCreatesTheTableAndTheStoreLocksInIt(String name, Supplier<@Nullable JdbcTestDatabase> databases)
			throws Exception {
		try (JdbcTestDatabase database = database(name, databases)) {
			this.contextRunner.withBean(DataSource.class, database::dataSource)
				.withPropertyValues("distlock.jdbc.initialize-schema=always")
				.run((context) -> {
					assertThat(database.hasTable(TABLE)).isTrue();
					try (LockHold hold = context.getBean(LockClient.class).acquire("job", Duration.ZERO, null)) {
						assertThat(database.rows(TABLE)).isOne();
					}
				});
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("databases")
	void alwaysKeepsATableThatExistsAlreadyWithItsLocks(String name, Supplier<@Nullable JdbcTestDatabase> databases)
			throws Exception {
		try (JdbcTestDatabase database = database(name, databases)) {
			ApplicationContextRunner always = this.contextRunner.withBean(DataSource.class, database::dataSource)
				.withPropertyValues("distlock.jdbc.initialize-schema=always");
			always.run((context) -> assertThat(context).hasNotFailed());
			try (JdbcLockStore store = new JdbcLockStore(database.dataSource(),
					JdbcLockStoreSettings.builder().build());
					DefaultLockClient client = new DefaultLockClient(store,
							new DistlockProperties().toClientSettings())) {
				LockHold kept = client.acquire("kept", Duration.ZERO, null);
				always.run((context) -> {
					assertThat(context).hasNotFailed();
					assertThat(database.rows(TABLE)).isOne();
					assertThat(context.getBean(LockClient.class).obtain("kept").tryLock()).isFalse();
				});
				kept.release();
			}
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("databases")
	void neverLeavesTheDatabaseAloneAndFailsStartupWithoutTheTable(String name,
			Supplier<@Nullable JdbcTestDatabase> databases) throws Exception {
		try (JdbcTestDatabase database = database(name, databases)) {
			this.contextRunner.withBean(DataSource.class, database::dataSource)
				.withPropertyValues("distlock.jdbc.initialize-schema=never")
				.run((context) -> {
					assertThat(database.hasTable(TABLE)).isFalse();
					assertFailsNamingTheTableThePropertyAndTheScript(context);
				});
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("databases")
	void aTableDroppedWhileRunningTurnsTheHealthDownAndFailsLockedCallsClosed(String name,
			Supplier<@Nullable JdbcTestDatabase> databases) throws Exception {
		try (JdbcTestDatabase database = database(name, databases)) {
			this.contextRunner
				.withConfiguration(
						AutoConfigurations.of(LockAspectAutoConfiguration.class, LockHealthAutoConfiguration.class))
				.withBean(DataSource.class, database::dataSource)
				.withBean(LockedJob.class)
				.withPropertyValues("distlock.jdbc.initialize-schema=always")
				.run((context) -> {
					Object indicator = context.getBean("distlockHealthIndicator");
					LockedJob job = context.getBean(LockedJob.class);
					job.run();
					assertThat(job.runs()).isOne();
					assertThat(LockHealthIndicators.status(indicator)).isEqualTo("UP");
					assertThat(LockHealthIndicators.details(indicator)).containsEntry("lockTable", "present");
					database.update("DROP TABLE " + TABLE);
					assertThat(LockHealthIndicators.status(indicator)).isEqualTo("DOWN");
					assertThat(LockHealthIndicators.details(indicator)).containsEntry("lockTable",
							"no table '" + TABLE + "'");
					assertThatExceptionOfType(LockBackendException.class)
						.isThrownBy(() -> context.getBean(LockClient.class).acquire("job", Duration.ZERO, null));
					assertThatExceptionOfType(LockBackendException.class).isThrownBy(job::run);
					// Nothing ran without its lock
					assertThat(job.runs()).isOne();
				});
		}
	}

	private static void assertFailsNamingTheTableThePropertyAndTheScript(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		assertThat(context).getFailure()
			.rootCause()
			.hasMessageContaining("no table '" + TABLE + "'")
			.hasMessageContaining("distlock.jdbc.initialize-schema=always")
			.hasMessageContaining("classpath:dev/distlock/jdbc/schema-");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("databases")
	void twoInstancesStartingAtOnceCreateOneTableAndExcludeEachOther(String name,
			Supplier<@Nullable JdbcTestDatabase> databases) throws Exception {
		try (JdbcTestDatabase database = database(name, databases)) {
			CyclicBarrier start = new CyclicBarrier(2);
			ExecutorService executor = Executors.newFixedThreadPool(2);
			List<ConfigurableApplicationContext> instances = new ArrayList<>();
			try {
				List<Future<ConfigurableApplicationContext>> starting = new ArrayList<>();
				for (int i = 0; i < 2; i++) {
					starting.add(executor.submit(startTogether(start, database)));
				}
				for (Future<ConfigurableApplicationContext> instance : starting) {
					instances.add(instance.get(60, TimeUnit.SECONDS));
				}
				assertThat(database.hasTable(TABLE)).isTrue();
				LockClient first = instances.get(0).getBean(LockClient.class);
				LockClient second = instances.get(1).getBean(LockClient.class);
				try (LockHold hold = first.acquire("shared", Duration.ZERO, null)) {
					assertThat(second.obtain("shared").tryLock()).isFalse();
				}
				try (LockHold hold = second.acquire("shared", Duration.ofSeconds(5), null)) {
					assertThat(hold.isValid()).isTrue();
				}
			}
			finally {
				instances.forEach(ConfigurableApplicationContext::close);
				executor.shutdownNow();
			}
		}
	}

	/**
	 * Start an instance once the other one is ready to start too. A plain application
	 * context: two SpringApplications starting at once in one JVM race in Spring Boot's
	 * logging system, not in distlock.
	 */
	private static Callable<ConfigurableApplicationContext> startTogether(CyclicBarrier start,
			JdbcTestDatabase database) {
		return () -> {
			AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
			TestPropertyValues.of("distlock.store=jdbc", "distlock.jdbc.initialize-schema=always").applyTo(context);
			context.registerBean("dataSource", DataSource.class, database::dataSource);
			context.register(LockApplication.class);
			start.await(30, TimeUnit.SECONDS);
			context.refresh();
			return context;
		};
	}

	private static JdbcTestDatabase database(String name, Supplier<@Nullable JdbcTestDatabase> databases) {
		JdbcTestDatabase database = databases.get();
		Assumptions.assumeTrue(database != null, () -> name + " does not answer on 127.0.0.1");
		return database;
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(LockAutoConfiguration.class)
	static class LockApplication {

	}

	static class LockedJob {

		private final AtomicInteger runs = new AtomicInteger();

		@DistributedLock(key = "'locked-job'")
		public void run() {
			this.runs.incrementAndGet();
		}

		public int runs() {
			return this.runs.get();
		}

	}

}
