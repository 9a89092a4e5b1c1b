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

import java.util.concurrent.CompletionStage;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;

import dev.distlock.LockBackendException;
import dev.distlock.core.LockStore;
import dev.distlock.core.ReadWriteTiming;
import dev.distlock.core.Stages;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LockStore} in memory, for fast tests of the lock client and of code built on
 * it; not a production backend (its locks exist in one JVM only). It behaves like a
 * store: leases expire on time, operations are owner-checked, fencing tokens increase,
 * releases notify listeners, read locks are shared with a writer-waiting mark, and a
 * released lock is handed over (to the first live fair waiter directly, else by waking
 * one registered waiting client), as in {@link dev.distlock.redis.RedisLockStore}. Tests
 * can also make it unreachable, expire a key early or give a key to a foreign owner.
 * {@link InMemoryLocks} puts the lock client on it.
 *
 * @author distlock
 * @since 0.2.0
 */
public final class InMemoryLockStore implements LockStore {

	@Override
	public Set<Capability> capabilities() {
		return EnumSet.allOf(Capability.class);
	}

	private static final long WRITER_WAITING_NANOS = ReadWriteTiming.WRITER_WAITING.toNanos();

	private final Map<String, Grant> locks = new HashMap<>();

	private final Map<String, Map<String, Long>> readers = new HashMap<>();

	private final Map<String, WriterWaiting> writersWaiting = new HashMap<>();

	private final Map<String, Long> fences = new HashMap<>();

	private final Map<String, Set<Listener>> listeners = new ConcurrentHashMap<>();

	private final Map<String, Map<String, Long>> waiters = new HashMap<>();

	private final Map<String, Deque<Queued>> queues = new HashMap<>();

	private final Map<String, Map<String, Long>> alive = new HashMap<>();

	private volatile boolean unreachable;

	@Override
	public synchronized CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
		return Stages.now(() -> {
			requireReachable(key, "acquire");
			Attempt busy = busyForWriter(key, token);
			if (busy != null) {
				return busy;
			}
			return grant(key, token, lease);
		});
	}

	@Override
	public synchronized CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease, String waiter,
			Duration waiterTtl) {
		return Stages.now(() -> {
			Attempt attempt = Stages.join(tryAcquire(key, token, lease));
			if (attempt.acquired()) {
				forget(this.waiters, key, waiter);
			}
			else {
				this.waiters.computeIfAbsent(key, (name) -> new HashMap<>())
					.put(waiter, System.nanoTime() + waiterTtl.toNanos());
			}
			return attempt;
		});
	}

	@Override
	public CompletionStage<Attempt> tryAcquireFair(String key, String token, Duration lease,
			@Nullable Duration grantTimeout) {
		return Stages.now(() -> {
			String woken = null;
			Attempt attempt;
			synchronized (this) {
				requireReachable(key, "acquire");
				Grant current = live(key);
				if (current != null && current.token.equals(token)) {
					this.locks.put(key, new Grant(token, System.nanoTime() + lease.toNanos()));
					return Attempt.granted(this.fences.getOrDefault(key, 0L));
				}
				Attempt refused = busyForWriter(key, token);
				Deque<Queued> queue = this.queues.computeIfAbsent(key, (name) -> new ArrayDeque<>());
				Map<String, Long> living = this.alive.computeIfAbsent(key, (name) -> new HashMap<>());
				if (refused == null) {
					while (!queue.isEmpty() && !queue.peek().token.equals(token)
							&& !isAlive(living, queue.peek().token)) {
						living.remove(queue.poll().token);
					}
					if (queue.isEmpty() || queue.peek().token.equals(token)) {
						if (!queue.isEmpty()) {
							living.remove(queue.poll().token);
						}
						return grant(key, token, lease);
					}
					woken = handOver(key);
				}
				if (grantTimeout != null) {
					if (living.put(token, System.nanoTime() + grantTimeout.toNanos()) == null) {
						queue.add(new Queued(token, grantTimeout));
					}
				}
				attempt = (refused != null) ? refused : busy(live(key));
			}
			if (woken != null) {
				notify(key, woken);
			}
			return attempt;
		});
	}

	@Override
	public synchronized CompletionStage<@Nullable Attempt> handOver(String key, String token, String nextToken,
			Duration lease) {
		return Stages.now(() -> {
			requireReachable(key, "release");
			Grant current = live(key);
			if (current == null || !current.token.equals(token)) {
				return Attempt.busy(null);
			}
			if (!this.queues.getOrDefault(key, new ArrayDeque<>()).isEmpty()) {
				return null;
			}
			return grant(key, nextToken, lease);
		});
	}

	@Override
	public CompletionStage<Void> leave(String key, String waiter) {
		return Stages.now(() -> {
			String woken = null;
			synchronized (this) {
				requireReachable(key, "leave");
				forget(this.waiters, key, waiter);
				forget(this.alive, key, waiter);
				Grant current = live(key);
				if (current == null || !current.token.equals(waiter)) {
					return null;
				}
				this.locks.remove(key);
				woken = handOver(key);
			}
			notify(key, woken);
			return null;
		});
	}

	@Override
	public synchronized CompletionStage<@Nullable List<Attempt>> tryAcquireAll(List<String> keys, String token,
			Duration lease) {
		return Stages.now(() -> {
			requireReachable(keys.get(0), "acquire");
			List<Attempt> busy = new ArrayList<>(keys.size());
			for (String key : keys) {
				busy.add(busyForWriter(key, token));
			}
			List<Attempt> attempts = new ArrayList<>(keys.size());
			boolean free = busy.stream().allMatch((attempt) -> attempt == null);
			for (int i = 0; i < keys.size(); i++) {
				Attempt refused = busy.get(i);
				attempts.add(free ? Stages.join(tryAcquire(keys.get(i), token, lease))
						: (refused != null) ? refused : Attempt.busy(null));
			}
			return attempts;
		});
	}

	@Override
	public synchronized CompletionStage<Attempt> tryAcquireRead(String key, String token, Duration lease) {
		return Stages.now(() -> {
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
		});
	}

	@Override
	public synchronized CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
		return Stages.now(() -> {
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
		});
	}

	@Override
	public CompletionStage<Boolean> release(String key, String token) {
		return Stages.now(() -> {
			boolean owned;
			String woken;
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
				woken = handOver(key);
			}
			notify(key, woken);
			return owned;
		});
	}

	@Override
	public synchronized CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
		return Stages.now(() -> {
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
		});
	}

	@Override
	public synchronized CompletionStage<Boolean> isOwner(String key, String token) {
		return Stages.now(() -> {
			requireReachable(key, "check");
			Grant current = live(key);
			return (current != null && current.token.equals(token)) || liveReaders(key).containsKey(token);
		});
	}

	@Override
	public Subscription onRelease(String key, Runnable listener) {
		return subscribe(key, new Listener(null, listener));
	}

	@Override
	public Subscription onRelease(String key, String waiter, Runnable listener) {
		return subscribe(key, new Listener(waiter, listener));
	}

	private Subscription subscribe(String key, Listener listener) {
		this.listeners.computeIfAbsent(key, (name) -> new CopyOnWriteArraySet<>()).add(listener);
		return () -> this.listeners.computeIfPresent(key, (name, set) -> {
			set.remove(listener);
			return set.isEmpty() ? null : set;
		});
	}

	@Override
	public synchronized CompletionStage<KeyState> inspect(String key) {
		return Stages.now(() -> {
			requireReachable(key, "inspect");
			Grant current = holder(key);
			Long fence = this.fences.get(key);
			if (current == null) {
				return new KeyState(null, null, (fence != null) ? fence : 0);
			}
			Duration ttl = (current.expiresAtNanos == Long.MAX_VALUE) ? null
					: Duration.ofNanos(Math.max(0, current.expiresAtNanos - System.nanoTime()));
			return new KeyState(current.token, ttl, (fence != null) ? fence : 0);
		});
	}

	@Override
	public CompletionStage<@Nullable String> forceRelease(String key) {
		return Stages.now(() -> {
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
			notify(key, null);
			return released.token;
		});
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
		return Attempt.busy((pending && firstEnd.compareTo(ReadWriteTiming.PENDING_WRITER_RECHECK) > 0)
				? ReadWriteTiming.PENDING_WRITER_RECHECK : firstEnd);
	}

	/**
	 * Return how many clients are registered as waiting for {@code key} and still within
	 * their time to live.
	 * @param key the lock key
	 * @return the number of registered waiting clients
	 */
	public synchronized int registeredWaiters(String key) {
		long now = System.nanoTime();
		return (int) this.waiters.getOrDefault(key, Map.of()).values().stream().filter((at) -> at - now > 0).count();
	}

	private Attempt grant(String key, String token, Duration lease) {
		this.locks.put(key, new Grant(token, System.nanoTime() + lease.toNanos()));
		WriterWaiting waiting = this.writersWaiting.get(key);
		if (waiting != null && waiting.token.equals(token)) {
			this.writersWaiting.remove(key);
		}
		return Attempt.granted(this.fences.merge(key, 1L, Long::sum));
	}

	/**
	 * Hand a free lock over: grant it to the first live fair waiter, else pick the
	 * registered client whose registration is oldest.
	 * @return the waiter to wake, or {@code null} to wake every listener
	 */
	private @Nullable String handOver(String key) {
		Deque<Queued> queue = this.queues.getOrDefault(key, new ArrayDeque<>());
		Map<String, Long> living = this.alive.getOrDefault(key, new HashMap<>());
		while (!queue.isEmpty()) {
			Queued head = queue.poll();
			boolean headAlive = isAlive(living, head.token);
			living.remove(head.token);
			if (headAlive) {
				grant(key, head.token, head.grantTimeout);
				return head.token;
			}
		}
		Map<String, Long> registered = this.waiters.getOrDefault(key, new HashMap<>());
		long now = System.nanoTime();
		registered.values().removeIf((at) -> at - now <= 0);
		String woken = registered.entrySet()
			.stream()
			.min(Map.Entry.comparingByValue())
			.map(Map.Entry::getKey)
			.orElse(null);
		if (woken != null) {
			registered.remove(woken);
		}
		return woken;
	}

	private static void forget(Map<String, Map<String, Long>> registrations, String key, String waiter) {
		Map<String, Long> registered = registrations.get(key);
		if (registered != null) {
			registered.remove(waiter);
		}
	}

	private static boolean isAlive(Map<String, Long> living, String token) {
		Long deadline = living.get(token);
		return deadline != null && deadline - System.nanoTime() >= 0;
	}

	private void notify(String key, @Nullable String woken) {
		Set<Listener> waiting = this.listeners.get(key);
		if (waiting != null) {
			waiting.forEach((listener) -> listener.hear(woken));
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

	private record Queued(String token, Duration grantTimeout) {

	}

	private record Listener(@Nullable String waiter, Runnable action) {

		void hear(@Nullable String woken) {
			if (this.waiter == null || woken == null || this.waiter.equals(woken)) {
				this.action.run();
			}
		}

	}

}
