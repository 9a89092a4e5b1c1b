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

import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * The SQL of a {@link JdbcLockStore} for one dialect and table. Every statement reads the
 * time from the database's clock ({@code now} below, in milliseconds since the epoch). A
 * row holds a lock when it is not released and its {@code expires_at} is still ahead of
 * the database's clock.
 *
 * @author distlock
 */
final class LockSql {

	private static final String COLUMNS = "lock_key, owner_token, released, expires_at, fencing_token";

	final JdbcDialect dialect;

	final String table;

	/** The PostgreSQL notification channel of releases: the table's name. */
	final String channel;

	final String readRow;

	final String insertRow;

	final String nextFence;

	final String grant;

	final String extend;

	final String release;

	final String releasedBy;

	final String expireAfter;

	final String isOwner;

	final String isOwnerInTransaction;

	final String inspect;

	final String forceRelease;

	final String notify;

	final String cleanup;

	LockSql(JdbcDialect dialect, String table) {
		this.dialect = dialect;
		this.table = JdbcLockStoreSettings.validTableName(table);
		this.channel = table.toLowerCase(Locale.ROOT);
		String now = dialect.nowMillis();
		String live = "released = FALSE AND expires_at > " + now;
		this.readRow = "SELECT owner_token, released, fencing_token, expires_at - " + now + ", "
				+ ((dialect == JdbcDialect.MYSQL)
						? "GREATEST(fencing_token + 1, TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)))"
						: "0")
				+ " FROM " + table + " WHERE lock_key = ? FOR UPDATE";
		this.insertRow = switch (dialect) {
			case POSTGRESQL -> "INSERT INTO " + table + " (" + COLUMNS + ") VALUES (?, NULL, TRUE, 0, 0) "
					+ "ON CONFLICT (lock_key) DO NOTHING";
			case MYSQL -> "INSERT INTO " + table + " (" + COLUMNS + ") VALUES (?, NULL, TRUE, 0, 0) "
					+ "ON DUPLICATE KEY UPDATE lock_key = lock_key";
			case H2 -> "INSERT INTO " + table + " (" + COLUMNS + ") VALUES (?, NULL, TRUE, 0, 0)";
		};
		this.nextFence = switch (dialect) {
			case POSTGRESQL -> "SELECT nextval('" + table + "_fence_seq')";
			case H2 -> "SELECT NEXT VALUE FOR " + table + "_fence_seq";
			case MYSQL -> "";
		};
		this.grant = "UPDATE " + table + " SET owner_token = ?, released = FALSE, expires_at = " + now
				+ " + ?, fencing_token = ? WHERE lock_key = ?";
		this.extend = "UPDATE " + table + " SET expires_at = " + now + " + ? WHERE lock_key = ?";
		String released = "UPDATE " + table + " SET released = TRUE, expires_at = " + now
				+ " WHERE lock_key = ? AND owner_token = ? AND " + live;
		this.release = (dialect == JdbcDialect.POSTGRESQL)
				? "WITH released AS (" + released + " RETURNING lock_key) SELECT pg_notify(?, lock_key) FROM released"
				: released;
		this.releasedBy = "SELECT 1 FROM " + table + " WHERE lock_key = ? AND owner_token = ? AND released = TRUE";
		this.expireAfter = "UPDATE " + table + " SET expires_at = " + now
				+ " + ? WHERE lock_key = ? AND owner_token = ? AND " + live;
		this.isOwner = "SELECT 1 FROM " + table + " WHERE lock_key = ? AND owner_token = ? AND " + live;
		this.isOwnerInTransaction = this.isOwner + dialect.shareLock();
		this.inspect = "SELECT owner_token, released, fencing_token, expires_at - " + now + " FROM " + table
				+ " WHERE lock_key = ?";
		this.forceRelease = "UPDATE " + table + " SET owner_token = NULL, released = TRUE, expires_at = " + now
				+ " WHERE lock_key = ?";
		this.notify = "SELECT pg_notify(?, ?)";
		this.cleanup = switch (dialect) {
			case POSTGRESQL -> "DELETE FROM " + table + " WHERE lock_key IN (SELECT lock_key FROM " + table
					+ " WHERE expires_at < " + now + " - ? LIMIT ? FOR UPDATE SKIP LOCKED)";
			case MYSQL -> "DELETE FROM " + table + " WHERE expires_at < " + now + " - ? LIMIT ?";
			case H2 -> "DELETE FROM " + table + " WHERE expires_at < " + now + " - ? FETCH FIRST ? ROWS ONLY";
		};
	}

	/**
	 * Return the renewal of {@code count} locks in one statement; on PostgreSQL it
	 * returns the renewed keys and tokens.
	 */
	String renew(int count) {
		String update = "UPDATE " + this.table + " SET expires_at = " + this.dialect.nowMillis()
				+ " + ? WHERE released = FALSE AND expires_at > " + this.dialect.nowMillis() + " AND " + pairs(count);
		return (this.dialect == JdbcDialect.POSTGRESQL) ? update + " RETURNING lock_key, owner_token" : update;
	}

	/**
	 * Return the select of the locks among {@code count} key and token pairs that their
	 * tokens hold.
	 */
	String owned(int count) {
		return "SELECT lock_key, owner_token FROM " + this.table + " WHERE released = FALSE AND expires_at > "
				+ this.dialect.nowMillis() + " AND " + pairs(count);
	}

	/**
	 * Return the select of the held keys among {@code count} keys.
	 */
	String held(int count) {
		return "SELECT lock_key FROM " + this.table + " WHERE released = FALSE AND expires_at > "
				+ this.dialect.nowMillis() + " AND lock_key IN (" + "?, ".repeat(count - 1) + "?)";
	}

	private static String pairs(int count) {
		return "(lock_key, owner_token) IN (" + "(?, ?), ".repeat(count - 1) + "(?, ?))";
	}

	/**
	 * Bind a key or token: bytes of UTF-8 for the binary columns of MySQL and MariaDB.
	 */
	void bindText(PreparedStatement statement, int index, String text) throws SQLException {
		if (this.dialect == JdbcDialect.MYSQL) {
			statement.setBytes(index, text.getBytes(StandardCharsets.UTF_8));
		}
		else {
			statement.setString(index, text);
		}
	}

	/**
	 * Read a key or token column.
	 */
	@Nullable String readText(ResultSet row, int column) throws SQLException {
		if (this.dialect == JdbcDialect.MYSQL) {
			byte[] bytes = row.getBytes(column);
			return (bytes != null) ? new String(bytes, StandardCharsets.UTF_8) : null;
		}
		return row.getString(column);
	}

}
