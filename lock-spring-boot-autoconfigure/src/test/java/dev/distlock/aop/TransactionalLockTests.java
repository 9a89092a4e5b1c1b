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
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import dev.distlock.LockLostAfterCompletionException;
import dev.distlock.LockLostException;
import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHandle;
import org.h2.Driver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.EnableAspectJAutoProxy;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.interceptor.TransactionAspectSupport;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code @DistributedLock} on {@code @Transactional} methods, with H2 and a real Redis:
 * the lock wraps the transaction by default, so a check-then-insert cannot run twice,
 * while a lock inside the transaction (the order inverted) lets duplicates through; a
 * lock lost while the method runs rolls the transaction back, while a lock found lost
 * only when it is released, after the commit, keeps the committed result.
 *
 * @author distlock
 */
@ExtendWith(OutputCaptureExtension.class)
class TransactionalLockTests extends RedisAdviceTestSupport {

	private static final Duration SLOW_COMMIT = Duration.ofMillis(500);

	private ApplicationContextRunner transactions(Class<?> transactionConfiguration) {
		// a DataSource makes the JDBC store present too
		return contextRunner().withUserConfiguration(transactionConfiguration, JdbcConfiguration.class)
			.withPropertyValues("distlock.store=redis");
	}

	@Test
	void concurrentCallersNeverBothInsertWithTheDefaultOrder() {
		transactions(DefaultOrderTransactions.class).run((context) -> {
			Vouchers vouchers = context.getBean(Vouchers.class);
			assertThat(claimConcurrently(vouchers, "A")).containsExactlyInAnyOrder(true, false);
			assertThat(vouchers.claims("A")).isEqualTo(1);
			assertThat(vouchers.heldAtCompletion()).containsExactly(true);
		});
	}

	@Test
	void concurrentCallersNeverBothInsertWhenTheAspectOrderPutsTheLockOutside() {
		transactions(EarlyTransactions.class).withPropertyValues("distlock.aspect.order=500").run((context) -> {
			Vouchers vouchers = context.getBean(Vouchers.class);
			assertThat(claimConcurrently(vouchers, "B")).containsExactlyInAnyOrder(true, false);
			assertThat(vouchers.claims("B")).isEqualTo(1);
		});
	}

	@Test
	void lockInsideTheTransactionLetsDuplicatesThrough() {
		transactions(EarlyTransactions.class).withPropertyValues("distlock.aspect.order=2000").run((context) -> {
			Vouchers vouchers = context.getBean(Vouchers.class);
			assertThat(claimConcurrently(vouchers, "C")).containsExactly(true, true);
			assertThat(vouchers.claims("C")).isEqualTo(2);
			assertThat(vouchers.heldAtCompletion()).containsExactly(false, false);
		});
	}

	@Test
	void lockDeletedWhileTheMethodRunsRollsBack() {
		transactions(DefaultOrderTransactions.class).run((context) -> {
			Vouchers vouchers = context.getBean(Vouchers.class);
			assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> vouchers.claimAndLoseLock("D"))
				.satisfies((ex) -> assertThat(ex).isNotInstanceOf(LockLostAfterCompletionException.class))
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("voucher:D"))
				.satisfies(
						(ex) -> assertThat(ex.getSuppressed()).singleElement().isInstanceOf(LockLostException.class));
			assertThat(vouchers.claims("D")).isZero();
			assertThat(lockedKeys()).isEmpty();
		});
	}

	@Test
	void lockLostAfterTheCommitKeepsTheResultAndSaysTheTransactionCommitted(CapturedOutput output) {
		transactions(DefaultOrderTransactions.class).run((context) -> {
			Vouchers vouchers = context.getBean(Vouchers.class);
			assertThatExceptionOfType(LockLostAfterCompletionException.class)
				.isThrownBy(() -> vouchers.claimAndLoseLockAfterCommit("H"))
				.satisfies((ex) -> assertThat(ex.getResult()).isEqualTo("claimed H"))
				.satisfies((ex) -> assertThat(ex.isTransactionCommitted()).isTrue())
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("voucher:H"))
				.withMessageContaining("returned normally and its transaction committed, but then: Lock 'voucher:H'");
			assertThat(vouchers.claims("H")).isEqualTo(1);
			assertThat(context.getBean(ReleaseFailures.class).events).singleElement().satisfies((event) -> {
				assertThat(event.isLockLost()).isTrue();
				assertThat(event.getKey()).isEqualTo("voucher:H");
				assertThat(event.getResult()).isEqualTo("claimed H");
				assertThat(event.isTransactionCommitted()).isTrue();
				assertThat(event.getMethod().getName()).isEqualTo("claimAndLoseLockAfterCommit");
				assertThat(event.getSource()).isInstanceOf(Vouchers.class);
			});
			assertThat(output).contains("WARN")
				.contains(
						"claimAndLoseLockAfterCommit(java.lang.String) completed, but its lock could not be released");
		});
	}

	@Test
	void lockLostAfterARollbackOnlyMethodReturnedSaysNothingCommitted() {
		transactions(DefaultOrderTransactions.class).run((context) -> {
			Vouchers vouchers = context.getBean(Vouchers.class);
			assertThatExceptionOfType(LockLostAfterCompletionException.class)
				.isThrownBy(() -> vouchers.claimRollbackOnlyAndLoseLockAfterCompletion("I"))
				.satisfies((ex) -> assertThat(ex.getResult()).isEqualTo("dry run I"))
				.satisfies((ex) -> assertThat(ex.isTransactionCommitted()).isFalse())
				.withMessageContaining("no transaction that began inside the lock committed");
			assertThat(vouchers.claims("I")).isZero();
		});
	}

	@Test
	void lockLostInABeanWithACircularReferenceRollsBack() {
		transactions(DefaultOrderTransactions.class).withUserConfiguration(CircularConfiguration.class)
			.withAllowCircularReferences(true)
			.run((context) -> {
				Vouchers vouchers = context.getBean(Vouchers.class);
				CircularVouchers circular = context.getBean(CircularVouchers.class);
				assertThat(context.getBean(Auditor.class).vouchers).isSameAs(circular);
				assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> circular.claimAndLoseLock("G"));
				assertThat(vouchers.claims("G")).isZero();
			});
	}

	@Test
	void refusesFrozenProxiesThatCannotConfirmOwnership() {
		transactions(DefaultOrderTransactions.class).withUserConfiguration(FrozenProxies.class)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("The proxy of bean 'vouchers' is frozen"));
	}

	@Test
	void fixedLeaseEndingWhileTheMethodRunsRollsBack() {
		transactions(DefaultOrderTransactions.class).run((context) -> {
			Vouchers vouchers = context.getBean(Vouchers.class);
			assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> vouchers.claimSlowly("E"));
			assertThat(vouchers.claims("E")).isZero();
		});
	}

	@Test
	void lockHeldToTheEndCommits() {
		transactions(DefaultOrderTransactions.class).run((context) -> {
			Vouchers vouchers = context.getBean(Vouchers.class);
			assertThat(vouchers.claim("F", Duration.ZERO)).isTrue();
			assertThat(vouchers.claims("F")).isEqualTo(1);
			assertThat(lockedKeys()).isEmpty();
		});
	}

	private static List<Boolean> claimConcurrently(Vouchers vouchers, String code) throws Exception {
		ExecutorService callers = Executors.newFixedThreadPool(2);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<Boolean>> claims = new ArrayList<>();
			for (int i = 0; i < 2; i++) {
				claims.add(callers.submit(() -> {
					start.await();
					return vouchers.claim(code, SLOW_COMMIT);
				}));
			}
			start.countDown();
			List<Boolean> results = new ArrayList<>();
			for (Future<Boolean> claim : claims) {
				results.add(claim.get(30, TimeUnit.SECONDS));
			}
			return results;
		}
		finally {
			callers.shutdownNow();
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class DefaultOrderTransactions {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement(order = 1000)
	static class EarlyTransactions {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAspectJAutoProxy(proxyTargetClass = true)
	static class JdbcConfiguration {

		@Bean
		DataSource dataSource() {
			return new SimpleDriverDataSource(new Driver(),
					"jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
		}

		@Bean
		DataSourceTransactionManager transactionManager(DataSource dataSource) {
			return new DataSourceTransactionManager(dataSource);
		}

		@Bean
		JdbcTemplate jdbcTemplate(DataSource dataSource) {
			JdbcTemplate jdbc = new JdbcTemplate(dataSource);
			jdbc.execute("create table claims (id bigint auto_increment primary key, code varchar(64) not null)");
			return jdbc;
		}

		@Bean
		Vouchers vouchers(JdbcTemplate jdbc, LockClient lockClient, @Value("${distlock.key-prefix}") String prefix) {
			return new Vouchers(jdbc, lockClient, prefix);
		}

		@Bean
		ReleaseFailures releaseFailures() {
			return new ReleaseFailures();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FrozenProxies {

		@Bean
		static BeanFactoryPostProcessor freezeProxies() {
			return (beanFactory) -> beanFactory.getBeanDefinition(AopConfigUtils.AUTO_PROXY_CREATOR_BEAN_NAME)
				.getPropertyValues()
				.add("frozen", true);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CircularConfiguration {

		@Bean
		CircularVouchers circularVouchers(JdbcTemplate jdbc, @Value("${distlock.key-prefix}") String prefix) {
			return new CircularVouchers(jdbc, prefix);
		}

		@Bean
		Auditor auditor() {
			return new Auditor();
		}

	}

	/**
	 * Depends on {@link Auditor}, which depends back on it: its proxy is created early.
	 */
	static class CircularVouchers {

		private final JdbcTemplate jdbc;

		private final String prefix;

		@Autowired
		Auditor auditor;

		CircularVouchers(JdbcTemplate jdbc, String prefix) {
			this.jdbc = jdbc;
			this.prefix = prefix;
		}

		@DistributedLock(key = "'voucher:' + #code")
		@Transactional
		public void claimAndLoseLock(String code) {
			this.jdbc.update("insert into claims (code) values (?)", code);
			redis.delete(redisKey(this.prefix, "voucher:" + code));
		}

	}

	static class ReleaseFailures implements ApplicationListener<LockReleaseFailedEvent> {

		final List<LockReleaseFailedEvent> events = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(LockReleaseFailedEvent event) {
			this.events.add(event);
		}

	}

	static class Auditor {

		@Autowired
		CircularVouchers vouchers;

	}

	static class Vouchers {

		private final JdbcTemplate jdbc;

		private final LockClient lockClient;

		private final String prefix;

		private final List<Boolean> heldAtCompletion = new CopyOnWriteArrayList<>();

		Vouchers(JdbcTemplate jdbc, LockClient lockClient, String prefix) {
			this.jdbc = jdbc;
			this.lockClient = lockClient;
			this.prefix = prefix;
		}

		/**
		 * Insert a claim unless one exists: a check-then-insert on a table without a
		 * unique constraint, whose commit takes {@code commitDelay}.
		 */
		@DistributedLock(key = "'voucher:' + #code", waitTime = "10s")
		@Transactional(isolation = Isolation.READ_COMMITTED)
		public boolean claim(String code, Duration commitDelay) {
			if (claims(code) > 0) {
				return false;
			}
			insert(code);
			LockHandle lock = this.lockClient.obtain("voucher:" + code);
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				@Override
				public void beforeCommit(boolean readOnly) {
					DistributedLockAdviceTests.sleep(commitDelay);
				}

				@Override
				public void afterCompletion(int status) {
					Vouchers.this.heldAtCompletion.add(lock.isHeldByCurrentThread());
				}

			});
			return true;
		}

		@DistributedLock(key = "'voucher:' + #code")
		@Transactional
		public void claimAndLoseLock(String code) {
			insert(code);
			redis.delete(redisKey(this.prefix, "voucher:" + code));
		}

		@DistributedLock(key = "'voucher:' + #code")
		@Transactional
		public String claimAndLoseLockAfterCommit(String code) {
			insert(code);
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				@Override
				public void afterCommit() {
					redis.delete(redisKey(Vouchers.this.prefix, "voucher:" + code));
				}

			});
			return "claimed " + code;
		}

		@DistributedLock(key = "'voucher:' + #code")
		@Transactional
		public String claimRollbackOnlyAndLoseLockAfterCompletion(String code) {
			insert(code);
			TransactionAspectSupport.currentTransactionStatus().setRollbackOnly();
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				@Override
				public void afterCompletion(int status) {
					redis.delete(redisKey(Vouchers.this.prefix, "voucher:" + code));
				}

			});
			return "dry run " + code;
		}

		@DistributedLock(key = "'voucher:' + #code", leaseTime = "200ms")
		@Transactional
		public void claimSlowly(String code) {
			insert(code);
			DistributedLockAdviceTests.sleep(Duration.ofMillis(600));
		}

		public int claims(String code) {
			Integer claims = this.jdbc.queryForObject("select count(*) from claims where code = ?", Integer.class,
					code);
			return (claims != null) ? claims : 0;
		}

		public List<Boolean> heldAtCompletion() {
			return this.heldAtCompletion;
		}

		private void insert(String code) {
			this.jdbc.update("insert into claims (code) values (?)", code);
		}

	}

}
