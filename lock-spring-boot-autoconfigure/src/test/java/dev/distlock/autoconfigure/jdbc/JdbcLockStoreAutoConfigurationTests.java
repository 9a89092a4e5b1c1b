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
import dev.distlock.autoconfigure.LockHealthIndicators;
import dev.distlock.autoconfigure.LockHealthAutoConfiguration;
import dev.distlock.autoconfigure.store.LockStoreSelectionException;
import java.time.Duration;

import javax.sql.DataSource;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.LockMode;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHold;
import dev.distlock.store.LockStore;
import dev.distlock.jdbc.JdbcLockStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.Mockito.mock;

/**
 * Auto-configuration of the JDBC lock store on H2 in memory: selection, the
 * {@code DataSource} it uses, its properties, the startup check of what it cannot do, and
 * the health contributor. No Redis class is used, so that {@code
 * lock-spring-boot-starter-jdbc} runs these tests on its own class path too.
 *
 * @author distlock
 */
@ExtendWith(OutputCaptureExtension.class)
class JdbcLockStoreAutoConfigurationTests {

	private static final String TABLE = "distlock_lock";

	private final JdbcTestDatabase database = JdbcTestDatabase.h2();

	private final JdbcTestDatabase other = JdbcTestDatabase.h2();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class));

	@AfterEach
	void dropDatabases() throws Exception {
		this.database.close();
		this.other.close();
	}

	@Test
	void usesTheJdbcStoreWhenItIsTheOnlyStorePresent() {
		this.contextRunner.withBean(DataSource.class, this.database::dataSource).run((context) -> {
			assertThat(context).getBean(LockStore.class).isInstanceOf(JdbcLockStore.class);
			assertThat(context).hasSingleBean(DefaultLockClient.class);
			assertThat(this.database.hasTable(TABLE)).isTrue();
		});
	}

	@Test
	void usesTheJdbcStoreWithDistlockStoreJdbc() {
		this.contextRunner.withBean(DataSource.class, this.database::dataSource)
			.withPropertyValues("distlock.store=jdbc")
			.run((context) -> assertThat(context).getBean(LockStore.class).isInstanceOf(JdbcLockStore.class));
	}

	@Test
	void locksInTheDatabaseAndExcludesASecondClient() {
		this.contextRunner.withBean(DataSource.class, this.database::dataSource).run((context) -> {
			LockClient client = context.getBean(LockClient.class);
			try (LockHold hold = client.acquire("order:1", Duration.ZERO, null)) {
				assertThat(hold.fencingToken()).isPositive();
				assertThat(this.database.rows(TABLE)).isOne();
				try (JdbcLockStore second = newStore(this.database.dataSource());
						DefaultLockClient secondClient = new DefaultLockClient(second,
								new DistlockProperties().toClientSettings())) {
					assertThat(secondClient.obtain("order:1").tryLock()).isFalse();
				}
			}
		});
	}

	@Test
	void failsWhenDistlockStoreIsJdbcWithoutADataSource() {
		this.contextRunner.withPropertyValues("distlock.store=jdbc")
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(LockStoreSelectionException.class)
				.hasMessage("distlock.store is jdbc, but the jdbc store is not available: there is no "
						+ "javax.sql.DataSource bean"));
	}

	@Test
	void failsWhenDistlockStoreIsJdbcWithoutLockJdbc() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("dev.distlock.jdbc"))
			.withBean(DataSource.class, this.database::dataSource)
			.withPropertyValues("distlock.store=jdbc")
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(LockStoreSelectionException.class)
				.hasMessage("distlock.store is jdbc, but the jdbc store is not available: class "
						+ "dev.distlock.jdbc.JdbcLockStore is not on the classpath (add lock-spring-boot-starter-jdbc)"));
	}

	@Test
	void failsWithSeveralDataSourcesWhenNoneIsPrimaryOrMarked() {
		this.contextRunner.withBean("first", DataSource.class, this.database::dataSource)
			.withBean("second", DataSource.class, this.other::dataSource)
			.withPropertyValues("distlock.store=jdbc")
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(LockStoreSelectionException.class)
				.hasMessageContaining("there are several javax.sql.DataSource beans [first, second] and none is the "
						+ "primary one or the one marked @DistlockDataSource"));
	}

	@Test
	void usesThePrimaryDataSourceAmongSeveral() {
		this.contextRunner.withUserConfiguration(PrimaryAndOtherDataSources.class)
			.withBean(Databases.class, () -> new Databases(this.database, this.other))
			.run((context) -> {
				lockOnce(context.getBean(LockClient.class));
				assertThat(this.database.hasTable(TABLE)).isTrue();
				assertThat(this.other.hasTable(TABLE)).isFalse();
			});
	}

	@Test
	void usesTheDataSourceMarkedDistlockDataSourceOverThePrimaryOne() {
		this.contextRunner.withUserConfiguration(PrimaryAndMarkedDataSources.class)
			.withBean(Databases.class, () -> new Databases(this.database, this.other))
			.run((context) -> {
				assertThat(context).getBean(LockStore.class).isInstanceOf(JdbcLockStore.class);
				try (LockHold hold = context.getBean(LockClient.class).acquire("job", Duration.ZERO, null)) {
					assertThat(this.other.rows(TABLE)).isOne();
					assertThat(this.database.hasTable(TABLE)).isFalse();
				}
			});
	}

	@Test
	void usesTheDataSourceMarkedDistlockDataSourceAmongSeveralWithoutAPrimary() {
		this.contextRunner.withUserConfiguration(UnmarkedAndMarkedDataSources.class)
			.withBean(Databases.class, () -> new Databases(this.database, this.other))
			.withPropertyValues("distlock.store=jdbc")
			.run((context) -> {
				try (LockHold hold = context.getBean(LockClient.class).acquire("job", Duration.ZERO, null)) {
					assertThat(this.other.rows(TABLE)).isOne();
					assertThat(this.database.hasTable(TABLE)).isFalse();
				}
			});
	}

	@Test
	void keepsItsLocksInTheTableThatDistlockJdbcTableNameNames() {
		this.contextRunner.withBean(DataSource.class, this.database::dataSource)
			.withPropertyValues("distlock.jdbc.table-name=app_locks")
			.run((context) -> {
				try (LockHold hold = context.getBean(LockClient.class).acquire("job", Duration.ZERO, null)) {
					assertThat(this.database.rows("app_locks")).isOne();
					assertThat(this.database.hasTable(TABLE)).isFalse();
				}
			});
	}

	@Test
	void namesTheDistlockJdbcPropertyOfAnInvalidValue() {
		this.contextRunner.withBean(DataSource.class, this.database::dataSource)
			.withPropertyValues("distlock.jdbc.command-timeout=-1s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("distlock.jdbc.command-timeout"));
	}

	@Test
	void namesTheCleanupPropertiesOfInvalidValues() {
		this.contextRunner.withBean(DataSource.class, this.database::dataSource)
			.withPropertyValues("distlock.jdbc.cleanup-batch-size=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("distlock.jdbc.cleanup-batch-size"));
		this.contextRunner.withBean(DataSource.class, this.database::dataSource)
			.withPropertyValues("distlock.jdbc.cleanup-interval=0s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("distlock.jdbc.cleanup-interval"));
	}

	@Test
	void namesTheThreadsPropertyOfANegativeValue() {
		this.contextRunner.withBean(DataSource.class, this.database::dataSource)
			.withPropertyValues("distlock.jdbc.threads=-1")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("distlock.jdbc.threads"));
	}

	@Test
	void refusesARenewalBatchAbovePostgresqlsBindLimitNamingTheProperty() {
		this.contextRunner.withBean(DataSource.class, this.database::dataSource)
			.withPropertyValues("distlock.renewal-batch-size=" + (JdbcLockStore.MAX_RENEWAL_BATCH_SIZE + 1))
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("distlock.renewal-batch-size must be at most 16383"));
	}

	@Test
	void refusesALongestKeyAboveTheKeyColumnNamingTheProperty() {
		this.contextRunner.withBean(DataSource.class, this.database::dataSource)
			.withPropertyValues("distlock.max-key-length=1025")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("distlock.max-key-length must be at most 1024"));
	}

	@Test
	void warnsThatLocksOnAnEmbeddedDatabaseHoldWithinOneJvm(CapturedOutput output) {
		this.contextRunner.withBean(DataSource.class, this.database::dataSource).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).contains("The JDBC lock store runs on an embedded database");
		});
	}

	@Test
	void theStoreWaitsForDatabaseInitialization() {
		this.contextRunner.withBean(DataSource.class, this.database::dataSource).run((context) -> {
			String[] initializers = context.getBeanNamesForType(JdbcLockSchemaInitializer.class);
			assertThat(initializers).hasSize(1);
			assertThat(context.getBeanFactory().getBeanDefinition("jdbcLockStore").getDependsOn())
				.contains(initializers);
		});
	}

	@Test
	void backsOffWhenTheApplicationDefinesItsLockStore() {
		LockStore userStore = mock(LockStore.class);
		this.contextRunner.withBean(DataSource.class, this.database::dataSource)
			.withBean("userLockStore", LockStore.class, () -> userStore)
			.run((context) -> {
				assertThat(context).getBean(LockStore.class).isSameAs(userStore);
				assertThat(context).doesNotHaveBean(JdbcLockSchemaInitializer.class);
			});
	}

	@Test
	void refusesFairLocksAtStartupNamingTheAttributeAndTheStore() {
		this.contextRunner.withBean(DataSource.class, this.database::dataSource)
			.withBean(FairJob.class)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("@DistributedLock(fair = true) on")
				.hasMessageContaining("FairJob.run")
				.hasMessageContaining(JdbcLockStore.class.getName()));
	}

	@Test
	void refusesReadLocksAtStartupNamingTheAttributeAndTheStore() {
		this.contextRunner.withBean(DataSource.class, this.database::dataSource)
			.withBean(ReadJob.class)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("@DistributedLock(mode = READ) on")
				.hasMessageContaining("ReadJob.run")
				.hasMessageContaining(JdbcLockStore.class.getName()));
	}

	@Test
	void locksAnnotatedMethodsInTheDatabase() {
		this.contextRunner.withBean(DataSource.class, this.database::dataSource)
			.withBean(CountingJob.class)
			.run((context) -> {
				CountingJob job = context.getBean(CountingJob.class);
				job.run();
				assertThat(job.rowsWhileRunning()).isOne();
				try (JdbcLockStore other = newStore(this.database.dataSource());
						DefaultLockClient otherClient = new DefaultLockClient(other,
								new DistlockProperties().toClientSettings())) {
					LockHold released = otherClient.acquire("counting-job", Duration.ZERO, null);
					released.release();
				}
			});
	}

	@Test
	void healthIsUpAndCountsTheHeldLockWhileTheWatchdogRenewsItInTheDatabase() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(LockHealthAutoConfiguration.class))
			.withBean(DataSource.class, this.database::dataSource)
			.withPropertyValues("distlock.watchdog-lease=900ms")
			.run((context) -> {
				Object indicator = context.getBean("distlockHealthIndicator");
				try (LockHold hold = context.getBean(LockClient.class).acquire("job", Duration.ZERO, null)) {
					await().atMost(Duration.ofSeconds(10))
						.until(() -> LockHealthIndicators.details(indicator).get("lastRenewal") != null);
					Object firstRenewal = LockHealthIndicators.details(indicator).get("lastRenewal");
					await().atMost(Duration.ofSeconds(10))
						.until(() -> !firstRenewal.equals(LockHealthIndicators.details(indicator).get("lastRenewal")));
					assertThat(LockHealthIndicators.status(indicator)).isEqualTo("UP");
					assertThat(LockHealthIndicators.details(indicator)).containsEntry("lastRenewalOutcome", "renewed")
						.doesNotContainKey("lastRenewalError");
					assertThat(((Number) LockHealthIndicators.details(indicator).get("held")).longValue()).isOne();
					assertThat(hold.isValid()).isTrue();
				}
			});
	}

	private static void lockOnce(LockClient client) throws InterruptedException {
		client.acquire("job", Duration.ZERO, null).release();
	}

	private static JdbcLockStore newStore(DataSource dataSource) {
		return new JdbcLockStore(dataSource, dev.distlock.jdbc.JdbcLockStoreSettings.builder().build());
	}

	record Databases(JdbcTestDatabase first, JdbcTestDatabase second) {

	}

	@Configuration(proxyBeanMethods = false)
	static class PrimaryAndOtherDataSources {

		@Bean
		@Primary
		DataSource applicationDataSource(Databases databases) {
			return databases.first().dataSource();
		}

		@Bean
		DataSource reportingDataSource(Databases databases) {
			return databases.second().dataSource();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PrimaryAndMarkedDataSources {

		@Bean
		@Primary
		DataSource applicationDataSource(Databases databases) {
			return databases.first().dataSource();
		}

		@Bean
		@DistlockDataSource
		DataSource lockDataSource(Databases databases) {
			return databases.second().dataSource();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UnmarkedAndMarkedDataSources {

		@Bean
		DataSource applicationDataSource(Databases databases) {
			return databases.first().dataSource();
		}

		@Bean
		@DistlockDataSource
		DataSource lockDataSource(Databases databases) {
			return databases.second().dataSource();
		}

	}

	static class FairJob {

		@DistributedLock(key = "'job'", fair = true)
		public void run() {
		}

	}

	static class ReadJob {

		@DistributedLock(key = "'job'", mode = LockMode.READ)
		public void run() {
		}

	}

	static class CountingJob {

		private final DataSource dataSource;

		private long rowsWhileRunning = -1;

		CountingJob(DataSource dataSource) {
			this.dataSource = dataSource;
		}

		@DistributedLock(key = "'counting-job'")
		public void run() throws Exception {
			try (var connection = this.dataSource.getConnection();
					var statement = connection.createStatement();
					var rows = statement.executeQuery("SELECT COUNT(*) FROM " + TABLE)) {
				rows.next();
				this.rowsWhileRunning = rows.getLong(1);
			}
		}

		public long rowsWhileRunning() {
			return this.rowsWhileRunning;
		}

	}

}
