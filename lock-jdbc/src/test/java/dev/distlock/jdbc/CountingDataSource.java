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

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

/**
 * A {@link DataSource} that counts, at the driver's interface, what its connections send
 * to the database: statements executed, and the calls that cost a round trip on the
 * drivers the tests use (statements, commits, rollbacks, isolation changes, and on
 * MariaDB's driver a change of auto-commit mode, which it sends as a statement).
 *
 * @author distlock
 */
final class CountingDataSource {

	private static final Set<String> EXECUTIONS = Set.of("execute", "executeQuery", "executeUpdate",
			"executeLargeUpdate", "executeBatch", "executeLargeBatch");

	private final DataSource target;

	private final boolean autoCommitIsARoundTrip;

	private final AtomicInteger statements = new AtomicInteger();

	private final AtomicInteger roundTrips = new AtomicInteger();

	private final Set<String> threads = ConcurrentHashMap.newKeySet();

	/**
	 * Count what the connections of {@code target} send.
	 * @param target the pool
	 * @param autoCommitIsARoundTrip whether the driver sends a change of auto-commit mode
	 * to the server at once (MariaDB's does; PostgreSQL's keeps it for the next
	 * statement)
	 */
	CountingDataSource(DataSource target, boolean autoCommitIsARoundTrip) {
		this.target = target;
		this.autoCommitIsARoundTrip = autoCommitIsARoundTrip;
	}

	/**
	 * Return the counting {@link DataSource}.
	 */
	DataSource dataSource() {
		return proxy(DataSource.class, this.target, (method, result) -> {
			if (result instanceof Connection connection) {
				return connection(connection);
			}
			return result;
		});
	}

	/**
	 * Return the statements executed so far, and start again from zero.
	 */
	int takeStatements() {
		return this.statements.getAndSet(0);
	}

	/**
	 * Return the round trips so far, and start again from zero.
	 */
	int takeRoundTrips() {
		return this.roundTrips.getAndSet(0);
	}

	/**
	 * Return the names of the threads that executed statements so far, and start again
	 * from none.
	 */
	Set<String> takeThreads() {
		Set<String> taken = Set.copyOf(this.threads);
		this.threads.removeAll(taken);
		return taken;
	}

	private Connection connection(Connection connection) {
		return proxy(Connection.class, connection, (method, result) -> {
			switch (method.getName()) {
				case "commit", "rollback", "setTransactionIsolation" -> this.roundTrips.incrementAndGet();
				case "setAutoCommit" -> {
					if (this.autoCommitIsARoundTrip) {
						this.roundTrips.incrementAndGet();
					}
				}
				default -> {
				}
			}
			if (result instanceof PreparedStatement statement) {
				return proxy(PreparedStatement.class, statement, this::executed);
			}
			if (result instanceof Statement statement) {
				return proxy(Statement.class, statement, this::executed);
			}
			return result;
		});
	}

	private Object executed(Method method, Object result) {
		if (EXECUTIONS.contains(method.getName())) {
			this.statements.incrementAndGet();
			this.roundTrips.incrementAndGet();
		}
		return result;
	}

	@SuppressWarnings("unchecked")
	private <T> T proxy(Class<T> type, T target, After after) {
		InvocationHandler handler = (proxy, method, arguments) -> {
			if (EXECUTIONS.contains(method.getName())) {
				// Before the execution, which may fail (a query timeout, say)
				this.threads.add(Thread.currentThread().getName());
			}
			Object result;
			try {
				result = method.invoke(target, arguments);
			}
			catch (InvocationTargetException ex) {
				throw ex.getCause();
			}
			return after.apply(method, result);
		};
		return (T) Proxy.newProxyInstance(CountingDataSource.class.getClassLoader(), new Class<?>[] { type }, handler);
	}

	/**
	 * What to do with a call's result.
	 */
	@FunctionalInterface
	private interface After {

		Object apply(Method method, Object result);

	}

}
