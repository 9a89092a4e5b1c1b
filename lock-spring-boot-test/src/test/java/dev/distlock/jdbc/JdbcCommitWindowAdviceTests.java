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

package dev.distlock.jdbc;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.DistributedLockException;
import dev.distlock.annotation.DistributedLock;
import dev.distlock.autoconfigure.LockAspectAutoConfiguration;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The commit window end to end: a {@code @DistributedLock @Transactional} method on the
 * JDBC store, whose transaction runs on the lock table's {@code DataSource}, commits
 * while its fixed lease ends and another instance takes the lock over. The advice's
 * before-commit ownership check locks the lock's row on the transaction's connection, so
 * the other instance never holds the lock while the method's insert is still to commit.
 *
 * @author distlock
 */
class JdbcCommitWindowAdviceTests {

	private static final String TABLE = "distlock_advice_lock";

	private static final String LEDGER = "distlock_advice_ledger";

	@ParameterizedTest
	@EnumSource(names = { "POSTGRESQL", "MARIADB" })
	void aLockedTransactionNeverCommitsAfterAnotherInstanceTookItsLock(TestDatabase database) {
		database.assumeAvailable();
		try (HikariDataSource application = database.pool(4); HikariDataSource other = database.pool(4)) {
			JdbcLockSchema.initialize(application, TABLE);
			new JdbcTemplate(application)
				.execute("CREATE TABLE IF NOT EXISTS " + LEDGER + " (run_id VARCHAR(64) PRIMARY KEY)");
			new ApplicationContextRunner()
				.withConfiguration(
						AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class))
				.withUserConfiguration(Transactions.class)
				.withBean(DataSource.class, () -> application)
				.run((context) -> {
					Claims claims = context.getBean(Claims.class);
					JdbcTemplate otherInstance = new JdbcTemplate(other);
					int committed = 0;
					int committedAfterLoss = 0;
					try (JdbcLockStore otherStore = new JdbcLockStore(other,
							JdbcLockStoreSettings.builder().tableName(TABLE).build())) {
						for (int i = 0; i < 20; i++) {
							String key = "advice:" + UUID.randomUUID();
							String runId = UUID.randomUUID().toString();
							CompletableFuture<Boolean> takeOver = CompletableFuture
								.supplyAsync(() -> Takeover.takeOverAndSeeCommit(otherStore, key, "other:" + runId,
										() -> exists(otherInstance, runId)));
							try {
								claims.claim(key, runId);
							}
							catch (DistributedLockException ex) {
								// Rolled back, or committed and then found lost at
								// release
							}
							boolean sawCommit = takeOver.get(10, TimeUnit.SECONDS);
							if (exists(otherInstance, runId)) {
								committed++;
								committedAfterLoss += sawCommit ? 0 : 1;
							}
							otherStore.release(key, "other:" + runId).toCompletableFuture().get(5, TimeUnit.SECONDS);
						}
					}
					assertThat(committedAfterLoss).as("committed after loss, of %s committed", committed).isZero();
					assertThat(committed).as("committed of 20 runs").isPositive();
				});
		}
	}

	private static boolean exists(JdbcTemplate jdbc, String runId) {
		return !jdbc.queryForList("SELECT run_id FROM " + LEDGER + " WHERE run_id = ?", runId).isEmpty();
	}

	static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class Transactions {

		@Bean(destroyMethod = "close")
		JdbcLockStore lockStore(DataSource dataSource) {
			return new JdbcLockStore(dataSource, JdbcLockStoreSettings.builder().tableName(TABLE).build());
		}

		@Bean
		DataSourceTransactionManager transactionManager(DataSource dataSource) {
			return new DataSourceTransactionManager(dataSource);
		}

		@Bean
		Claims claims(DataSource dataSource) {
			return new Claims(new JdbcTemplate(dataSource));
		}

	}

	/**
	 * A locked transactional service whose commit comes near the end of its lease, with a
	 * slow flush after the ownership check.
	 */
	static class Claims {

		private final JdbcTemplate jdbc;

		Claims(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@DistributedLock(key = "#key", leaseTime = "400ms")
		@Transactional
		public void claim(String key, String runId) {
			this.jdbc.update("INSERT INTO " + LEDGER + " (run_id) VALUES (?)", runId);
			sleep(340 + ThreadLocalRandom.current().nextLong(90));
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
				@Override
				public void beforeCommit(boolean readOnly) {
					sleep(150);
				}
			});
		}

	}

}
