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

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import dev.distlock.annotation.DistributedLock;
import dev.distlock.aop.DistributedLockAdvisor;
import dev.distlock.aop.LockProxyValidator;
import dev.distlock.aop.TransactionalLockPostProcessor;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.store.LockStore;
import dev.distlock.redis.RedisLockStore;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.EnableAspectJAutoProxy;
import org.springframework.core.Ordered;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.ClassUtils;
import org.springframework.util.StreamUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * Tests for {@link LockAutoConfiguration} and {@link LockAspectAutoConfiguration}: one
 * condition per test, on a mocked {@link StringRedisTemplate} (no Redis server).
 *
 * @author distlock
 */
class LockAutoConfigurationTests {

	private static final String[] BOOT_REDIS_AUTO_CONFIGURATIONS = {
			"org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
			"org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration" };

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class));

	@Test
	void createsALockClientOnARedisLockStoreOnTheStringRedisTemplate() {
		this.contextRunner.withBean(StringRedisTemplate.class, LockAutoConfigurationTests::mockTemplate)
			.run((context) -> {
				assertThat(context).hasSingleBean(LockClient.class)
					.getBean(LockClient.class)
					.isInstanceOf(DefaultLockClient.class);
				assertThat(context).hasSingleBean(LockStore.class)
					.getBean(LockStore.class)
					.isInstanceOf(RedisLockStore.class);
			});
	}

	@Test
	void usesTheApplicationsLockStore() {
		LockStore userStore = mock(LockStore.class);
		this.contextRunner.withBean("userLockStore", LockStore.class, () -> userStore).run((context) -> {
			assertThat(context).hasSingleBean(LockStore.class).doesNotHaveBean(RedisLockStore.class);
			assertThat(context).hasSingleBean(DefaultLockClient.class);
		});
	}

	@Test
	void configuresTheLockClientFromProperties() {
		this.contextRunner.withBean(StringRedisTemplate.class, LockAutoConfigurationTests::mockTemplate)
			.withPropertyValues("distlock.redis.key-prefix=orders:", "distlock.watchdog-lease=9s",
					"distlock.close-timeout=2s", "distlock.renewal-batch-size=7", "distlock.fair-grant-timeout=700ms",
					"distlock.cohort-hand-offs=5")
			.run((context) -> {
				assertThat(context.getBean(DefaultLockClient.class).settings()).isEqualTo(new LockClientSettings(
						Duration.ofSeconds(9), Duration.ofSeconds(2), 7, Duration.ofMillis(700), 5));
				assertThat(context.getBean(RedisLockStore.class).keyPrefix()).isEqualTo("orders:");
			});
	}

	@Test
	void usesDefaultSettingsWithoutProperties() {
		this.contextRunner.withBean(StringRedisTemplate.class, LockAutoConfigurationTests::mockTemplate)
			.run((context) -> assertThat(context.getBean(DefaultLockClient.class).settings())
				.isEqualTo(LockClientSettings.defaults()));
	}

	@Test
	void failsOnAnInvalidKeyPrefix() {
		this.contextRunner.withBean(StringRedisTemplate.class, LockAutoConfigurationTests::mockTemplate)
			.withPropertyValues("distlock.redis.key-prefix=lock:{app}:")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("distlock.redis.key-prefix must not contain"));
	}

	@Test
	void bindsTheDeprecatedKeyPrefix() {
		this.contextRunner.withBean(StringRedisTemplate.class, LockAutoConfigurationTests::mockTemplate)
			.withPropertyValues("distlock.key-prefix=orders:")
			.run((context) -> assertThat(context.getBean(RedisLockStore.class).keyPrefix()).isEqualTo("orders:"));
	}

	@Test
	void prefersTheNewKeyPrefixOverTheDeprecatedOne() {
		this.contextRunner.withBean(StringRedisTemplate.class, LockAutoConfigurationTests::mockTemplate)
			.withPropertyValues("distlock.key-prefix=old:", "distlock.redis.key-prefix=new:")
			.run((context) -> assertThat(context.getBean(RedisLockStore.class).keyPrefix()).isEqualTo("new:"));
	}

	@Test
	void metadataDeprecatesTheRedisPropertiesOfTheTopLevelNamingTheirReplacement() throws IOException {
		String json = distlockMetadata();
		for (String name : List.of("key-prefix", "replication.min-replicas", "replication.timeout")) {
			List<Object> replacement = JsonPath.read(json,
					"$.properties[?(@.name == 'distlock." + name + "')].deprecation.replacement");
			assertThat(replacement).as("replacement of distlock.%s", name).containsExactly("distlock.redis." + name);
			List<Object> level = JsonPath.read(json,
					"$.properties[?(@.name == 'distlock." + name + "')].deprecation.level");
			assertThat(level).containsExactly("warning");
		}
	}

	@Test
	void backsOffWhenUserDefinesLockClient() {
		LockClient userClient = mock(LockClient.class);
		this.contextRunner.withBean(StringRedisTemplate.class, LockAutoConfigurationTests::mockTemplate)
			.withBean("userLockClient", LockClient.class, () -> userClient)
			.run((context) -> {
				assertThat(context).hasSingleBean(LockClient.class)
					.doesNotHaveBean(DefaultLockClient.class)
					.doesNotHaveBean(LockStore.class);
				assertThat(context.getBean(LockClient.class)).isSameAs(userClient);
				assertThat(context).hasSingleBean(DistributedLockAdvisor.class);
			});
	}

	@Test
	void needsASingleStringRedisTemplateCandidate() {
		this.contextRunner.withBean("first", StringRedisTemplate.class, LockAutoConfigurationTests::mockTemplate)
			.withBean("second", StringRedisTemplate.class, LockAutoConfigurationTests::mockTemplate)
			.run((context) -> assertThat(context).doesNotHaveBean(LockClient.class));
	}

	@Test
	void usesThePrimaryOfSeveralStringRedisTemplates() {
		StringRedisTemplate primary = mockTemplate();
		this.contextRunner.withBean("first", StringRedisTemplate.class, LockAutoConfigurationTests::mockTemplate)
			.withBean("second", StringRedisTemplate.class, () -> primary, (definition) -> definition.setPrimary(true))
			.run((context) -> assertThat(context).hasSingleBean(LockClient.class));
	}

	@Test
	void isOffWhenDisabled() {
		this.contextRunner.withBean(StringRedisTemplate.class, LockAutoConfigurationTests::mockTemplate)
			.withPropertyValues("distlock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LockClient.class)
				.doesNotHaveBean(DistributedLockAdvisor.class)
				.doesNotHaveBean(DistlockProperties.class));
	}

	@Test
	void adviceIsOffWhenDisabledEvenWithUserDefinedLockClient() {
		this.contextRunner.withBean(LockClient.class, () -> mock(LockClient.class))
			.withPropertyValues("distlock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(DistributedLockAdvisor.class));
	}

	@Test
	void needsSpringDataRedis() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(StringRedisTemplate.class))
			.run((context) -> assertThat(context).doesNotHaveBean(LockClient.class));
	}

	@Test
	void failsAtStartupWhenLockedMethodsHaveNoLockClient() {
		this.contextRunner.withUserConfiguration(LockedJobConfiguration.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining(LockedJob.class.getName())
				.hasMessageContaining("need a LockClient bean, but there is none"));
	}

	@Test
	void startsWithoutLockClientWhenNothingIsLocked() {
		this.contextRunner.run((context) -> assertThat(context).hasNotFailed()
			.hasSingleBean(DistributedLockAdvisor.class)
			.doesNotHaveBean(LockClient.class));
	}

	@Test
	void adviceUsesAUserDefinedLockClient() {
		this.contextRunner.withUserConfiguration(LockedJobConfiguration.class)
			.withBean(LockClient.class, () -> mock(LockClient.class))
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(DistributedLockAdvisor.class));
	}

	@Test
	void adviceRunsOutsideTransactionsByDefault() {
		this.contextRunner.withBean(StringRedisTemplate.class, LockAutoConfigurationTests::mockTemplate)
			.run((context) -> assertThat(context.getBean(DistributedLockAdvisor.class).getOrder())
				.isEqualTo(DistributedLockAdvisor.DEFAULT_ORDER)
				.isLessThan(Ordered.LOWEST_PRECEDENCE));
	}

	@Test
	void adviceOrderFollowsProperty() {
		this.contextRunner.withBean(StringRedisTemplate.class, LockAutoConfigurationTests::mockTemplate)
			.withPropertyValues("distlock.aspect.order=42")
			.run((context) -> assertThat(context.getBean(DistributedLockAdvisor.class).getOrder()).isEqualTo(42));
	}

	@Test
	void registersTheTransactionCheckWithSpringTx() {
		this.contextRunner.withBean(StringRedisTemplate.class, LockAutoConfigurationTests::mockTemplate)
			.run((context) -> assertThat(context).hasSingleBean(TransactionalLockPostProcessor.class));
	}

	@Test
	void registersTheCheckOfLockedMethodsThatAProxyCannotIntercept() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(LockProxyValidator.class));
	}

	@Test
	void skipsTheTransactionCheckWithoutSpringTx() {
		this.contextRunner.withBean(StringRedisTemplate.class, LockAutoConfigurationTests::mockTemplate)
			.withClassLoader(new FilteredClassLoader(TransactionSynchronizationManager.class))
			.run((context) -> assertThat(context).hasSingleBean(DistributedLockAdvisor.class)
				.doesNotHaveBean(TransactionalLockPostProcessor.class));
	}

	@Test
	void runsAfterSpringBootRedisAutoConfiguration() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(LockAspectAutoConfiguration.class, LockAutoConfiguration.class,
					bootRedisAutoConfiguration()))
			.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=1")
			.run((context) -> assertThat(context).hasSingleBean(StringRedisTemplate.class)
				.hasSingleBean(LockClient.class)
				.hasSingleBean(DistributedLockAdvisor.class));
	}

	@Test
	void jarCarriesConfigurationMetadataWithDefaults() throws IOException {
		String json = distlockMetadata();
		assertThat(defaultValue(json, "distlock.enabled")).containsExactly(true);
		assertThat(defaultValue(json, "distlock.redis.key-prefix")).containsExactly("lock:");
		assertThat(defaultValue(json, "distlock.wait-time")).containsExactly("0s");
		// Unset, it follows the store: 30 s, or a third of the negotiated ZooKeeper
		// session
		assertThat(defaultValue(json, "distlock.watchdog-lease")).isEmpty();
		assertThat(defaultValue(json, "distlock.close-timeout")).containsExactly("5s");
		assertThat(defaultValue(json, "distlock.renewal-batch-size")).containsExactly(500);
		assertThat(defaultValue(json, "distlock.fair-grant-timeout")).containsExactly("2s");
		assertThat(defaultValue(json, "distlock.cohort-hand-offs")).containsExactly(3);
		assertThat(defaultValue(json, "distlock.aspect.order")).containsExactly(DistributedLockAdvisor.DEFAULT_ORDER);
		assertThat(defaultValue(json, "distlock.endpoint.force-release")).containsExactly(false);
		assertThat(defaultValue(json, "management.health.distlock.enabled")).containsExactly(true);
		assertThat(defaultValue(json, "distlock.redis.replication.min-replicas")).containsExactly(0);
		assertThat(defaultValue(json, "distlock.redis.replication.timeout")).containsExactly("500ms");
		assertThat(defaultValue(json, "distlock.max-key-length")).containsExactly(512);
		assertThat(defaultValue(json, "distlock.max-keys")).containsExactly(64);
		assertThat(defaultValue(json, "distlock.endpoint.show-keys")).containsExactly("never");
		assertThat(defaultValue(json, "distlock.observation.include-key")).containsExactly(false);
		List<String> descriptions = JsonPath.read(json, "$.properties[?(@.name =~ /distlock\\..*/)].description");
		assertThat(defaultValue(json, "distlock.max-hold")).isEmpty();
		assertThat(defaultValue(json, "distlock.async.executor")).isEmpty();
		assertThat(defaultValue(json, "distlock.reactive.hold-after-cancel")).containsExactly("30s");
		assertThat(defaultValue(json, "distlock.store")).isEmpty();
		assertThat(defaultValue(json, "distlock.zookeeper.connect-string")).isEmpty();
		assertThat(defaultValue(json, "distlock.zookeeper.base-path")).containsExactly("/distlock");
		assertThat(defaultValue(json, "distlock.zookeeper.session-timeout")).containsExactly("60s");
		assertThat(defaultValue(json, "distlock.zookeeper.connection-timeout")).containsExactly("15s");
		assertThat(defaultValue(json, "distlock.zookeeper.acl")).containsExactly("auto");
		assertThat(defaultValue(json, "distlock.zookeeper.auth.username")).isEmpty();
		assertThat(defaultValue(json, "distlock.zookeeper.auth.password")).isEmpty();
		assertThat(defaultValue(json, "distlock.jdbc.table-name")).containsExactly("distlock_lock");
		assertThat(defaultValue(json, "distlock.jdbc.command-timeout")).containsExactly("3s");
		assertThat(defaultValue(json, "distlock.jdbc.poll-interval")).containsExactly("10ms");
		assertThat(defaultValue(json, "distlock.jdbc.initialize-schema")).containsExactly("embedded");
		assertThat(defaultValue(json, "distlock.jdbc.cleanup-interval")).containsExactly("1m");
		assertThat(defaultValue(json, "distlock.jdbc.cleanup-batch-size")).containsExactly(500);
		assertThat(defaultValue(json, "distlock.jdbc.threads")).containsExactly(0);
		assertThat(defaultValue(json, "distlock.leader.enabled")).containsExactly(false);
		assertThat(defaultValue(json, "distlock.leader.name")).isEmpty();
		assertThat(defaultValue(json, "distlock.leader.retry-interval")).containsExactly("2s");
		assertThat(descriptions).hasSize(41).allSatisfy((description) -> assertThat(description).isNotBlank());
	}

	private static List<Object> defaultValue(String json, String property) {
		return JsonPath.read(json, "$.properties[?(@.name == '" + property + "')].defaultValue");
	}

	private static String distlockMetadata() throws IOException {
		for (URL url : Collections.list(LockAutoConfigurationTests.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json"))) {
			try (InputStream in = url.openStream()) {
				String json = StreamUtils.copyToString(in, StandardCharsets.UTF_8);
				if (json.contains(DistlockProperties.class.getName())) {
					return json;
				}
			}
		}
		throw new IllegalStateException("No configuration metadata for " + DistlockProperties.class.getName());
	}

	private static Class<?> bootRedisAutoConfiguration() {
		for (String name : BOOT_REDIS_AUTO_CONFIGURATIONS) {
			if (ClassUtils.isPresent(name, null)) {
				return ClassUtils.resolveClassName(name, null);
			}
		}
		throw new IllegalStateException("No Spring Boot Redis auto-configuration on the classpath");
	}

	private static StringRedisTemplate mockTemplate() {
		StringRedisTemplate template = mock(StringRedisTemplate.class);
		given(template.getRequiredConnectionFactory()).willReturn(mock(RedisConnectionFactory.class));
		return template;
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAspectJAutoProxy
	static class LockedJobConfiguration {

		@Bean
		LockedJob lockedJob() {
			return new LockedJob();
		}

	}

	static class LockedJob {

		@DistributedLock(key = "'job'")
		public void run() {
		}

	}

}
