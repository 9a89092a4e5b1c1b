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

import java.time.Duration;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

import org.junit.jupiter.api.Test;

import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The settings of the JDBC store and the detection of its dialect refuse bad input with
 * the name of what was wrong.
 *
 * @author distlock
 */
class JdbcLockStoreSettingsTests {

	@Test
	void defaultsAreTheDocumentedOnes() {
		JdbcLockStoreSettings settings = JdbcLockStoreSettings.defaults();
		assertThat(settings.tableName()).isEqualTo("distlock_lock");
		assertThat(settings.pollInterval()).isEqualTo(Duration.ofMillis(10));
		assertThat(settings.commandTimeout()).isEqualTo(Duration.ofSeconds(3));
		assertThat(settings.maxKeyLength()).isEqualTo(512);
		assertThat(settings.cleanupBatchSize()).isEqualTo(500);
		assertThat(settings.cleanupInterval()).isEqualTo(Duration.ofMinutes(1));
		assertThat(settings.listenerConnectionFactory()).isNull();
	}

	@Test
	void refusesATableNameThatIsNoPlainIdentifierNamingTheProperty() {
		assertThatIllegalArgumentException().isThrownBy(() -> JdbcLockStoreSettings.builder().tableName("locks; drop"))
			.withMessageContaining("distlock.jdbc.table-name")
			.withMessageContaining("locks; drop");
		assertThatIllegalArgumentException().isThrownBy(() -> JdbcLockStoreSettings.builder().tableName("1locks"))
			.withMessageContaining("distlock.jdbc.table-name");
		assertThatIllegalArgumentException().isThrownBy(() -> JdbcLockStoreSettings.builder().tableName("l".repeat(49)))
			.withMessageContaining("at most 48 characters");
	}

	@Test
	void refusesDurationsAndSizesThatAreNotPositiveNamingTheSetting() {
		JdbcLockStoreSettings.Builder builder = JdbcLockStoreSettings.builder();
		assertThatIllegalArgumentException().isThrownBy(() -> builder.commandTimeout(Duration.ZERO))
			.withMessageContaining("'commandTimeout'");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.pollInterval(Duration.ofMillis(-1)))
			.withMessageContaining("'pollInterval'");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.cleanupInterval(Duration.ZERO))
			.withMessageContaining("'cleanupInterval'");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.maxKeyLength(0))
			.withMessageContaining("'maxKeyLength'");
		assertThatIllegalArgumentException().isThrownBy(() -> builder.cleanupBatchSize(0))
			.withMessageContaining("'cleanupBatchSize'");
	}

	@Test
	void refusesACommandTimeoutThatItsStatementAndNetworkTimeoutsCouldNotCarry() {
		// Once cast to int seconds, ten thousand days would have been a negative timeout
		assertThatIllegalArgumentException()
			.isThrownBy(() -> JdbcLockStoreSettings.builder().commandTimeout(Duration.ofDays(10_000)))
			.withMessageContaining("'commandTimeout' must be at most PT24H");
		JdbcLockStoreSettings.builder().commandTimeout(JdbcLockStoreSettings.MAX_COMMAND_TIMEOUT).build();
		assertThat(Connections.networkTimeoutMillis(Duration.ofMillis(1500))).isEqualTo(3000);
		assertThat(Connections.networkTimeoutMillis(JdbcLockStoreSettings.MAX_COMMAND_TIMEOUT)).isEqualTo(86_401_000);
	}

	@Test
	void detectsTheSupportedProductsAndNamesAnUnsupportedOne() {
		assertThat(JdbcDialect.of("PostgreSQL")).isEqualTo(JdbcDialect.POSTGRESQL);
		assertThat(JdbcDialect.of("MySQL")).isEqualTo(JdbcDialect.MYSQL);
		assertThat(JdbcDialect.of("MariaDB")).isEqualTo(JdbcDialect.MYSQL);
		assertThat(JdbcDialect.of("H2")).isEqualTo(JdbcDialect.H2);
		assertThatIllegalStateException().isThrownBy(() -> JdbcDialect.of("Oracle"))
			.withMessageContaining("does not support Oracle");
	}

	@Test
	void theShippedScriptsNameTheConfiguredTable() {
		for (JdbcDialect dialect : JdbcDialect.values()) {
			String script = JdbcLockSchema.script(dialect, "app_locks");
			assertThat(script).contains("CREATE TABLE IF NOT EXISTS app_locks (")
				.doesNotContain("_expires_idx")
				.doesNotContain("distlock_lock");
			assertThat(JdbcLockSchema.statements(script)).isNotEmpty()
				.allMatch((statement) -> !statement.endsWith(";"));
		}
	}

	@Test
	void theExecutorHasAsManyThreadsAsThePoolHasConnectionsUnlessSet() {
		try (HikariDataSource pool = new HikariDataSource()) {
			pool.setMaximumPoolSize(7);
			assertThat(JdbcLockStore.threads(JdbcLockStoreSettings.defaults(), pool)).isEqualTo(7);
			assertThat(JdbcLockStore.threads(JdbcLockStoreSettings.builder().threads(3).build(), pool)).isEqualTo(3);
		}
		DataSource notAPool = new SimpleDriverDataSource();
		assertThat(JdbcLockStore.threads(JdbcLockStoreSettings.defaults(), notAPool))
			.isEqualTo(JdbcLockStore.DEFAULT_POOL_SIZE);
		assertThatIllegalArgumentException().isThrownBy(() -> JdbcLockStoreSettings.builder().threads(-1))
			.withMessage("'threads' must not be negative, but was -1");
	}

}
