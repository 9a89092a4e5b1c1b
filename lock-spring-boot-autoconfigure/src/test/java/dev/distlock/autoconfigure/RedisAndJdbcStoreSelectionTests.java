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

import dev.distlock.core.DefaultLockClient;
import dev.distlock.store.LockStore;
import dev.distlock.jdbc.JdbcLockStore;
import dev.distlock.redis.RedisLockStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * The JDBC store next to the Redis store, both present (their modules and connections): a
 * mocked {@link StringRedisTemplate} (no Redis server) and an H2 database in memory.
 *
 * @author distlock
 */
class RedisAndJdbcStoreSelectionTests {

	private final JdbcTestDatabase database = JdbcTestDatabase.h2();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class))
		.withBean(StringRedisTemplate.class, RedisAndJdbcStoreSelectionTests::mockTemplate)
		.withBean(DataSource.class, this.database::dataSource);

	@AfterEach
	void dropDatabase() throws Exception {
		this.database.close();
	}

	@Test
	void failsNamingDistlockStoreWhenItDoesNotSayWhichStoreToUse() {
		this.contextRunner.run((context) -> {
			assertThat(context).getFailure()
				.isInstanceOf(LockStoreSelectionException.class)
				.hasMessage("Several lock stores are present (redis, jdbc) and distlock.store does not say which "
						+ "one to use");
			FailureAnalysis analysis = new LockStoreSelectionFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getAction()).isEqualTo("Set distlock.store to one of redis, jdbc.");
		});
	}

	@Test
	void usesTheJdbcStoreWithDistlockStoreJdbc() {
		this.contextRunner.withPropertyValues("distlock.store=jdbc").run((context) -> {
			assertThat(context).getBean(LockStore.class).isInstanceOf(JdbcLockStore.class);
			assertThat(context).hasSingleBean(DefaultLockClient.class);
		});
	}

	@Test
	void usesTheRedisStoreWithDistlockStoreRedisAndLeavesTheDatabaseAlone() {
		this.contextRunner.withPropertyValues("distlock.store=redis").run((context) -> {
			assertThat(context).getBean(LockStore.class).isInstanceOf(RedisLockStore.class);
			assertThat(context).doesNotHaveBean(JdbcLockSchemaInitializer.class);
			assertThat(this.database.hasTable("distlock_lock")).isFalse();
		});
	}

	private static StringRedisTemplate mockTemplate() {
		StringRedisTemplate template = mock(StringRedisTemplate.class);
		given(template.getRequiredConnectionFactory()).willReturn(mock(RedisConnectionFactory.class));
		return template;
	}

}
