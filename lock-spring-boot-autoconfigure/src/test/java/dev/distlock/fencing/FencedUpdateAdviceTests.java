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

package dev.distlock.fencing;

import java.util.Arrays;
import java.util.UUID;

import dev.distlock.StaleFencingTokenException;
import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.LockMode;
import dev.distlock.autoconfigure.LockAspectAutoConfiguration;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link FencedUpdate#fencedByCurrentLock(String)} in a
 * {@code @DistributedLock} method, on the in-memory store and an H2 table.
 *
 * @author distlock
 */
class FencedUpdateAdviceTests {

	private static final String[] BOOT_AUTO_CONFIGURATIONS = {
			"org.springframework.boot.autoconfigure.aop.AopAutoConfiguration" };

	private final String table = "fenced_advice_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	private final JdbcClient jdbc = JdbcClient.create(h2());

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withClassLoader(new FilteredClassLoader("dev.distlock.redis", "org.springframework.data.redis", "io.lettuce"))
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class))
		.withConfiguration(AutoConfigurations.of(Arrays.stream(BOOT_AUTO_CONFIGURATIONS)
			.filter((name) -> ClassUtils.isPresent(name, null))
			.map((name) -> ClassUtils.resolveClassName(name, null))
			.toArray(Class<?>[]::new)))
		.withPropertyValues("distlock.store=memory")
		.withBean(Accounts.class, () -> new Accounts(FencedUpdates.of(this.jdbc), this.table));

	@Test
	void guardsAWriteWithTheTokenOfTheRunningLockedMethod() {
		this.jdbc.sql("CREATE TABLE " + this.table + " (id BIGINT PRIMARY KEY, balance INT NOT NULL, fence BIGINT)")
			.update();
		this.jdbc.sql("INSERT INTO " + this.table + " (id, balance) VALUES (1, 0)").update();
		this.contextRunner.run((context) -> {
			Accounts accounts = context.getBean(Accounts.class);
			accounts.credit(1, 10);
			long fence = this.jdbc.sql("SELECT fence FROM " + this.table).query(Long.class).single();
			assertThat(fence).isPositive();
			this.jdbc.sql("UPDATE " + this.table + " SET fence = ?").param(fence + 1_000_000).update();
			assertThatExceptionOfType(StaleFencingTokenException.class).isThrownBy(() -> accounts.credit(1, 20))
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("account:1"))
				.satisfies((ex) -> assertThat(ex.getCurrentToken()).isEqualTo(fence + 1_000_000));
			assertThatIllegalArgumentException().isThrownBy(() -> accounts.creditUnderReadLock(1, 30))
				.withMessageContaining("it is a read lock's token");
			assertThatIllegalStateException().isThrownBy(() -> accounts.creditUnlocked(1, 40))
				.withMessage("No @DistributedLock method is running on this thread");
			assertThat(this.jdbc.sql("SELECT balance FROM " + this.table).query(Integer.class).single()).isEqualTo(10);
		});
		this.jdbc.sql("DROP TABLE " + this.table).update();
	}

	private static JdbcDataSource h2() {
		JdbcDataSource dataSource = new JdbcDataSource();
		dataSource.setURL("jdbc:h2:mem:distlock-fencing-advice-tests;DB_CLOSE_DELAY=-1");
		return dataSource;
	}

	public static class Accounts {

		private final FencedUpdates fenced;

		private final String table;

		Accounts(FencedUpdates fenced, String table) {
			this.fenced = fenced;
			this.table = table;
		}

		@DistributedLock(key = "'account:' + #id")
		public void credit(long id, int balance) {
			creditUnlocked(id, balance);
		}

		@DistributedLock(key = "'account:' + #id", mode = LockMode.READ)
		public void creditUnderReadLock(long id, int balance) {
			creditUnlocked(id, balance);
		}

		public void creditUnlocked(long id, int balance) {
			this.fenced.table(this.table)
				.set("balance", balance)
				.whereId("id", id)
				.fencedByCurrentLock("fence")
				.update();
		}

	}

}
