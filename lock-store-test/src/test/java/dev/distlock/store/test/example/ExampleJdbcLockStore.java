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

package dev.distlock.store.test.example;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import dev.distlock.store.BlockingLockStore;
import dev.distlock.store.InspectionExtension;
import org.jspecify.annotations.Nullable;

/**
 * The example store of the "Writing a store" guide (docs/stores-and-topologies.md): a
 * lock store on one table of an H2 database, written in plain JDBC on
 * {@link BlockingLockStore}, with the required operations and one extension
 * ({@link InspectionExtension}). {@code ExampleJdbcLockStoreContractTests} runs the whole
 * contract kit on it. It shows the store SPI, not a production JDBC store: the database's
 * clock ({@code LOCALTIMESTAMP}) decides expiry, a row is kept after its release so that
 * fencing tokens keep rising, a release remembers its token so that a replay answers as
 * the first did, and releases are noticed by polling the subscribed keys.
 *
 * @author distlock
 */
public class ExampleJdbcLockStore extends BlockingLockStore implements InspectionExtension {

	/** The table, created if missing. */
	static final String SCHEMA = """
			CREATE TABLE IF NOT EXISTS example_lock (
				lock_key VARCHAR(512) PRIMARY KEY,
				owner VARCHAR(128),
				released_by VARCHAR(128),
				expires_at TIMESTAMP(3) NOT NULL,
				fence BIGINT NOT NULL)""";

	private static final String LIVE = "expires_at > LOCALTIMESTAMP(3)";

	private static final String DUPLICATE_KEY = "23505";

	private static final Duration POLL_INTERVAL = Duration.ofMillis(100);

	private final DataSource dataSource;

	private final Map<String, List<Runnable>> listeners = new ConcurrentHashMap<>();

	private final Set<String> seenHeld = ConcurrentHashMap.newKeySet();

	private final ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "example-lock-poller");
		thread.setDaemon(true);
		return thread;
	});

	/**
	 * Create a store on {@code dataSource}, creating the table if it is missing.
	 * @param dataSource the database
	 */
	public ExampleJdbcLockStore(DataSource dataSource) {
		super("example-jdbc", Duration.ofSeconds(2));
		this.dataSource = dataSource;
		update(SCHEMA);
		this.poller.scheduleWithFixedDelay(this::poll, POLL_INTERVAL.toMillis(), POLL_INTERVAL.toMillis(),
				TimeUnit.MILLISECONDS);
	}

	@Override
	protected Attempt doTryAcquire(String key, String token, Duration lease) throws SQLException {
		try {
			return acquireInTransaction(key, token, lease);
		}
		catch (SQLException ex) {
			if (!DUPLICATE_KEY.equals(ex.getSQLState())) {
				throw ex;
			}
			// Another store inserted the key's first row meanwhile: its row lock decides
			// now
			return acquireInTransaction(key, token, lease);
		}
	}

	private Attempt acquireInTransaction(String key, String token, Duration lease) throws SQLException {
		try (Connection connection = this.dataSource.getConnection()) {
			connection.setAutoCommit(false);
			try {
				Attempt attempt = acquire(connection, key, token, lease);
				connection.commit();
				return attempt;
			}
			catch (SQLException ex) {
				connection.rollback();
				throw ex;
			}
		}
	}

	private Attempt acquire(Connection connection, String key, String token, Duration lease) throws SQLException {
		try (PreparedStatement select = connection.prepareStatement("SELECT owner, fence, "
				+ "DATEDIFF(MILLISECOND, LOCALTIMESTAMP(3), expires_at) FROM example_lock WHERE lock_key = ? FOR UPDATE")) {
			select.setString(1, key);
			try (ResultSet row = select.executeQuery()) {
				if (!row.next()) {
					execute(connection, "INSERT INTO example_lock VALUES (?, ?, NULL, "
							+ "DATEADD(MILLISECOND, ?, LOCALTIMESTAMP(3)), 1)", key, token, lease.toMillis());
					return Attempt.granted(1);
				}
				String owner = row.getString(1);
				long fence = row.getLong(2);
				long remaining = row.getLong(3);
				boolean held = owner != null && remaining > 0;
				if (held && !owner.equals(token)) {
					return Attempt.busy(Duration.ofMillis(remaining));
				}
				long granted = held ? fence : fence + 1;
				execute(connection, "UPDATE example_lock SET owner = ?, released_by = NULL, "
						+ "expires_at = DATEADD(MILLISECOND, ?, LOCALTIMESTAMP(3)), fence = ? WHERE lock_key = ?",
						token, lease.toMillis(), granted, key);
				return Attempt.granted(granted);
			}
		}
	}

	@Override
	protected boolean doRelease(String key, String token) throws SQLException {
		if (update("UPDATE example_lock SET owner = NULL, released_by = ? WHERE lock_key = ? AND owner = ? AND " + LIVE,
				token, key, token) == 1) {
			return true;
		}
		return exists("SELECT 1 FROM example_lock WHERE lock_key = ? AND released_by = ?", key, token);
	}

	@Override
	protected boolean doExpireAfter(String key, String token, Duration remaining) throws SQLException {
		return update("UPDATE example_lock SET expires_at = DATEADD(MILLISECOND, ?, LOCALTIMESTAMP(3)) "
				+ "WHERE lock_key = ? AND owner = ? AND " + LIVE, remaining.toMillis(), key, token) == 1;
	}

	@Override
	protected List<RenewalOutcome> doRenew(List<Renewal> renewals, Duration lease) throws SQLException {
		List<RenewalOutcome> outcomes = new ArrayList<>(renewals.size());
		try (Connection connection = this.dataSource.getConnection()) {
			for (Renewal renewal : renewals) {
				int renewed = execute(connection,
						"UPDATE example_lock SET expires_at = DATEADD(MILLISECOND, ?, "
								+ "LOCALTIMESTAMP(3)) WHERE lock_key = ? AND owner = ? AND " + LIVE,
						lease.toMillis(), renewal.key(), renewal.token());
				outcomes.add((renewed == 1) ? RenewalOutcome.RENEWED : RenewalOutcome.LOST);
			}
		}
		return outcomes;
	}

	@Override
	protected boolean doIsOwner(String key, String token) throws SQLException {
		return exists("SELECT 1 FROM example_lock WHERE lock_key = ? AND owner = ? AND " + LIVE, key, token);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The database cannot notify, so one poller per store checks the subscribed keys
	 * every 100 ms and calls their listeners when a key held since the subscription (or
	 * since the last call) is free.
	 */
	@Override
	public Subscription onRelease(String key, Runnable listener) {
		this.listeners.computeIfAbsent(key, (subscribed) -> new CopyOnWriteArrayList<>()).add(listener);
		// Subscribed because the key was held: the first poll that finds it free calls
		this.seenHeld.add(key);
		return () -> this.listeners.computeIfPresent(key, (subscribed, registered) -> {
			registered.remove(listener);
			return registered.isEmpty() ? null : registered;
		});
	}

	@Override
	public CompletionStage<KeyState> inspect(String key) {
		return call(key, "inspect", () -> {
			try (Connection connection = this.dataSource.getConnection();
					PreparedStatement select = connection.prepareStatement("SELECT owner, fence, "
							+ "DATEDIFF(MILLISECOND, LOCALTIMESTAMP(3), expires_at) FROM example_lock WHERE lock_key = ?")) {
				select.setString(1, key);
				try (ResultSet row = select.executeQuery()) {
					if (!row.next()) {
						return new KeyState(null, null, 0);
					}
					String owner = row.getString(1);
					long remaining = row.getLong(3);
					return (owner != null && remaining > 0)
							? new KeyState(owner, Duration.ofMillis(remaining), row.getLong(2))
							: new KeyState(null, null, row.getLong(2));
				}
			}
		});
	}

	@Override
	public CompletionStage<@Nullable String> forceRelease(String key) {
		return call(key, "force-release", () -> {
			try (Connection connection = this.dataSource.getConnection()) {
				connection.setAutoCommit(false);
				try (PreparedStatement select = connection
					.prepareStatement("SELECT owner FROM example_lock WHERE lock_key = ? AND owner IS NOT NULL AND "
							+ LIVE + " FOR UPDATE")) {
					select.setString(1, key);
					String owner = null;
					try (ResultSet row = select.executeQuery()) {
						if (row.next()) {
							owner = row.getString(1);
							execute(connection, "UPDATE example_lock SET owner = NULL WHERE lock_key = ?", key);
						}
					}
					connection.commit();
					return owner;
				}
				catch (SQLException ex) {
					connection.rollback();
					throw ex;
				}
			}
		});
	}

	@Override
	public void close() {
		this.poller.shutdownNow();
		super.close();
	}

	private void poll() {
		Set<String> subscribed = Set.copyOf(this.listeners.keySet());
		if (subscribed.isEmpty()) {
			return;
		}
		try {
			Set<String> held = heldAmong(subscribed);
			for (String key : subscribed) {
				if (held.contains(key)) {
					this.seenHeld.add(key);
				}
				else if (this.seenHeld.remove(key)) {
					this.listeners.getOrDefault(key, List.of()).forEach(Runnable::run);
				}
			}
		}
		catch (SQLException | RuntimeException ex) {
			// The database or a listener failed: the poller goes on, and waiters re-check
			// on their own timer meanwhile
		}
		this.seenHeld.retainAll(this.listeners.keySet());
	}

	private Set<String> heldAmong(Set<String> keys) throws SQLException {
		Set<String> held = new HashSet<>();
		try (Connection connection = this.dataSource.getConnection();
				PreparedStatement statement = prepare(connection,
						"SELECT lock_key FROM example_lock WHERE lock_key = ANY(?) AND owner IS NOT NULL AND " + LIVE,
						(Object) keys.toArray(String[]::new));
				ResultSet rows = statement.executeQuery()) {
			while (rows.next()) {
				held.add(rows.getString(1));
			}
		}
		return held;
	}

	private int update(String sql, Object... arguments) {
		try (Connection connection = this.dataSource.getConnection()) {
			return execute(connection, sql, arguments);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not run " + sql, ex);
		}
	}

	private boolean exists(String sql, Object... arguments) throws SQLException {
		try (Connection connection = this.dataSource.getConnection();
				PreparedStatement statement = prepare(connection, sql, arguments);
				ResultSet rows = statement.executeQuery()) {
			return rows.next();
		}
	}

	private static int execute(Connection connection, String sql, Object... arguments) throws SQLException {
		try (PreparedStatement statement = prepare(connection, sql, arguments)) {
			return statement.executeUpdate();
		}
	}

	private static PreparedStatement prepare(Connection connection, String sql, Object... arguments)
			throws SQLException {
		PreparedStatement statement = connection.prepareStatement(sql);
		for (int i = 0; i < arguments.length; i++) {
			statement.setObject(i + 1, arguments[i]);
		}
		return statement;
	}

}
