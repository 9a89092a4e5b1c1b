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

package dev.distlock.zookeeper;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;

import dev.distlock.store.LockStore.Subscription;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.Watcher.Event.EventType;

/**
 * The release notifications of the store: one watch per key that a local caller listens
 * to, shared by its listeners, on the key's holder node and on its readers' container
 * alone (see {@link LockPaths}), so that queue nodes coming and going wake nobody, and
 * the last reader's leaving (which deletes the container) wakes the listeners. Where the
 * server has them (ZooKeeper 3.6 and later) the watch is a persistent one, and the holder
 * node's deletion runs the listeners; on an older server it is a one-shot watch, set
 * again each time it fires. After a reconnect every watch is set again and every listener
 * runs once, since releases may have been missed meanwhile.
 *
 * @author distlock
 * @since 0.1.0
 */
final class KeyWatches {

	private static final Log logger = LogFactory.getLog(KeyWatches.class);

	private final CuratorFramework client;

	private final LockPaths paths;

	private final Map<String, KeyWatch> watches = new ConcurrentHashMap<>();

	private volatile boolean persistent = true;

	KeyWatches(CuratorFramework client, LockPaths paths) {
		this.client = client;
		this.paths = paths;
	}

	Subscription subscribe(String key, Runnable listener) {
		KeyWatch[] added = new KeyWatch[1];
		KeyWatch watch = this.watches.compute(key, (name, existing) -> {
			KeyWatch current = (existing != null) ? existing
					: new KeyWatch(List.of(this.paths.holderPath(name), this.paths.readersPath(name)));
			if (existing == null) {
				added[0] = current;
			}
			current.listeners.add(listener);
			return current;
		});
		if (added[0] != null) {
			arm(added[0]);
		}
		return () -> unsubscribe(key, watch, listener);
	}

	/**
	 * Set every watch again and run every listener once: releases may have been missed
	 * while the connection was down.
	 */
	void reconnected() {
		for (KeyWatch watch : this.watches.values()) {
			arm(watch);
			watch.notifyListeners();
		}
	}

	void close() {
		this.watches.values().forEach(this::disarm);
		this.watches.clear();
	}

	private void unsubscribe(String key, KeyWatch watch, Runnable listener) {
		boolean[] emptied = new boolean[1];
		this.watches.computeIfPresent(key, (name, current) -> {
			if (current != watch) {
				return current;
			}
			current.listeners.remove(listener);
			emptied[0] = current.listeners.isEmpty();
			return emptied[0] ? null : current;
		});
		if (emptied[0]) {
			disarm(watch);
		}
	}

	private void arm(KeyWatch watch) {
		for (String path : watch.paths) {
			arm(watch, path);
		}
	}

	private void arm(KeyWatch watch, String path) {
		try {
			if (this.persistent) {
				this.client.watchers()
					.add()
					.withMode(AddWatchMode.PERSISTENT)
					.inBackground((client, event) -> armed(watch, event))
					.usingWatcher(watch)
					.forPath(path);
			}
			else {
				this.client.checkExists()
					.usingWatcher(watch)
					.inBackground((client, event) -> armed(watch, event))
					.forPath(path);
			}
		}
		catch (Exception ex) {
			logger.debug("Could not watch " + path + "; waiters re-check on their timer", ex);
		}
	}

	private void armed(KeyWatch watch, CuratorEvent event) throws Exception {
		Code code = Background.code(event);
		if (code == Code.UNIMPLEMENTED && this.persistent) {
			logger.info("The ZooKeeper server has no persistent watches (before 3.6): waiting uses one-shot watches");
			this.persistent = false;
			arm(watch);
		}
		else if (code != Code.OK && code != Code.NONODE) {
			logger.debug("Could not watch " + event.getPath() + " (" + code + "); waiters re-check on their timer");
		}
	}

	private void disarm(KeyWatch watch) {
		watch.closed = true;
		if (this.persistent) {
			for (String path : watch.paths) {
				try {
					this.client.watchers()
						.remove(watch)
						.ofType(Watcher.WatcherType.Any)
						.quietly()
						.inBackground()
						.forPath(path);
				}
				catch (Exception ex) {
					logger.debug("Could not remove the watch on " + path, ex);
				}
			}
		}
	}

	/**
	 * The watch of one key and its listeners.
	 */
	private final class KeyWatch implements Watcher {

		final List<String> paths;

		final Set<Runnable> listeners = new CopyOnWriteArraySet<>();

		volatile boolean closed;

		KeyWatch(List<String> paths) {
			this.paths = paths;
		}

		@Override
		public void process(WatchedEvent event) {
			if (this.closed || event.getType() == EventType.None) {
				return;
			}
			if (KeyWatches.this.persistent) {
				if (event.getType() == EventType.NodeDeleted) {
					notifyListeners();
				}
				return;
			}
			arm(this, event.getPath());
			if (event.getType() == EventType.NodeDeleted) {
				notifyListeners();
			}
		}

		void notifyListeners() {
			for (Runnable listener : this.listeners) {
				try {
					listener.run();
				}
				catch (RuntimeException ex) {
					logger.warn("A release listener failed", ex);
				}
			}
		}

	}

}
