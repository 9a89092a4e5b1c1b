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

package dev.distlock.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;

import dev.distlock.LockBackendException;
import dev.distlock.core.LockStore;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LockStore} in memory, for fast tests of the lock client and of code built on
 * it; not a production backend (its locks exist in one JVM only). It behaves like a
 * store: leases expire on time, operations are owner-checked, fencing tokens increase,
 * releases notify listeners. Tests can also make it unreachable, expire a key early or
 * give a key to a foreign owner. {@link InMemoryLocks} puts the lock client on it.
 *
 * @author distlock
 * @since 0.2.0
 */
public final class InMemoryLockStore implements LockStore {

	private final Map<String, Grant> locks = new HashMap<>();

	private final Map<String, Long> fences = new HashMap<>();

	private final Map<String, Set<Runnable>> listeners = new ConcurrentHashMap<>();

	private volatile boolean unreachable;

	@Override
	public synchronized Attempt tryAcquire(String key, String token, Duration lease) {
		requireReachable(key, "acquire");
		Grant current = live(key);
		if (current != null) {
			return busy(current);
		}
		this.locks.put(key, new Grant(token, System.nanoTime() + lease.toNanos()));
		return Attempt.granted(this.fences.merge(key, 1L, Long::sum));
	}

	@Override
	public synchronized List<Attempt> tryAcquireAll(List<String> keys, String token, Duration lease) {
		requireReachable(keys.get(0), "acquire");
		List<Attempt> attempts = new ArrayList<>(keys.size());
		boolean free = keys.stream().allMatch((key) -> live(key) == null);
		for (String key : keys) {
			attempts.add(free ? tryAcquire(key, token, lease) : busy(live(key)));
		}
		return attempts;
	}

	@Override
	public synchronized boolean expireAfter(String key, String token, Duration remaining) {
		requireReachable(key, "release");
		Grant current = live(key);
		if (current == null || !current.token.equals(token)) {
			return false;
		}
		this.locks.put(key, new Grant(token, System.nanoTime() + remaining.toNanos()));
		return true;
	}

	@Override
	public boolean release(String key, String token) {
		synchronized (this) {
			requireReachable(key, "release");
			Grant current = live(key);
			if (current == null || !current.token.equals(token)) {
				return false;
			}
			this.locks.remove(key);
		}
		Set<Runnable> waiting = this.listeners.get(key);
		if (waiting != null) {
			waiting.forEach(Runnable::run);
		}
		return true;
	}

	@Override
	public synchronized List<RenewalOutcome> renew(List<Renewal> renewals, Duration lease) {
		List<RenewalOutcome> outcomes = new ArrayList<>(renewals.size());
		for (Renewal renewal : renewals) {
			Grant current = live(renewal.key());
			if (this.unreachable) {
				outcomes.add(RenewalOutcome.FAILED);
			}
			else if (current != null && current.token.equals(renewal.token())) {
				this.locks.put(renewal.key(), new Grant(renewal.token(), System.nanoTime() + lease.toNanos()));
				outcomes.add(RenewalOutcome.RENEWED);
			}
			else {
				outcomes.add(RenewalOutcome.LOST);
			}
		}
		return outcomes;
	}

	@Override
	public synchronized boolean isOwner(String key, String token) {
		requireReachable(key, "check");
		Grant current = live(key);
		return current != null && current.token.equals(token);
	}

	@Override
	public Subscription onRelease(String key, Runnable listener) {
		this.listeners.computeIfAbsent(key, (name) -> new CopyOnWriteArraySet<>()).add(listener);
		return () -> this.listeners.computeIfPresent(key, (name, set) -> {
			set.remove(listener);
			return set.isEmpty() ? null : set;
		});
	}

	@Override
	public synchronized KeyState inspect(String key) {
		requireReachable(key, "inspect");
		Grant current = live(key);
		Long fence = this.fences.get(key);
		if (current == null) {
			return new KeyState(null, null, (fence != null) ? fence : 0);
		}
		Duration ttl = (current.expiresAtNanos == Long.MAX_VALUE) ? null
				: Duration.ofNanos(Math.max(0, current.expiresAtNanos - System.nanoTime()));
		return new KeyState(current.token, ttl, (fence != null) ? fence : 0);
	}

	@Override
	public @Nullable String forceRelease(String key) {
		Grant released;
		synchronized (this) {
			requireReachable(key, "force-release");
			released = live(key);
			if (released == null) {
				return null;
			}
			this.locks.remove(key);
		}
		Set<Runnable> waiting = this.listeners.get(key);
		if (waiting != null) {
			waiting.forEach(Runnable::run);
		}
		return released.token;
	}

	/**
	 * Make every operation fail as if the backend could not be reached, or reachable
	 * again.
	 * @param unreachable whether the store is unreachable
	 */
	public void setUnreachable(boolean unreachable) {
		this.unreachable = unreachable;
	}

	/**
	 * Return whether someone holds {@code key}.
	 * @param key the lock key
	 * @return whether the key is locked
	 */
	public synchronized boolean isLocked(String key) {
		return live(key) != null;
	}

	/**
	 * Drop the lock on {@code key} as if its lease had run out, without notifying.
	 * @param key the lock key
	 */
	public synchronized void expire(String key) {
		this.locks.remove(key);
	}

	/**
	 * Give {@code key} to a foreign owner that never releases it.
	 * @param key the lock key
	 * @param owner the foreign owner token
	 */
	public synchronized void takeOver(String key, String owner) {
		this.locks.put(key, new Grant(owner, Long.MAX_VALUE));
	}

	private static Attempt busy(@Nullable Grant current) {
		if (current == null) {
			return Attempt.busy(null);
		}
		return Attempt.busy((current.expiresAtNanos == Long.MAX_VALUE) ? null
				: Duration.ofNanos(Math.max(0, current.expiresAtNanos - System.nanoTime())));
	}

	private @Nullable Grant live(String key) {
		Grant grant = this.locks.get(key);
		if (grant != null && grant.expiresAtNanos != Long.MAX_VALUE && System.nanoTime() - grant.expiresAtNanos >= 0) {
			this.locks.remove(key);
			return null;
		}
		return grant;
	}

	private void requireReachable(String key, String operation) {
		if (this.unreachable) {
			throw new LockBackendException(key, operation, new IllegalStateException("the in-memory store is down"));
		}
	}

	private record Grant(String token, long expiresAtNanos) {

	}

}
