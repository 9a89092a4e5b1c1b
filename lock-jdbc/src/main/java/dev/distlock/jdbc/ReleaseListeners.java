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

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.distlock.store.LockStore.Subscription;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The release listeners of one store, by key: a subscription adds one, closing it removes
 * it, and a key's release runs every listener of that key.
 *
 * @author distlock
 */
final class ReleaseListeners {

	private static final Log logger = LogFactory.getLog(ReleaseListeners.class);

	private final Map<String, List<Runnable>> byKey = new ConcurrentHashMap<>();

	/**
	 * Add a listener of {@code key}.
	 * @return what removes it
	 */
	Subscription add(String key, Runnable listener) {
		this.byKey.computeIfAbsent(key, (subscribed) -> new CopyOnWriteArrayList<>()).add(listener);
		return () -> this.byKey.computeIfPresent(key, (subscribed, listeners) -> {
			listeners.remove(listener);
			return listeners.isEmpty() ? null : listeners;
		});
	}

	/**
	 * Return the keys that have listeners.
	 */
	Set<String> keys() {
		return Set.copyOf(this.byKey.keySet());
	}

	/**
	 * Run the listeners of {@code key}.
	 */
	void released(String key) {
		for (Runnable listener : this.byKey.getOrDefault(key, List.of())) {
			try {
				listener.run();
			}
			catch (RuntimeException ex) {
				logger.warn("A release listener of a JDBC lock failed", ex);
			}
		}
	}

	/**
	 * Run every listener once, as after a notification channel was restored.
	 */
	void releasedAll() {
		keys().forEach(this::released);
	}

	boolean isEmpty() {
		return this.byKey.isEmpty();
	}

}
