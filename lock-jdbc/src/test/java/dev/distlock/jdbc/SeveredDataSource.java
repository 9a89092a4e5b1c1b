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

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

import javax.sql.DataSource;

/**
 * A {@code DataSource} that can be cut off from its database: while cut off, every new
 * connection is refused as an unreachable database refuses it.
 *
 * @author distlock
 */
public final class SeveredDataSource implements DataSource {

	private final DataSource target;

	private final AtomicBoolean severed = new AtomicBoolean();

	/**
	 * Wrap {@code target}.
	 * @param target the reachable data source
	 */
	public SeveredDataSource(DataSource target) {
		this.target = target;
	}

	/**
	 * Cut the database off, or reach it again.
	 * @param severed whether new connections are refused
	 */
	public void setSevered(boolean severed) {
		this.severed.set(severed);
	}

	@Override
	public Connection getConnection() throws SQLException {
		refuseIfSevered();
		return this.target.getConnection();
	}

	@Override
	public Connection getConnection(String username, String password) throws SQLException {
		refuseIfSevered();
		return this.target.getConnection(username, password);
	}

	private void refuseIfSevered() throws SQLException {
		if (this.severed.get()) {
			throw new SQLTransientConnectionException("Connection refused: the database is unreachable", "08001");
		}
	}

	@Override
	public PrintWriter getLogWriter() throws SQLException {
		return this.target.getLogWriter();
	}

	@Override
	public void setLogWriter(PrintWriter out) throws SQLException {
		this.target.setLogWriter(out);
	}

	@Override
	public void setLoginTimeout(int seconds) throws SQLException {
		this.target.setLoginTimeout(seconds);
	}

	@Override
	public int getLoginTimeout() throws SQLException {
		return this.target.getLoginTimeout();
	}

	@Override
	public Logger getParentLogger() throws SQLFeatureNotSupportedException {
		return this.target.getParentLogger();
	}

	@Override
	public <T> T unwrap(Class<T> type) throws SQLException {
		return this.target.unwrap(type);
	}

	@Override
	public boolean isWrapperFor(Class<?> type) throws SQLException {
		return this.target.isWrapperFor(type);
	}

}
