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

package dev.distlock.aop;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import dev.distlock.LockBackendException;
import dev.distlock.LockReleaseFailedException;
import dev.distlock.annotation.DistributedLock;
import dev.distlock.autoconfigure.LockAspectAutoConfiguration;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import dev.distlock.testing.redis.RedisServerHandle;
import dev.distlock.testing.redis.TestRedis;
import org.h2.Driver;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.EnableAspectJAutoProxy;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The {@code @DistributedLock} advice when Redis becomes unreachable, each test on a
 * Redis server of its own and H2: before the method runs it fails closed (the method does
 * not run); before the commit the transaction rolls back; after the commit the caller
 * gets the committed result in a {@link LockReleaseFailedException}.
 *
 * @author distlock
 */
class RedisOutageAdviceTests {

	@Test
	void doesNotRunTheMethodWhenRedisIsDown() {
		withRedisThatStops((server, context) -> {
			Job job = context.getBean(Job.class);
			job.run();
			server.stop();
			assertThatExceptionOfType(LockBackendException.class).isThrownBy(job::run);
			assertThat(job.runs()).isEqualTo(1);
		});
	}

	@Test
	void rollsBackWhenRedisFailsBeforeTheCommit() {
		withRedisThatStops((server, context) -> {
			Job job = context.getBean(Job.class);
			assertThatExceptionOfType(LockBackendException.class)
				.isThrownBy(() -> job.insertAndThen("before-commit", server::stop))
				.satisfies((ex) -> assertThat(ex).isNotInstanceOf(LockReleaseFailedException.class));
			assertThat(job.rows("before-commit")).isZero();
			assertThat(context.getBean(ReleaseFailures.class).events).isEmpty();
		});
	}

	@Test
	void keepsTheCommittedResultWhenRedisFailsAfterTheCommit() {
		withRedisThatStops((server, context) -> {
			Job job = context.getBean(Job.class);
			assertThatExceptionOfType(LockReleaseFailedException.class)
				.isThrownBy(() -> job.insertAndAfterCommit("after-commit", server::stop))
				.satisfies((ex) -> assertThat(ex.getResult()).isEqualTo("inserted after-commit"))
				.satisfies((ex) -> assertThat(ex.isTransactionCommitted()).isTrue())
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("job:after-commit"))
				.withMessageContaining(
						"returned normally and its transaction committed, but then: The lock store failed")
				.withMessageContaining("the lock expires with its lease");
			assertThat(job.rows("after-commit")).isEqualTo(1);
			assertThat(context.getBean(ReleaseFailures.class).events).singleElement().satisfies((event) -> {
				assertThat(event.isLockLost()).isFalse();
				assertThat(event.getResult()).isEqualTo("inserted after-commit");
				assertThat(event.isTransactionCommitted()).isTrue();
			});
		});
	}

	private static void withRedisThatStops(RedisContextConsumer test) {
		try (RedisServerHandle server = TestRedis.startServer()) {
			LettuceConnectionFactory connectionFactory = TestRedis.connectionFactory(server.endpoint(),
					Duration.ofSeconds(2));
			try {
				StringRedisTemplate redis = TestRedis.template(connectionFactory);
				new ApplicationContextRunner()
					.withConfiguration(
							AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class))
					.withBean(StringRedisTemplate.class, () -> redis)
					.withPropertyValues("distlock.store=redis")
					.withUserConfiguration(JobConfiguration.class)
					.run((context) -> test.accept(server, context));
			}
			finally {
				connectionFactory.destroy();
			}
		}
	}

	@FunctionalInterface
	interface RedisContextConsumer {

		void accept(RedisServerHandle server, AssertableApplicationContext context) throws Throwable;

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAspectJAutoProxy(proxyTargetClass = true)
	@EnableTransactionManagement
	static class JobConfiguration {

		@Bean
		DataSource dataSource() {
			return new SimpleDriverDataSource(new Driver(), "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		}

		@Bean
		DataSourceTransactionManager transactionManager(DataSource dataSource) {
			return new DataSourceTransactionManager(dataSource);
		}

		@Bean
		Job job(DataSource dataSource) {
			JdbcTemplate jdbc = new JdbcTemplate(dataSource);
			jdbc.execute("create table jobs (name varchar(64) not null)");
			return new Job(jdbc);
		}

		@Bean
		ReleaseFailures releaseFailures() {
			return new ReleaseFailures();
		}

	}

	static class ReleaseFailures implements ApplicationListener<LockReleaseFailedEvent> {

		final List<LockReleaseFailedEvent> events = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(LockReleaseFailedEvent event) {
			this.events.add(event);
		}

	}

	static class Job {

		private final AtomicInteger runs = new AtomicInteger();

		private final JdbcTemplate jdbc;

		Job(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@DistributedLock(key = "'job'")
		public void run() {
			this.runs.incrementAndGet();
		}

		public int runs() {
			return this.runs.get();
		}

		@DistributedLock(key = "'job:' + #name")
		@Transactional
		public String insertAndThen(String name, Runnable action) {
			this.jdbc.update("insert into jobs (name) values (?)", name);
			action.run();
			return "inserted " + name;
		}

		@DistributedLock(key = "'job:' + #name")
		@Transactional
		public String insertAndAfterCommit(String name, Runnable action) {
			this.jdbc.update("insert into jobs (name) values (?)", name);
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				@Override
				public void afterCommit() {
					action.run();
				}

			});
			return "inserted " + name;
		}

		public int rows(String name) {
			Integer rows = this.jdbc.queryForObject("select count(*) from jobs where name = ?", Integer.class, name);
			return (rows != null) ? rows : 0;
		}

	}

}
