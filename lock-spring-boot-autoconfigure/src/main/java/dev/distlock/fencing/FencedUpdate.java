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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.distlock.LogSafe;
import dev.distlock.StaleFencingTokenException;
import dev.distlock.aop.CurrentLock;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.dao.EmptyResultDataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.util.Assert;

/**
 * One guarded update of one row, started by {@link FencedUpdates#table(String)}: the
 * columns to {@link #set set}, the row's {@link #whereId id}, the fence column and the
 * writer's fencing token ({@link #fencedBy(String, LockHold)} and its variants), then
 * {@link #update()}. Every name is checked to be a plain SQL identifier; every value is
 * bound as a parameter.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class FencedUpdate {

	private final JdbcClient jdbc;

	private final String table;

	private final Map<String, @Nullable Object> values = new LinkedHashMap<>();

	private @Nullable String idColumn;

	private @Nullable Object id;

	private @Nullable String fenceColumn;

	private long token;

	private String key = "";

	FencedUpdate(JdbcClient jdbc, String table) {
		this.jdbc = jdbc;
		this.table = table;
	}

	/**
	 * Set a column of the row to a value.
	 * @param column the column, a plain identifier
	 * @param value the value, bound as a parameter
	 * @return this update
	 * @throws IllegalArgumentException if the name is not a plain identifier or the
	 * column is already set
	 */
	public FencedUpdate set(String column, @Nullable Object value) {
		SqlIdentifiers.column("Column", column);
		Assert.isTrue(!this.values.containsKey(column), () -> "Column '" + column + "' is already set");
		this.values.put(column, value);
		return this;
	}

	/**
	 * Name the row to update by its identifying column.
	 * @param column the id column, a plain identifier
	 * @param id the row's id
	 * @return this update
	 * @throws IllegalArgumentException if the name is not a plain identifier or the id is
	 * {@code null}
	 */
	public FencedUpdate whereId(String column, Object id) {
		this.idColumn = SqlIdentifiers.column("Id column", column);
		Assert.notNull(id, "'id' must not be null");
		this.id = id;
		return this;
	}

	/**
	 * Guard the update with the fencing token of a call-owned hold.
	 * @param column the fence column, a plain identifier: a nullable integer column
	 * ({@code BIGINT}) that the update sets to the token
	 * @param hold the hold whose token the row must not have seen yet
	 * @return this update
	 * @throws IllegalArgumentException if the name is not a plain identifier, or the
	 * token is not positive (a read lock's token is 0)
	 */
	public FencedUpdate fencedBy(String column, LockHold hold) {
		Assert.notNull(hold, "'hold' must not be null");
		return fence(column, hold.fencingToken(), hold.key());
	}

	/**
	 * Guard the update with the fencing token of a thread-bound lock the calling thread
	 * holds.
	 * @param column the fence column, a plain identifier
	 * @param lock the held lock
	 * @return this update
	 * @throws IllegalArgumentException if the name is not a plain identifier, or the
	 * token is not positive (a read lock's token is 0)
	 */
	public FencedUpdate fencedBy(String column, LockHandle lock) {
		Assert.notNull(lock, "'lock' must not be null");
		return fence(column, lock.fencingToken(), lock.key());
	}

	/**
	 * Guard the update with a fencing token obtained elsewhere, for example the leader's.
	 * @param column the fence column, a plain identifier
	 * @param token the fencing token, positive
	 * @return this update
	 * @throws IllegalArgumentException if the name is not a plain identifier, or the
	 * token is not positive (a read lock's token is 0)
	 */
	public FencedUpdate fencedBy(String column, long token) {
		return fence(column, token, "");
	}

	/**
	 * Guard the update with the fencing token of the
	 * {@link dev.distlock.annotation.DistributedLock @DistributedLock} method running on
	 * the calling thread ({@link CurrentLock#get()}); a segmented method passes
	 * {@link CurrentLock#segmentHold()} to {@link #fencedBy(String, LockHold)} instead.
	 * @param column the fence column, a plain identifier
	 * @return this update
	 * @throws IllegalStateException if no {@code @DistributedLock} method is running on
	 * this thread, or it locks several keys or one segment
	 * @throws IllegalArgumentException if the name is not a plain identifier, or the
	 * method holds a read lock (token 0)
	 */
	public FencedUpdate fencedByCurrentLock(String column) {
		return fencedBy(column, CurrentLock.get());
	}

	private FencedUpdate fence(String column, long token, String key) {
		SqlIdentifiers.column("Fence column", column);
		if (token == 0) {
			throw new IllegalArgumentException("Fencing token 0 cannot guard a write: it is a read lock's token "
					+ "(read locks share a key and fence nothing); guard writes with a write lock's token");
		}
		Assert.isTrue(token > 0, () -> "Fencing token " + token + " is not positive");
		this.fenceColumn = column;
		this.token = token;
		this.key = key;
		return this;
	}

	/**
	 * Run the update, in the caller's transaction if there is one.
	 * @throws StaleFencingTokenException if the row was already written with this token
	 * or a greater one: nothing was changed
	 * @throws EmptyResultDataAccessException if no row has the id
	 * @throws ConcurrencyFailureException if the row appeared or its fence went back
	 * while the update ran
	 * @throws IllegalStateException if the id or the fence is missing, or a column is set
	 * twice
	 */
	public void update() {
		String idColumn = this.idColumn;
		String fenceColumn = this.fenceColumn;
		if (idColumn == null) {
			throw new IllegalStateException("No row named: call whereId(column, id) before update()");
		}
		if (fenceColumn == null) {
			throw new IllegalStateException("No fencing token: call fencedBy(column, token) before update()");
		}
		Assert.state(!this.values.containsKey(fenceColumn) && !this.values.containsKey(idColumn),
				() -> "The fence column '" + fenceColumn + "' and the id column '" + idColumn
						+ "' are written by the guard, not by set()");
		StringBuilder sql = new StringBuilder("UPDATE ").append(this.table).append(" SET ");
		List<@Nullable Object> params = new ArrayList<>();
		this.values.forEach((column, value) -> {
			sql.append(column).append(" = ?, ");
			params.add(value);
		});
		sql.append(fenceColumn)
			.append(" = ? WHERE ")
			.append(idColumn)
			.append(" = ? AND (")
			.append(fenceColumn)
			.append(" IS NULL OR ")
			.append(fenceColumn)
			.append(" < ?)");
		params.add(this.token);
		params.add(this.id);
		params.add(this.token);
		if (this.jdbc.sql(sql.toString()).params(params).update() == 0) {
			refused(idColumn, fenceColumn);
		}
	}

	/**
	 * Tell why the update changed no row: a missing row or a stale token.
	 */
	private void refused(String idColumn, String fenceColumn) {
		Fence fence = this.jdbc
			.sql("SELECT COUNT(*), MAX(" + fenceColumn + ") FROM " + this.table + " WHERE " + idColumn + " = ?")
			.param(this.id)
			.query((rs, row) -> new Fence(rs.getLong(1), (rs.getObject(2) != null) ? rs.getLong(2) : null))
			.single();
		String resource = this.table + " row with " + idColumn + " = " + LogSafe.escape(String.valueOf(this.id));
		if (fence.rows() == 0) {
			throw new EmptyResultDataAccessException("No " + resource + " to update under fencing token " + this.token,
					1);
		}
		Long current = fence.token();
		if (current != null && current >= this.token) {
			throw new StaleFencingTokenException(this.key, resource, this.token, current);
		}
		throw new ConcurrencyFailureException("The " + resource + " appeared or its fence went back to " + current
				+ " while the update under fencing token " + this.token + " ran; nothing was written");
	}

	private record Fence(long rows, @Nullable Long token) {

	}

}
