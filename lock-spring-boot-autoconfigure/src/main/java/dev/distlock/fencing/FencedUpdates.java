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

import javax.sql.DataSource;

import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.util.Assert;

/**
 * Guarded updates of rows that record the fencing token they were last written with: an
 * update carries the writer's token and changes the row only if the row's token is older,
 * so a holder whose lease ran out (a long pause, a lock taken over) cannot overwrite what
 * a newer holder wrote. Works with every store, in the caller's transaction:
 * <pre class="code">
 * FencedUpdates fenced = FencedUpdates.of(jdbcClient);
 *
 * &#064;DistributedLock(key = "'account:' + #id")
 * &#064;Transactional
 * public void credit(long id, long amount) {
 *     fenced.table("account")
 *         .set("balance", balanceAfter(id, amount))
 *         .whereId("id", id)
 *         .fencedByCurrentLock("fencing_token")
 *         .update();
 * }
 * </pre> The statement is
 * {@code UPDATE account SET balance = ?, fencing_token = ? WHERE id = ? AND (fencing_token IS NULL OR fencing_token < ?)};
 * when it changes no row, the update tells a stale token
 * ({@link dev.distlock.StaleFencingTokenException}) from a missing row
 * ({@link org.springframework.dao.EmptyResultDataAccessException}).
 *
 * @author distlock
 * @since 0.1.0
 * @see FencedUpdate
 */
public final class FencedUpdates {

	private final JdbcClient jdbc;

	private FencedUpdates(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Return guarded updates through a {@code JdbcClient}.
	 * @param jdbc the client
	 * @return the guarded updates
	 */
	public static FencedUpdates of(JdbcClient jdbc) {
		Assert.notNull(jdbc, "'jdbc' must not be null");
		return new FencedUpdates(jdbc);
	}

	/**
	 * Return guarded updates through a {@code JdbcTemplate} or other
	 * {@code JdbcOperations}.
	 * @param jdbc the template
	 * @return the guarded updates
	 */
	public static FencedUpdates of(JdbcOperations jdbc) {
		Assert.notNull(jdbc, "'jdbc' must not be null");
		return new FencedUpdates(JdbcClient.create(jdbc));
	}

	/**
	 * Return guarded updates on a {@code DataSource}, joining its Spring-managed
	 * transactions as a {@code JdbcTemplate} does.
	 * @param dataSource the data source
	 * @return the guarded updates
	 */
	public static FencedUpdates of(DataSource dataSource) {
		Assert.notNull(dataSource, "'dataSource' must not be null");
		return new FencedUpdates(JdbcClient.create(dataSource));
	}

	/**
	 * Start a guarded update of one row of {@code table}.
	 * @param table the table, a plain identifier, optionally qualified by its schema
	 * ({@code "billing.account"})
	 * @return the update to complete
	 * @throws IllegalArgumentException if the name is not a plain identifier
	 */
	public FencedUpdate table(String table) {
		return new FencedUpdate(this.jdbc, SqlIdentifiers.table(table));
	}

}
