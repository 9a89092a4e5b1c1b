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

import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.core.LockStore.Subscription;
import dev.distlock.jdbc.JdbcLockStoreSettings.ListenerConnectionFactory;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The release watcher of a PostgreSQL store: one dedicated connection per store listens
 * on the table's channel, where every release and forced release notifies its key
 * ({@code pg_notify} in the releasing statement, delivered at its commit). A lost
 * connection is opened again after a pause; every listener then runs once, since releases
 * may have been missed meanwhile. The driver's notification API
 * ({@code org.postgresql.PGConnection#getNotifications(int)}) is called reflectively, so
 * that the driver stays the application's dependency.
 *
 * @author distlock
 */
final class PostgresReleaseWatcher implements ReleaseWatcher {

	private static final Log logger = LogFactory.getLog(PostgresReleaseWatcher.class);

	private static final AtomicInteger watchers = new AtomicInteger();

	private static final int RECEIVE_MILLIS = 500;

	private final ReleaseListeners listeners = new ReleaseListeners();

	private final ListenerConnectionFactory connectionFactory;

	private final String channel;

	private final Duration reconnectDelay;

	private final CountDownLatch closed = new CountDownLatch(1);

	private final Thread thread;

	private final AtomicInteger connects = new AtomicInteger();

	private volatile @Nullable Connection connection;

	PostgresReleaseWatcher(ListenerConnectionFactory connectionFactory, String channel, Duration reconnectDelay) {
		this.connectionFactory = connectionFactory;
		this.channel = channel;
		this.reconnectDelay = reconnectDelay;
		this.thread = new Thread(this::listen, "distlock-jdbc-listener-" + watchers.incrementAndGet());
		this.thread.setDaemon(true);
		this.thread.start();
	}

	@Override
	public Subscription subscribe(String key, Runnable listener) {
		return this.listeners.add(key, listener);
	}

	@Override
	public void releasedHere(String key) {
		// The notification of the release comes back on the channel
	}

	/**
	 * Return how many times the listener connected, for tests.
	 */
	int connects() {
		return this.connects.get();
	}

	/**
	 * Return the listening connection, for tests that cut it.
	 */
	@Nullable Connection connection() {
		return this.connection;
	}

	private void listen() {
		while (this.closed.getCount() > 0) {
			try (Connection listening = this.connectionFactory.connect()) {
				this.connection = listening;
				listening.setAutoCommit(true);
				try (Statement statement = listening.createStatement()) {
					statement.execute("LISTEN \"" + this.channel + "\"");
				}
				this.connects.incrementAndGet();
				// Releases may have gone unheard before this connection listened
				this.listeners.releasedAll();
				Notifications notifications = new Notifications(listening);
				while (this.closed.getCount() > 0) {
					for (String key : notifications.receive(RECEIVE_MILLIS)) {
						this.listeners.released(key);
					}
				}
			}
			catch (SQLException | RuntimeException ex) {
				if (this.closed.getCount() > 0) {
					logger.debug("The release listener of the JDBC lock store lost its connection; it reconnects", ex);
				}
			}
			finally {
				this.connection = null;
			}
			awaitClose(this.reconnectDelay);
		}
	}

	private void awaitClose(Duration delay) {
		try {
			this.closed.await(delay.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.closed.countDown();
		}
	}

	@Override
	public void close() {
		this.closed.countDown();
		Connection listening = this.connection;
		if (listening != null) {
			try {
				listening.close();
			}
			catch (SQLException ex) {
				logger.debug("Could not close the release listener's connection", ex);
			}
		}
	}

	/**
	 * The notifications of one listening connection, through the PostgreSQL driver's own
	 * interface.
	 */
	private final class Notifications {

		private final Object pgConnection;

		private final Method getNotifications;

		private final Method getName;

		private final Method getParameter;

		Notifications(Connection connection) throws SQLException {
			try {
				ClassLoader classLoader = connection.getClass().getClassLoader();
				Class<?> type = Class.forName("org.postgresql.PGConnection", false, classLoader);
				Class<?> notification = Class.forName("org.postgresql.PGNotification", false, classLoader);
				this.pgConnection = connection.unwrap(type);
				this.getNotifications = type.getMethod("getNotifications", int.class);
				this.getName = notification.getMethod("getName");
				this.getParameter = notification.getMethod("getParameter");
			}
			catch (ReflectiveOperationException ex) {
				throw new SQLException("The PostgreSQL driver has no PGConnection.getNotifications(int)", ex);
			}
		}

		/**
		 * Wait up to {@code millis} for notifications, and return the keys released on
		 * the store's channel.
		 */
		List<String> receive(int millis) throws SQLException {
			Object received;
			try {
				received = this.getNotifications.invoke(this.pgConnection, millis);
			}
			catch (InvocationTargetException ex) {
				if (ex.getCause() instanceof SQLException failure) {
					throw failure;
				}
				throw new SQLException("Could not receive notifications", ex.getCause());
			}
			catch (IllegalAccessException ex) {
				throw new SQLException("Could not receive notifications", ex);
			}
			if (received == null) {
				return List.of();
			}
			List<String> keys = new ArrayList<>();
			for (int i = 0; i < Array.getLength(received); i++) {
				Object notification = Array.get(received, i);
				if (PostgresReleaseWatcher.this.channel.equals(read(this.getName, notification))) {
					String key = read(this.getParameter, notification);
					if (key != null) {
						keys.add(key);
					}
				}
			}
			return keys;
		}

		private static @Nullable String read(Method getter, Object notification) throws SQLException {
			try {
				return (String) getter.invoke(notification);
			}
			catch (ReflectiveOperationException ex) {
				throw new SQLException("Could not read a notification's " + getter.getName(), ex);
			}
		}

	}

}
