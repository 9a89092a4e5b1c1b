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
import java.util.LinkedHashMap;
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
 * releases notify listeners, read locks are shared with a writer-waiting mark as in
 * {@link dev.distlock.core.RedisLockStore}. Tests can also make it unreachable, expire a
 * key early or give a key to a foreign owner. {@link InMemoryLocks} puts the lock client
 * on it.
 *
 * @author distlock
 * @since 0.2.0
 */
public final class InMemoryLockStore implements LockStore {

	/**
	 * How soon a writer refused by readers for the first time is told to try again, as
	 * the Redis store does.
	 */
	private static final Duration PENDING_WRITER_RECHECK = Duration.ofMillis(20);

	/**
	 * How long a writer-waiting mark lives unless set anew, as in the Redis store: longer
	 * than the client's longest re-check interval.
	 */
	private static final long WRITER_WAITING_NANOS = Duration.ofSeconds(2).toNanos();

	private final Map<String, Grant> locks = new HashMap<>();

	private final Map<String, Map<String, Long>> readers = new HashMap<>();

	private final Map<String, WriterWaiting> writersWaiting = new HashMap<>();

	private final Map<String, Long> fences = new HashMap<>();

	private final Map<String, Set<Runnable>> listeners = new ConcurrentHashMap<>();

	private volatile boolean unreachable;

	@Override
	public synchronized Attempt tryAcquire(String key, String token, Duration lease) {
		requireReachable(key, "acquire");
		Attempt busy = busyForWriter(key, token);
		if (busy != null) {
			return busy;
		}
		this.locks.put(key, new Grant(token, System.nanoTime() + lease.toNanos()));
		WriterWaiting waiting = this.writersWaiting.get(key);
		if (waiting != null && waiting.token.equals(token)) {
			this.writersWaiting.remove(key);
		}
		return Attempt.granted(this.fences.merge(key, 1L, Long::sum));
	}

	@Override
	public synchronized List<Attempt> tryAcquireAll(List<String> keys, String token, Duration lease) {
		requireReachable(keys.get(0), "acquire");
		List<Attempt> busy = new ArrayList<>(keys.size());
		for (String key : keys) {
			busy.add(busyForWriter(key, token));
		}
		List<Attempt> attempts = new ArrayList<>(keys.size());
		boolean free = busy.stream().allMatch((attempt) -> attempt == null);
		for (int i = 0; i < keys.size(); i++) {
			Attempt refused = busy.get(i);
			attempts
				.add(free ? tryAcquire(keys.get(i), token, lease) : (refused != null) ? refused : Attempt.busy(null));
		}
		return attempts;
	}

	@Override
	public synchronized Attempt tryAcquireRead(String key, String token, Duration lease) {
		requireReachable(key, "acquire");
		Grant writer = live(key);
		if (writer != null) {
			return busy(writer);
		}
		WriterWaiting waiting = liveWriterWaiting(key);
		if (waiting != null && waiting.active) {
			return Attempt.busy(Duration.ofNanos(Math.max(0, waiting.expiresAtNanos - System.nanoTime())));
		}
		this.readers.computeIfAbsent(key, (name) -> new LinkedHashMap<>())
			.put(token, System.nanoTime() + lease.toNanos());
		return Attempt.granted(0);
	}

	@Override
	public synchronized boolean expireAfter(String key, String token, Duration remaining) {
		requireReachable(key, "release");
		Map<String, Long> reading = liveReaders(key);
		if (reading.containsKey(token)) {
			reading.put(token, System.nanoTime() + remaining.toNanos());
			return true;
		}
		Grant current = live(key);
		if (current == null || !current.token.equals(token)) {
			return false;
		}
		this.locks.put(key, new Grant(token, System.nanoTime() + remaining.toNanos()));
		return true;
	}

	@Override
	public boolean release(String key, String token) {
		boolean owned;
		synchronized (this) {
			requireReachable(key, "release");
			Map<String, Long> reading = this.readers.get(key);
			if (reading != null && reading.containsKey(token)) {
				owned = System.nanoTime() - reading.remove(token) < 0;
				if (!liveReaders(key).isEmpty()) {
					return owned;
				}
			}
			else {
				Grant current = live(key);
				if (current == null || !current.token.equals(token)) {
					return false;
				}
				this.locks.remove(key);
				owned = true;
			}
		}
		notifyReleased(key);
		return owned;
	}

	@Override
	public synchronized List<RenewalOutcome> renew(List<Renewal> renewals, Duration lease) {
		List<RenewalOutcome> outcomes = new ArrayList<>(renewals.size());
		for (Renewal renewal : renewals) {
			Grant current = live(renewal.key());
			Map<String, Long> reading = liveReaders(renewal.key());
			if (this.unreachable) {
				outcomes.add(RenewalOutcome.FAILED);
			}
			else if (current != null && current.token.equals(renewal.token())) {
				this.locks.put(renewal.key(), new Grant(renewal.token(), System.nanoTime() + lease.toNanos()));
				outcomes.add(RenewalOutcome.RENEWED);
			}
			else if (reading.containsKey(renewal.token())) {
				reading.put(renewal.token(), System.nanoTime() + lease.toNanos());
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
		return (current != null && current.token.equals(token)) || liveReaders(key).containsKey(token);
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
		Grant current = holder(key);
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
			released = holder(key);
			if (released == null) {
				return null;
			}
			this.locks.remove(key);
			this.readers.remove(key);
		}
		notifyReleased(key);
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
	 * Return whether someone holds {@code key}, a writer or readers.
	 * @param key the lock key
	 * @return whether the key is locked
	 */
	public synchronized boolean isLocked(String key) {
		return holder(key) != null;
	}

	/**
	 * Drop the lock on {@code key} (the writer and every reader) as if its lease had run
	 * out, without notifying.
	 * @param key the lock key
	 */
	public synchronized void expire(String key) {
		this.locks.remove(key);
		this.readers.remove(key);
	}

	/**
	 * Give {@code key} to a foreign owner that never releases it.
	 * @param key the lock key
	 * @param owner the foreign owner token
	 */
	public synchronized void takeOver(String key, String owner) {
		this.readers.remove(key);
		this.locks.put(key, new Grant(owner, Long.MAX_VALUE));
	}

	/**
	 * Return why a writer with {@code token} cannot take {@code key} now, marking it as
	 * waiting if readers hold the key (pending the first time, active when refused again,
	 * unless another writer's mark is there), or {@code null} if it can.
	 */
	private @Nullable Attempt busyForWriter(String key, String token) {
		Grant current = live(key);
		if (current != null) {
			return busy(current);
		}
		Map<String, Long> reading = liveReaders(key);
		if (reading.isEmpty()) {
			return null;
		}
		long now = System.nanoTime();
		WriterWaiting waiting = liveWriterWaiting(key);
		if (waiting == null || waiting.token.equals(token)) {
			this.writersWaiting.put(key, new WriterWaiting(token, waiting != null, now + WRITER_WAITING_NANOS));
		}
		long firstEnds = reading.values().stream().mapToLong(Long::longValue).min().orElse(now);
		Duration firstEnd = Duration.ofNanos(Math.max(0, firstEnds - now));
		boolean pending = waiting == null;
		return Attempt
			.busy((pending && firstEnd.compareTo(PENDING_WRITER_RECHECK) > 0) ? PENDING_WRITER_RECHECK : firstEnd);
	}

	private void notifyReleased(String key) {
		Set<Runnable> waiting = this.listeners.get(key);
		if (waiting != null) {
			waiting.forEach(Runnable::run);
		}
	}

	private static Attempt busy(@Nullable Grant current) {
		if (current == null) {
			return Attempt.busy(null);
		}
		return Attempt.busy((current.expiresAtNanos == Long.MAX_VALUE) ? null
				: Duration.ofNanos(Math.max(0, current.expiresAtNanos - System.nanoTime())));
	}

	/**
	 * Return the writer, or the reader whose lease ends last, of {@code key}.
	 */
	private @Nullable Grant holder(String key) {
		Grant writer = live(key);
		if (writer != null) {
			return writer;
		}
		return liveReaders(key).entrySet()
			.stream()
			.max(Map.Entry.comparingByValue())
			.map((reader) -> new Grant(reader.getKey(), reader.getValue()))
			.orElse(null);
	}

	private @Nullable Grant live(String key) {
		Grant grant = this.locks.get(key);
		if (grant != null && grant.expiresAtNanos != Long.MAX_VALUE && System.nanoTime() - grant.expiresAtNanos >= 0) {
			this.locks.remove(key);
			return null;
		}
		return grant;
	}

	private @Nullable WriterWaiting liveWriterWaiting(String key) {
		WriterWaiting waiting = this.writersWaiting.get(key);
		if (waiting != null && System.nanoTime() - waiting.expiresAtNanos >= 0) {
			this.writersWaiting.remove(key);
			return null;
		}
		return waiting;
	}

	/**
	 * Return the readers of {@code key} whose lease has not ended, dropping the others;
	 * an empty map (not stored) when there are none.
	 */
	private Map<String, Long> liveReaders(String key) {
		Map<String, Long> reading = this.readers.get(key);
		if (reading == null) {
			return new HashMap<>();
		}
		long now = System.nanoTime();
		reading.values().removeIf((ends) -> now - ends >= 0);
		if (reading.isEmpty()) {
			this.readers.remove(key);
		}
		return reading;
	}

	private void requireReachable(String key, String operation) {
		if (this.unreachable) {
			throw new LockBackendException(key, operation, new IllegalStateException("the in-memory store is down"));
		}
	}

	private record Grant(String token, long expiresAtNanos) {

	}

	private record WriterWaiting(String token, boolean active, long expiresAtNanos) {

	}

}
