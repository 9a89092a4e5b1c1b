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

package dev.distlock.core;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;

/**
 * The local listeners of release channels. Adding and removing listeners never does I/O;
 * the caller learns whether it added the first or removed the last listener of a channel
 * and subscribes or unsubscribes outside of this map.
 *
 * @author distlock
 * @since 0.2.0
 */
final class ChannelListeners {

	private final Map<String, Set<Runnable>> listeners = new ConcurrentHashMap<>();

	/**
	 * Add a listener.
	 * @param channel the channel
	 * @param listener the listener
	 * @return whether it is the channel's first listener
	 */
	boolean add(String channel, Runnable listener) {
		boolean[] first = new boolean[1];
		this.listeners.compute(channel, (name, existing) -> {
			Set<Runnable> set = (existing != null) ? existing : new CopyOnWriteArraySet<>();
			first[0] = set.isEmpty();
			set.add(listener);
			return set;
		});
		return first[0];
	}

	/**
	 * Remove a listener.
	 * @param channel the channel
	 * @param listener the listener
	 * @return whether it was the channel's last listener
	 */
	boolean remove(String channel, Runnable listener) {
		boolean[] last = new boolean[1];
		this.listeners.computeIfPresent(channel, (name, set) -> {
			set.remove(listener);
			last[0] = set.isEmpty();
			return last[0] ? null : set;
		});
		return last[0];
	}

	boolean has(String channel) {
		return this.listeners.containsKey(channel);
	}

	/**
	 * Run the listeners of one channel.
	 * @param channel the channel a release was published on
	 */
	void wake(String channel) {
		Set<Runnable> set = this.listeners.get(channel);
		if (set != null) {
			set.forEach(Runnable::run);
		}
	}

	/**
	 * Run every listener, for example after a subscription was restored.
	 */
	void wakeAll() {
		this.listeners.values().forEach((set) -> set.forEach(Runnable::run));
	}

}
