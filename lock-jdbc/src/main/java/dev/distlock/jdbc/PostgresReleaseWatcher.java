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

import dev.distlock.store.LockStore.Subscription;
import dev.distlock.jdbc.JdbcLockStoreSettings.ListenerConnectionFactory;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The release watcher of a PostgreSQL store: one dedicated connection per store listens
 * on the table's channel, where every release and forced release notifies its key
 * ({@code pg_notify} in the releasing statement, delivered at its commit). A lost
 * connection is opened again after a pause that doubles with each failure in a row (up to
 * {@link #MAX_RECONNECT_DELAY}), with a warning from the
 * {@value #FAILURES_BEFORE_WARNING}th on; every listener then runs once, since releases
 * may have been missed meanwhile. The connection's socket reads are bounded by the
 * command timeout plus a second, and a cheap validity check every {@link #CHECK_INTERVAL}
 * notices a link that went silent (a black-holing network, a frozen proxy), which is then
 * closed and opened again. The driver's notification API
 * ({@code org.postgresql.PGConnection#getNotifications(int)}) is called reflectively, so
 * that the driver stays the application's dependency.
 *
 * @author distlock
 */
final class PostgresReleaseWatcher implements ReleaseWatcher {

	private static final Log logger = LogFactory.getLog(PostgresReleaseWatcher.class);

	private static final AtomicInteger watchers = new AtomicInteger();

	private static final int RECEIVE_MILLIS = 500;

	/**
	 * How often the listening connection is checked.
	 */
	static final Duration CHECK_INTERVAL = Duration.ofSeconds(2);

	/**
	 * The longest pause between two attempts to connect.
	 */
	static final Duration MAX_RECONNECT_DELAY = Duration.ofSeconds(30);

	/**
	 * How many failures in a row are logged at debug level before they are warned about.
	 */
	static final int FAILURES_BEFORE_WARNING = 3;

	private final Duration commandTimeout;

	private int failures;

	private final ReleaseListeners listeners = new ReleaseListeners();

	private final ListenerConnectionFactory connectionFactory;

	private final String channel;

	private final Duration reconnectDelay;

	private final CountDownLatch closed = new CountDownLatch(1);

	private final Thread thread;

	private volatile @Nullable Connection connection;

	PostgresReleaseWatcher(ListenerConnectionFactory connectionFactory, String channel, Duration commandTimeout,
			Duration reconnectDelay) {
		this.connectionFactory = connectionFactory;
		this.channel = channel;
		this.commandTimeout = commandTimeout;
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

	private void listen() {
		while (this.closed.getCount() > 0) {
			try (Connection listening = this.connectionFactory.connect()) {
				this.connection = listening;
				Connections.bound(listening, this.commandTimeout);
				listening.setAutoCommit(true);
				try (Statement statement = listening.createStatement()) {
					statement.execute("LISTEN \"" + this.channel + "\"");
				}
				this.failures = 0;
				// Releases may have gone unheard before this connection listened
				this.listeners.releasedAll();
				receive(listening);
			}
			catch (SQLException | RuntimeException ex) {
				if (this.closed.getCount() > 0) {
					failed(ex);
				}
			}
			finally {
				this.connection = null;
			}
			awaitClose(reconnectDelay());
		}
	}

	/**
	 * Run the listeners of the keys released, until the store closes or the connection
	 * fails or does not answer its periodic check.
	 */
	private void receive(Connection listening) throws SQLException {
		Notifications notifications = new Notifications(listening);
		int checkSeconds = (int) Math.max(1, (this.commandTimeout.toMillis() + 999) / 1000);
		long checked = System.nanoTime();
		while (this.closed.getCount() > 0) {
			for (String key : notifications.receive(RECEIVE_MILLIS)) {
				this.listeners.released(key);
			}
			if (System.nanoTime() - checked >= CHECK_INTERVAL.toNanos()) {
				if (!listening.isValid(checkSeconds)) {
					throw new SQLException(
							"The release listener's connection did not answer its check within " + checkSeconds + " s");
				}
				checked = System.nanoTime();
			}
		}
	}

	private void failed(Exception ex) {
		this.failures++;
		if (this.failures >= FAILURES_BEFORE_WARNING) {
			logger.warn("The release listener of the JDBC lock store failed " + this.failures
					+ " times in a row; it connects again in " + reconnectDelay().toMillis()
					+ " ms, and waiters re-check on their own timers meanwhile: " + ex);
		}
		else {
			logger.debug("The release listener of the JDBC lock store lost its connection; it reconnects", ex);
		}
	}

	/**
	 * Return the pause before the next attempt to connect: the reconnect delay, doubled
	 * for each failure in a row after the first, at most {@link #MAX_RECONNECT_DELAY}.
	 */
	private Duration reconnectDelay() {
		int doublings = Math.min(Math.max(0, this.failures - 1), 16);
		Duration delay = this.reconnectDelay.multipliedBy(1L << doublings);
		return (delay.compareTo(MAX_RECONNECT_DELAY) > 0) ? MAX_RECONNECT_DELAY : delay;
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
			// Aborted, not closed: closing from this thread would reset the connection's
			// network timeout (a pool does) while the listener's read is about to start,
			// and then wait for that read; an abort drops the socket, which ends the
			// read,
			// and the listener's thread closes the connection
			try {
				listening.abort(Runnable::run);
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
