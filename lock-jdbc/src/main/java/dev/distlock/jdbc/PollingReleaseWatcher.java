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

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import dev.distlock.store.LockStore.Subscription;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The release watcher of a database that cannot notify (MySQL, MariaDB, H2): one poller
 * per store checks the keys that have listeners every poll interval, in one statement per
 * 500 keys, and runs the listeners of a key it saw held (or that was subscribed to, which
 * happens because it was held) and now finds free. The timer only starts each poll: the
 * poll runs on the store's executor, bounded as every operation is, and the next starts
 * once it ended. While no key has listeners the timer sends nothing, so the database's
 * load is at most one statement per 500 waited keys per poll interval and store.
 *
 * @author distlock
 */
final class PollingReleaseWatcher implements ReleaseWatcher {

	private static final Log logger = LogFactory.getLog(PollingReleaseWatcher.class);

	private final ReleaseListeners listeners = new ReleaseListeners();

	private final Set<String> seenHeld = ConcurrentHashMap.newKeySet();

	private final Connections connections;

	private final LockStatements statements;

	private final AtomicBoolean running = new AtomicBoolean();

	private volatile @Nullable ScheduledFuture<?> polling;

	PollingReleaseWatcher(Connections connections, LockStatements statements) {
		this.connections = connections;
		this.statements = statements;
	}

	/**
	 * Start polling every {@code pollInterval}: {@code timer} starts each poll,
	 * {@code executor} runs it.
	 */
	@Override
	public void start(ScheduledExecutorService timer, Duration pollInterval,
			Function<Callable<@Nullable Void>, CompletionStage<?>> executor) {
		this.polling = timer.scheduleWithFixedDelay(() -> {
			// Nobody waits: no statement, and no hop to the executor
			if (!this.listeners.isEmpty() && this.running.compareAndSet(false, true)) {
				executor.apply(() -> {
					poll();
					return null;
				}).whenComplete((done, failure) -> this.running.set(false));
			}
		}, pollInterval.toMillis(), pollInterval.toMillis(), TimeUnit.MILLISECONDS);
	}

	@Override
	public Subscription subscribe(String key, Runnable listener) {
		// Subscribed because the key was held: the first poll that finds it free calls
		this.seenHeld.add(key);
		return this.listeners.add(key, listener);
	}

	@Override
	public void releasedHere(String key) {
		this.listeners.released(key);
	}

	void poll() {
		Set<String> subscribed = this.listeners.keys();
		this.seenHeld.retainAll(subscribed);
		if (subscribed.isEmpty()) {
			return;
		}
		Set<String> held;
		try {
			held = heldAmong(new ArrayList<>(subscribed));
		}
		catch (SQLException | RuntimeException ex) {
			// Waiters re-check on their own timers meanwhile
			logger.debug("Could not poll the JDBC locks that callers wait for", ex);
			return;
		}
		for (String key : subscribed) {
			if (held.contains(key)) {
				this.seenHeld.add(key);
			}
			else if (this.seenHeld.remove(key)) {
				this.listeners.released(key);
			}
		}
	}

	private Set<String> heldAmong(List<String> keys) throws SQLException {
		return this.connections.withConnection((connection) -> this.statements.heldAmong(connection, keys));
	}

	@Override
	public void close() {
		ScheduledFuture<?> started = this.polling;
		if (started != null) {
			started.cancel(false);
		}
	}

}
