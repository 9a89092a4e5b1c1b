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

package dev.distlock.faults;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The shared resource the workloads protect: two rows per lock key in a database table,
 * read, modified and written back under the lock.
 * <ul>
 * <li>The <em>unfenced</em> row is written whatever happened meanwhile: an overlapping
 * holder makes it lose updates.</li>
 * <li>The <em>fenced</em> row takes the fencing token of the lock: a holder first claims
 * the row with its token, which succeeds only if no higher token claimed it before, and
 * its write succeeds only if its token is still the row's. So a holder whose lease ran
 * out can neither write over a newer holder's update nor over one it read.</li>
 * </ul>
 * Every accepted write also counts itself in {@code accepted} with an atomic increment,
 * so {@code accepted - value} is the number of lost updates of a row that started at
 * zero. Statements run in auto-commit mode; the database does not serialize a read with
 * the write that follows it, only the lock does.
 *
 * @author distlock
 */
final class Resource implements AutoCloseable {

	/**
	 * The kind of a row.
	 */
	enum Kind {

		UNFENCED, FENCED

	}

	private final BlockingQueue<Connection> connections;

	/**
	 * Open {@code size} connections to {@code url} and create the table if needed.
	 * @param url the JDBC URL
	 * @param size how many connections to share among the callers
	 */
	Resource(String url, int size) {
		this.connections = new ArrayBlockingQueue<>(size);
		try {
			for (int i = 0; i < size; i++) {
				this.connections.add(DriverManager.getConnection(url, "sa", ""));
			}
			try (Statement statement = this.connections.peek().createStatement()) {
				statement.execute("CREATE TABLE IF NOT EXISTS resource (name VARCHAR(200) NOT NULL, "
						+ "kind VARCHAR(8) NOT NULL, amount BIGINT NOT NULL, token BIGINT NOT NULL, "
						+ "accepted BIGINT NOT NULL, PRIMARY KEY (name, kind))");
			}
		}
		catch (SQLException ex) {
			close();
			throw new IllegalStateException("Could not open the resource database at " + url, ex);
		}
	}

	/**
	 * Create the rows of {@code key} at zero unless they exist.
	 * @param key the lock key
	 */
	void create(String key) {
		for (Kind kind : Kind.values()) {
			try {
				update("INSERT INTO resource (name, kind, amount, token, accepted) VALUES (?, ?, 0, 0, 0)", key,
						kind.name());
			}
			catch (IllegalStateException ex) {
				if (!(ex.getCause() instanceof SQLException sql) || !"23505".equals(sql.getSQLState())) {
					throw ex;
				}
			}
		}
	}

	/**
	 * Claim the fenced row with {@code token}.
	 * @param key the lock key
	 * @param token the fencing token
	 * @return whether no higher token had claimed it
	 */
	boolean claim(String key, long token) {
		return update("UPDATE resource SET token = ? WHERE name = ? AND kind = 'FENCED' AND token < ?", token, key,
				token) == 1;
	}

	/**
	 * Read a row's value.
	 * @param key the lock key
	 * @param kind the row
	 * @return the value
	 */
	long read(String key, Kind kind) {
		Connection connection = borrow();
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT amount FROM resource WHERE name = ? AND kind = ?")) {
			statement.setString(1, key);
			statement.setString(2, kind.name());
			try (ResultSet result = statement.executeQuery()) {
				if (!result.next()) {
					throw new IllegalStateException("No " + kind + " row for " + key);
				}
				return result.getLong(1);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
		finally {
			this.connections.add(connection);
		}
	}

	/**
	 * Write the unfenced row.
	 * @param key the lock key
	 * @param value the new value
	 */
	void writeUnfenced(String key, long value) {
		update("UPDATE resource SET amount = ?, accepted = accepted + 1 WHERE name = ? AND kind = 'UNFENCED'", value,
				key);
	}

	/**
	 * Write the fenced row if {@code token} still owns it.
	 * @param key the lock key
	 * @param value the new value
	 * @param token the fencing token that claimed the row
	 * @return whether the write was accepted
	 */
	boolean writeFenced(String key, long value, long token) {
		return update("UPDATE resource SET amount = ?, accepted = accepted + 1 "
				+ "WHERE name = ? AND kind = 'FENCED' AND token = ?", value, key, token) == 1;
	}

	/**
	 * Return the lost updates of the rows whose key starts with {@code prefix}: accepted
	 * writes less the value, summed.
	 * @param prefix the key prefix
	 * @param kind the rows
	 * @return the lost updates
	 */
	long lostUpdates(String prefix, Kind kind) {
		return sum("SELECT COALESCE(SUM(accepted - amount), 0) FROM resource WHERE name LIKE ? AND kind = ?", prefix,
				kind);
	}

	/**
	 * Return the accepted writes of the rows whose key starts with {@code prefix}.
	 * @param prefix the key prefix
	 * @param kind the rows
	 * @return the accepted writes
	 */
	long acceptedWrites(String prefix, Kind kind) {
		return sum("SELECT COALESCE(SUM(accepted), 0) FROM resource WHERE name LIKE ? AND kind = ?", prefix, kind);
	}

	private long sum(String sql, String prefix, Kind kind) {
		Connection connection = borrow();
		try (PreparedStatement statement = connection.prepareStatement(sql)) {
			statement.setString(1, prefix.replace("%", "\\%").replace("_", "\\_") + "%");
			statement.setString(2, kind.name());
			try (ResultSet result = statement.executeQuery()) {
				result.next();
				return result.getLong(1);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
		finally {
			this.connections.add(connection);
		}
	}

	private int update(String sql, Object... parameters) {
		Connection connection = borrow();
		try (PreparedStatement statement = connection.prepareStatement(sql)) {
			for (int i = 0; i < parameters.length; i++) {
				statement.setObject(i + 1, parameters[i]);
			}
			return statement.executeUpdate();
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
		finally {
			this.connections.add(connection);
		}
	}

	private Connection borrow() {
		try {
			return this.connections.take();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for a database connection", ex);
		}
	}

	@Override
	public void close() {
		Connection connection;
		while ((connection = this.connections.poll()) != null) {
			try {
				connection.close();
			}
			catch (SQLException ex) {
				// closing anyway
			}
		}
	}

}
