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

package dev.distlock.redis;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.distlock.store.FairGrantWakeUpExtension.FairGrant;
import org.jspecify.annotations.Nullable;

/**
 * The local listeners of release channels. Adding and removing listeners never does I/O;
 * the caller learns whether it added the first or removed the last listener of a channel
 * and subscribes or unsubscribes outside of this map.
 * <p>
 * A release message names the one waiter it wakes (a client id, or a fair waiter's token
 * followed by the grant a release made to it: {@link #fairGrant}), or is
 * {@link #BROADCAST}: a listener of a named waiter runs only for messages naming it or
 * broadcasts, a listener without a waiter for every message.
 *
 * @author distlock
 * @since 0.1.0
 */
final class ChannelListeners {

	/**
	 * The message that wakes every listener of a channel.
	 */
	static final String BROADCAST = LuaHelpers.RELEASED;

	/**
	 * A grant to a fair waiter: its token, the fencing token, the server clock in
	 * milliseconds no later than the grant and the grant's time to live in milliseconds,
	 * separated by spaces (which tokens do not contain).
	 */
	private static final Pattern FAIR_GRANT = Pattern.compile("(\\S+) (\\d+) (\\d+) (\\d+)");

	private final Map<String, Set<Listener>> listeners = new ConcurrentHashMap<>();

	/**
	 * Add a listener.
	 * @param channel the channel
	 * @param listener the listener
	 * @return whether it is the channel's first listener
	 */
	boolean add(String channel, Listener listener) {
		boolean[] first = new boolean[1];
		this.listeners.compute(channel, (name, existing) -> {
			Set<Listener> set = (existing != null) ? existing : new CopyOnWriteArraySet<>();
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
	boolean remove(String channel, Listener listener) {
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
	 * Run every listener of one channel, for example after its subscription was made.
	 * @param channel the channel
	 */
	void wake(String channel) {
		Set<Listener> set = this.listeners.get(channel);
		if (set != null) {
			set.forEach(Listener::run);
		}
	}

	/**
	 * Run the listeners of one channel that a release message is for.
	 * @param channel the channel a release was published on
	 * @param message the message: the waiter it wakes, or {@link #BROADCAST}
	 */
	void wake(String channel, String message) {
		Set<Listener> set = this.listeners.get(channel);
		if (set != null) {
			set.forEach((listener) -> listener.hear(message));
		}
	}

	/**
	 * Run every listener, for example after a subscription was restored.
	 */
	void wakeAll() {
		this.listeners.values().forEach((set) -> set.forEach(Listener::run));
	}

	/**
	 * Read the grant to the fair waiter {@code token} that a release message carries.
	 * @param message the message, or {@code null} for a wake-up without one
	 * @param token the fair waiter's token
	 * @return the grant, or {@code null} if the message carries no grant to {@code token}
	 */
	static @Nullable FairGrant fairGrant(@Nullable String message, String token) {
		if (message == null) {
			return null;
		}
		Matcher grant = FAIR_GRANT.matcher(message);
		if (!grant.matches() || !token.equals(grant.group(1))) {
			return null;
		}
		return new FairGrant(Long.parseLong(grant.group(2)), Long.parseLong(grant.group(3)),
				Duration.ofMillis(Long.parseLong(grant.group(4))));
	}

	/**
	 * A listener of one waiter, or of every release when {@code waiter} is {@code null}.
	 * Its action gets the message it hears, or {@code null} when run without one (the
	 * subscription was made or restored). Compared by identity, so one action may be
	 * registered for several waiters.
	 */
	static final class Listener {

		private final @Nullable String waiter;

		private final Consumer<@Nullable String> action;

		Listener(@Nullable String waiter, Consumer<@Nullable String> action) {
			this.waiter = waiter;
			this.action = action;
		}

		void hear(String message) {
			if (this.waiter == null || BROADCAST.equals(message) || this.waiter.equals(woken(message))) {
				this.action.accept(message);
			}
		}

		void run() {
			this.action.accept(null);
		}

		private static String woken(String message) {
			int end = message.indexOf(' ');
			return (end < 0) ? message : message.substring(0, end);
		}

	}

}
