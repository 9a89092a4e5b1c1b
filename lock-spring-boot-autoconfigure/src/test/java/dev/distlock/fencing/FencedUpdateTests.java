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

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;

import dev.distlock.StaleFencingTokenException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHold;
import dev.distlock.memory.InMemoryLockStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.dao.EmptyResultDataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Tests for {@link FencedUpdates}: a guarded update on a table of its own on PostgreSQL,
 * MariaDB and H2 (a database that does not answer is skipped, with the reason).
 *
 * @author distlock
 */
class FencedUpdateTests {

	private final String table = "fenced_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	private JdbcClient jdbc = JdbcClient.create(Database.H2.dataSource());

	@AfterEach
	void dropTable() {
		this.jdbc.sql("DROP TABLE IF EXISTS " + this.table).update();
	}

	@ParameterizedTest
	@EnumSource(Database.class)
	void refusesAStaleTokenAfterANewerHolderWrote(Database database) throws InterruptedException {
		FencedUpdates fenced = FencedUpdates.of(open(database));
		InMemoryLockStore store = new InMemoryLockStore();
		try (LockClient paused = new DefaultLockClient(store); LockClient next = new DefaultLockClient(store)) {
			LockHold stale = paused.acquire("account:1", Duration.ZERO, Duration.ofMillis(200));
			fenced.table(this.table).set("balance", 10).whereId("id", 1).fencedBy("fence", stale).update();
			try (LockHold newer = next.acquire("account:1", Duration.ofSeconds(10), null)) {
				assertThat(newer.fencingToken()).isGreaterThan(stale.fencingToken());
				fenced.table(this.table).set("balance", 20).whereId("id", 1).fencedBy("fence", newer).update();
				assertThatExceptionOfType(StaleFencingTokenException.class)
					.isThrownBy(() -> fenced.table(this.table)
						.set("balance", 30)
						.whereId("id", 1)
						.fencedBy("fence", stale)
						.update())
					.withMessageContaining("Fencing token " + stale.fencingToken() + " of lock 'account:1' is stale")
					.withMessageContaining("written with fencing token " + newer.fencingToken())
					.satisfies((ex) -> assertThat(ex.getCurrentToken()).isEqualTo(newer.fencingToken()))
					.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("account:1"));
				assertThat(row(1)).isEqualTo(20L + ":" + newer.fencingToken());
			}
		}
	}

	@ParameterizedTest
	@EnumSource(Database.class)
	void refusesTheSameTokenTwiceAndAcceptsAGreaterOne(Database database) {
		FencedUpdates fenced = FencedUpdates.of(open(database));
		fenced.table(this.table).set("balance", 5).whereId("id", 1).fencedBy("fence", 7).update();
		assertThatExceptionOfType(StaleFencingTokenException.class)
			.isThrownBy(() -> fenced.table(this.table).set("balance", 6).whereId("id", 1).fencedBy("fence", 7).update())
			.withMessage("Fencing token 7 is stale: " + this.table + " row with id = 1 was already written with "
					+ "fencing token 7 by a newer holder; nothing was written");
		fenced.table(this.table).set("balance", 8).whereId("id", 1).fencedBy("fence", 8).update();
		assertThat(row(1)).isEqualTo("8:8");
		assertThat(row(2)).isEqualTo("0:null");
	}

	@ParameterizedTest
	@EnumSource(Database.class)
	void tellsAMissingRowFromAStaleToken(Database database) {
		FencedUpdates fenced = FencedUpdates.of(open(database));
		assertThatExceptionOfType(EmptyResultDataAccessException.class)
			.isThrownBy(
					() -> fenced.table(this.table).set("balance", 1).whereId("id", 99).fencedBy("fence", 3).update())
			.withMessage("No " + this.table + " row with id = 99 to update under fencing token 3");
	}

	@Test
	void worksThroughAJdbcTemplateWithOnlyTheFenceSet() {
		this.jdbc = JdbcClient.create(Database.H2.dataSource());
		create();
		FencedUpdates.of(new JdbcTemplate(Database.H2.dataSource()))
			.table(this.table)
			.whereId("id", 2)
			.fencedBy("fence", 4)
			.update();
		assertThat(row(2)).isEqualTo("0:4");
	}

	@Test
	void refusesTokenZeroOfAReadLock() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> FencedUpdates.of(this.jdbc).table("account").whereId("id", 1).fencedBy("fence", 0))
			.withMessageContaining("Fencing token 0 cannot guard a write: it is a read lock's token");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> FencedUpdates.of(this.jdbc).table("account").fencedBy("fence", -3))
			.withMessage("Fencing token -3 is not positive");
	}

	@ParameterizedTest
	@ValueSource(strings = { "account; DROP TABLE account", "account--", "1account", "acc ount", "\"account\"", "a.b.c",
			"", "account)" })
	void refusesATableNameThatIsNoPlainIdentifier(String name) {
		assertThatIllegalArgumentException().isThrownBy(() -> FencedUpdates.of(this.jdbc).table(name))
			.withMessageContaining("is not a plain SQL identifier");
	}

	@ParameterizedTest
	@ValueSource(strings = { "balance = 0, owner", "fence OR 1=1", "x'", "col\n" })
	void refusesAColumnNameThatIsNoPlainIdentifier(String name) {
		FencedUpdate update = FencedUpdates.of(this.jdbc).table("billing.account");
		assertThatIllegalArgumentException().isThrownBy(() -> update.set(name, 1))
			.withMessageContaining("Column '")
			.withMessageContaining("is not a plain SQL identifier");
		assertThatIllegalArgumentException().isThrownBy(() -> update.whereId(name, 1))
			.withMessageContaining("Id column");
		assertThatIllegalArgumentException().isThrownBy(() -> update.fencedBy(name, 1))
			.withMessageContaining("Fence column");
	}

	@Test
	void refusesAnUpdateWithoutItsIdOrToken() {
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> FencedUpdates.of(this.jdbc).table("account").fencedBy("fence", 1).update())
			.withMessageContaining("whereId");
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> FencedUpdates.of(this.jdbc).table("account").whereId("id", 1).update())
			.withMessageContaining("fencedBy");
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> FencedUpdates.of(this.jdbc)
				.table("account")
				.set("fence", 3)
				.whereId("id", 1)
				.fencedBy("fence", 4)
				.update())
			.withMessageContaining("written by the guard");
	}

	private JdbcClient open(Database database) {
		database.assumeAvailable();
		this.jdbc = JdbcClient.create(database.dataSource());
		create();
		return this.jdbc;
	}

	private void create() {
		this.jdbc.sql("CREATE TABLE " + this.table + " (id BIGINT PRIMARY KEY, balance INT NOT NULL, fence BIGINT)")
			.update();
		this.jdbc.sql("INSERT INTO " + this.table + " (id, balance) VALUES (1, 0), (2, 0)").update();
	}

	private String row(long id) {
		return this.jdbc.sql("SELECT balance, fence FROM " + this.table + " WHERE id = ?")
			.param(id)
			.query((rs, row) -> rs.getInt(1) + ":" + rs.getObject(2))
			.single();
	}

	/**
	 * The databases the guarded update is tested on.
	 */
	enum Database {

		POSTGRESQL("jdbc:postgresql://127.0.0.1:5432/test", "postgres"),

		MARIADB("jdbc:mariadb://127.0.0.1:3306/test", "root"),

		H2("jdbc:h2:mem:distlock-fencing-tests;DB_CLOSE_DELAY=-1", "sa");

		private final String url;

		private final String user;

		Database(String url, String user) {
			this.url = url;
			this.user = user;
		}

		DriverManagerDataSource dataSource() {
			return new DriverManagerDataSource(this.url, this.user, "");
		}

		void assumeAvailable() {
			String problem;
			try (Connection connection = dataSource().getConnection()) {
				problem = connection.isValid(3) ? "" : "the connection is not valid";
			}
			catch (SQLException ex) {
				problem = ex.getMessage();
			}
			String reason = problem;
			assumeTrue(reason.isEmpty(), () -> name() + " at " + this.url + " does not answer: " + reason);
		}

	}

}
