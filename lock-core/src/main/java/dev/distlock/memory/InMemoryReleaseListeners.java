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

package dev.distlock.memory;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Consumer;

import dev.distlock.store.LockStore.FairGrant;
import dev.distlock.store.LockStore.Subscription;
import org.jspecify.annotations.Nullable;

/**
 * The release listeners of an {@link InMemoryLockStore}, per key: a listener of one
 * waiter hears the releases that wake it (with the grant, when one was made to it) and
 * those that wake everyone; a listener without a waiter hears every release.
 * <p>
 * Thread-safe: listeners subscribe from any thread, and the store notifies outside of its
 * monitor.
 *
 * @author distlock
 * @since 0.1.0
 */
final class InMemoryReleaseListeners {

	private final Map<String, Set<Listener>> listeners = new ConcurrentHashMap<>();

	/**
	 * Listen to the releases of {@code key} that wake {@code waiter}, or to every release
	 * when {@code waiter} is {@code null}.
	 */
	Subscription subscribe(String key, @Nullable String waiter, Consumer<@Nullable FairGrant> action) {
		Listener listener = new Listener(waiter, action);
		this.listeners.computeIfAbsent(key, (name) -> new CopyOnWriteArraySet<>()).add(listener);
		return () -> this.listeners.computeIfPresent(key, (name, set) -> {
			set.remove(listener);
			return set.isEmpty() ? null : set;
		});
	}

	/**
	 * Tell the listeners of {@code key} of a release that wakes {@code woken}, or
	 * everyone when it is {@code null}.
	 */
	void notify(String key, @Nullable String woken, @Nullable FairGrant grant) {
		Set<Listener> waiting = this.listeners.get(key);
		if (waiting != null) {
			waiting.forEach((listener) -> listener.hear(woken, grant));
		}
	}

	private record Listener(@Nullable String waiter, Consumer<@Nullable FairGrant> action) {

		void hear(@Nullable String woken, @Nullable FairGrant grant) {
			if (this.waiter == null || woken == null) {
				this.action.accept(null);
			}
			else if (this.waiter.equals(woken)) {
				this.action.accept(grant);
			}
		}

	}

}
