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

package dev.distlock.autoconfigure;

import javax.sql.DataSource;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClient;
import dev.distlock.store.LockStore;
import dev.distlock.memory.InMemoryLockStore;
import dev.distlock.redis.RedisLockStore;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * Selection of the lock store by {@code distlock.store}, or of the only store present: on
 * a mocked {@link StringRedisTemplate} (no Redis server) and
 * {@link JdbcStandInLockStoreConfiguration} as a second store.
 *
 * @author distlock
 */
@ExtendWith(OutputCaptureExtension.class)
class LockStoreSelectionTests {

	// the JDBC store's module, for which JdbcStandInLockStoreConfiguration stands in
	private static final FilteredClassLoader HIDDEN_JDBC_STORE = new FilteredClassLoader("dev.distlock.jdbc");

	private static final String MEMORY_WARNING = "distlock.store is memory: locks hold within this JVM only";

	// the JDBC store's module is hidden: JdbcStandInLockStoreConfiguration stands in for
	// it
	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withClassLoader(new FilteredClassLoader("dev.distlock.jdbc"))
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class));

	@Test
	void usesTheRedisStoreWhenItIsTheOnlyStorePresent() {
		this.contextRunner.withBean(StringRedisTemplate.class, LockStoreSelectionTests::mockTemplate).run((context) -> {
			assertThat(context).getBean(LockStore.class).isInstanceOf(RedisLockStore.class);
			assertThat(context).hasSingleBean(DefaultLockClient.class);
		});
	}

	@Test
	void usesTheInMemoryStoreWithDistlockStoreMemoryAndWarnsOnce(CapturedOutput output) {
		this.contextRunner.withPropertyValues("distlock.store=memory").run((context) -> {
			assertThat(context).getBean(LockStore.class).isInstanceOf(InMemoryLockStore.class);
			assertThat(context).hasSingleBean(DefaultLockClient.class);
			assertThat(occurrences(output.getOut(), MEMORY_WARNING)).isOne();
		});
	}

	@Test
	void usesTheInMemoryStoreWithDistlockStoreMemoryEvenWhenRedisIsPresent() {
		this.contextRunner.withBean(StringRedisTemplate.class, LockStoreSelectionTests::mockTemplate)
			.withPropertyValues("distlock.store=memory")
			.run((context) -> assertThat(context).getBean(LockStore.class).isInstanceOf(InMemoryLockStore.class));
	}

	@Test
	void neverChoosesTheInMemoryStoreImplicitly(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(LockStore.class).doesNotHaveBean(LockClient.class);
			assertThat(output.getOut()).doesNotContain(MEMORY_WARNING);
		});
	}

	@Test
	void failsWhenSeveralStoresArePresentWithoutDistlockStore() {
		this.contextRunner.withBean(StringRedisTemplate.class, LockStoreSelectionTests::mockTemplate)
			.withBean(DataSource.class, JdbcDataSource::new)
			.withUserConfiguration(JdbcStandInLockStoreConfiguration.class)
			.withClassLoader(HIDDEN_JDBC_STORE)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(LockStoreSelectionException.class)
				.hasMessage("Several lock stores are present (redis, jdbc) and distlock.store does not say "
						+ "which one to use"));
	}

	@Test
	void usesTheStoreThatDistlockStoreSelectsAmongSeveral() {
		this.contextRunner.withBean(StringRedisTemplate.class, LockStoreSelectionTests::mockTemplate)
			.withBean(DataSource.class, JdbcDataSource::new)
			.withUserConfiguration(JdbcStandInLockStoreConfiguration.class)
			.withClassLoader(HIDDEN_JDBC_STORE)
			.withPropertyValues("distlock.store=jdbc")
			.run((context) -> {
				assertThat(context).getBean(LockStore.class).isSameAs(JdbcStandInLockStoreConfiguration.STORE);
				assertThat(context).hasSingleBean(DefaultLockClient.class);
			});
	}

	@Test
	void usesTheRedisStoreWhenDistlockStoreSelectsItAmongSeveral() {
		this.contextRunner.withBean(StringRedisTemplate.class, LockStoreSelectionTests::mockTemplate)
			.withBean(DataSource.class, JdbcDataSource::new)
			.withUserConfiguration(JdbcStandInLockStoreConfiguration.class)
			.withClassLoader(HIDDEN_JDBC_STORE)
			.withPropertyValues("distlock.store=redis")
			.run((context) -> assertThat(context).getBean(LockStore.class).isInstanceOf(RedisLockStore.class));
	}

	@Test
	void usesTheSecondStoreWhenItIsTheOnlyStorePresent() {
		this.contextRunner.withBean(DataSource.class, JdbcDataSource::new)
			.withUserConfiguration(JdbcStandInLockStoreConfiguration.class)
			.withClassLoader(HIDDEN_JDBC_STORE)
			.run((context) -> assertThat(context).getBean(LockStore.class)
				.isSameAs(JdbcStandInLockStoreConfiguration.STORE));
	}

	@Test
	void usesTheApplicationsLockStoreWhateverStoresArePresent() {
		LockStore userStore = mock(LockStore.class);
		this.contextRunner.withBean(StringRedisTemplate.class, LockStoreSelectionTests::mockTemplate)
			.withBean(DataSource.class, JdbcDataSource::new)
			.withUserConfiguration(JdbcStandInLockStoreConfiguration.class)
			.withClassLoader(HIDDEN_JDBC_STORE)
			.withBean("userLockStore", LockStore.class, () -> userStore)
			.run((context) -> {
				assertThat(context).getBean(LockStore.class).isSameAs(userStore);
				assertThat(context).hasSingleBean(DefaultLockClient.class);
			});
	}

	@Test
	void failsWhenDistlockStoreIsRedisWithoutLockRedis() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("dev.distlock.redis"))
			.withBean(StringRedisTemplate.class, LockStoreSelectionTests::mockTemplate)
			.withPropertyValues("distlock.store=redis")
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(LockStoreSelectionException.class)
				.hasMessage("distlock.store is redis, but the redis store is not available: class "
						+ "dev.distlock.redis.RedisLockStore is not on the classpath (add lock-spring-boot-starter)"));
	}

	@Test
	void failsWhenDistlockStoreIsRedisWithoutSpringDataRedis() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(StringRedisTemplate.class))
			.withPropertyValues("distlock.store=redis")
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(LockStoreSelectionException.class)
				.hasMessageContaining("distlock.store is redis")
				.hasMessageContaining(
						"class org.springframework.data.redis.core.StringRedisTemplate is not on the classpath"));
	}

	@Test
	void failsWhenDistlockStoreIsRedisWithoutARedisConnection() {
		this.contextRunner.withPropertyValues("distlock.store=redis")
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(LockStoreSelectionException.class)
				.hasMessage("distlock.store is redis, but the redis store is not available: there is no "
						+ "org.springframework.data.redis.core.StringRedisTemplate bean"));
	}

	@Test
	void failsWhenDistlockStoreIsRedisWithSeveralRedisConnectionsAndNoPrimary() {
		this.contextRunner.withBean("first", StringRedisTemplate.class, LockStoreSelectionTests::mockTemplate)
			.withBean("second", StringRedisTemplate.class, LockStoreSelectionTests::mockTemplate)
			.withPropertyValues("distlock.store=redis")
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(LockStoreSelectionException.class)
				.hasMessageContaining("there are several org.springframework.data.redis.core.StringRedisTemplate "
						+ "beans [first, second] and none is the primary one"));
	}

	@Test
	void failsWhenDistlockStoreNamesAStoreWhoseModuleIsAbsent() {
		this.contextRunner.withPropertyValues("distlock.store=jdbc")
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(LockStoreSelectionException.class)
				.hasMessage("distlock.store is jdbc, but the jdbc store is not available: class "
						+ "dev.distlock.jdbc.JdbcLockStore is not on the classpath (add lock-spring-boot-starter-jdbc)"));
	}

	@Test
	void failsOnAnUnknownDistlockStore() {
		this.contextRunner.withPropertyValues("distlock.store=mongo")
			.run((context) -> assertThat(context).getFailure()
				.cause()
				.isInstanceOf(BindException.class)
				.hasMessageContaining("distlock.store"));
	}

	@Test
	void lockedMethodsWithoutAStoreFailNamingDistlockStoreAndTheStarter() {
		this.contextRunner.withBean(LockedJob.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("need a LockClient bean, but there is none")
				.hasMessageContaining("distlock.store")
				.hasMessageContaining("lock-spring-boot-starter for Redis (it needs a RedisConnectionFactory")
				.hasMessageContaining("lock-spring-boot-starter-jdbc for a database (it needs a DataSource)")
				.hasMessageContaining("lock-spring-boot-starter-zookeeper for ZooKeeper (it needs a CuratorFramework "
						+ "or distlock.zookeeper.connect-string)"));
	}

	@Test
	void analyzesTheFailureWithWhatToChange() {
		this.contextRunner.withBean(StringRedisTemplate.class, LockStoreSelectionTests::mockTemplate)
			.withBean(DataSource.class, JdbcDataSource::new)
			.withUserConfiguration(JdbcStandInLockStoreConfiguration.class)
			.withClassLoader(HIDDEN_JDBC_STORE)
			.run((context) -> {
				FailureAnalysis analysis = new LockStoreSelectionFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("Several lock stores are present (redis, jdbc)");
				assertThat(analysis.getAction()).isEqualTo("Set distlock.store to one of redis, jdbc.");
			});
	}

	@Test
	void reportsAnUnavailableStoreInTheStartupFailureReport(CapturedOutput output) {
		SpringApplicationBuilder application = new SpringApplicationBuilder(EmptyApplication.class)
			.web(WebApplicationType.NONE)
			.properties("distlock.store=jdbc");
		assertThatExceptionOfType(LockStoreSelectionException.class).isThrownBy(application::run);
		assertThat(output).contains("APPLICATION FAILED TO START")
			// what it misses depends on the classpath: lock-jdbc (the Redis starter's
			// run),
			// else a DataSource
			.contains("distlock.store is jdbc, but the jdbc store is not available: ")
			.contains("set distlock.store to another store (redis, jdbc, zookeeper, memory)");
	}

	private static int occurrences(String text, String part) {
		return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
	}

	private static StringRedisTemplate mockTemplate() {
		StringRedisTemplate template = mock(StringRedisTemplate.class);
		given(template.getRequiredConnectionFactory()).willReturn(mock(RedisConnectionFactory.class));
		return template;
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(LockAutoConfiguration.class)
	static class EmptyApplication {

	}

	static class LockedJob {

		@DistributedLock(key = "'job'")
		public void run() {
		}

	}

}
