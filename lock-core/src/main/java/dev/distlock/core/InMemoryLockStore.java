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

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.distlock.LockBackendException;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LockStore} in memory, in one JVM: its locks are <em>not distributed</em>, two
 * application instances each with their own store do not exclude each other. It is for
 * tests and examples of the lock client and of code built on it, as Spring's
 * {@code ConcurrentMapCache} is for caching; it is no production backend for several
 * instances.
 * <p>
 * It behaves like a distributed store: leases expire on time, operations are
 * owner-checked, fencing tokens increase, releases notify listeners, read locks are
 * shared with a writer-waiting mark, and a released lock is then handed off (to the first
 * live fair waiter directly, else by waking one registered waiting client), as a
 * distributed store does. It implements every {@link LockStoreExtension}. Tests can also
 * make it unreachable ({@link #setUnreachable(boolean)}), expire a key early
 * ({@link #expire(String)}), give a key to a foreign owner
 * ({@link #takeOver(String, String)}) and hold the replies of its requests
 * ({@link #pauseReplies()}). {@code dev.distlock.test.InMemoryLocks} in
 * {@code lock-spring-boot-test} puts the lock client on it.
 * <p>
 * Every operation runs on the calling thread; its stage is complete when the method
 * returns, unless replies are paused.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class InMemoryLockStore implements LockStore, ReadLockExtension, FairQueueExtension, WakeOneExtension,
		HandOverExtension, SeveralKeysExtension, InspectionExtension {

	private final Map<String, Grant> locks = new HashMap<>();

	private final InMemoryReadLocks readLocks = new InMemoryReadLocks();

	private final Map<String, Long> fences = new HashMap<>();

	private final InMemoryReleaseListeners listeners = new InMemoryReleaseListeners();

	private final InMemoryRegisteredWaiters waiters = new InMemoryRegisteredWaiters();

	private final InMemoryFairQueues fairQueues = new InMemoryFairQueues();

	/**
	 * Notifications of the request being executed, sent once it left the monitor.
	 */
	private final List<Notification> notifications = new ArrayList<>();

	private @Nullable PausedReplies paused;

	private volatile boolean unreachable;

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
		return execute(() -> acquire(key, token, lease));
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease, String waiter,
			Duration waiterTtl) {
		return execute(() -> {
			Attempt attempt = acquire(key, token, lease);
			if (attempt.acquired()) {
				this.waiters.forget(key, waiter);
			}
			else {
				this.waiters.register(key, waiter, waiterTtl);
			}
			return attempt;
		});
	}

	@Override
	public CompletionStage<Attempt> tryAcquireFair(String key, String token, Duration lease,
			@Nullable Duration grantTimeout) {
		return execute(() -> {
			requireReachable(key, "acquire");
			Grant current = live(key);
			if (current != null && current.token.equals(token)) {
				this.locks.put(key, new Grant(token, System.nanoTime() + lease.toNanos()));
				return Attempt.granted(this.fences.getOrDefault(key, 0L));
			}
			Attempt refused = busyForWriter(key, token);
			if (refused == null) {
				InMemoryFairQueues.Admission admission = this.fairQueues.admit(key, token,
						FairQueueLimits.GONE_WAITERS_PER_STEP);
				if (admission.admitted()) {
					return grant(key, token, lease);
				}
				Notification handedOff = handOff(key, admission.budgetLeft());
				if (handedOff.woken() != null) {
					this.notifications.add(handedOff);
				}
			}
			if (grantTimeout != null) {
				this.fairQueues.join(key, token, grantTimeout);
			}
			Attempt busy = (refused != null) ? refused : busy(live(key));
			return Attempt.busy(busy.holderLeaseRemaining(), clockMillis());
		});
	}

	@Override
	public CompletionStage<@Nullable Attempt> handOver(String key, String token, String nextToken, Duration lease) {
		return this.<@Nullable Attempt>execute(() -> {
			requireReachable(key, "hand over");
			Grant current = live(key);
			if (current == null || !current.token.equals(token)) {
				return Attempt.busy(null);
			}
			if (!this.fairQueues.isEmpty(key)) {
				return null;
			}
			return grant(key, nextToken, lease);
		});
	}

	@Override
	public CompletionStage<Void> leave(String key, String waiter) {
		return execute(() -> {
			requireReachable(key, "leave");
			this.waiters.forget(key, waiter);
			return null;
		});
	}

	@Override
	public CompletionStage<Void> leaveFairQueue(String key, String token) {
		return execute(() -> {
			requireReachable(key, "leave");
			this.fairQueues.leave(key, token);
			Grant current = live(key);
			if (current == null || !current.token.equals(token)) {
				return null;
			}
			this.locks.remove(key);
			this.notifications.add(handOff(key, FairQueueLimits.GONE_WAITERS_PER_STEP));
			return null;
		});
	}

	@Override
	public CompletionStage<@Nullable List<Attempt>> tryAcquireAll(List<String> keys, String token, Duration lease) {
		return this.<@Nullable List<Attempt>>execute(() -> {
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
					.add(free ? acquire(keys.get(i), token, lease) : (refused != null) ? refused : Attempt.busy(null));
			}
			return attempts;
		});
	}

	@Override
	public CompletionStage<Attempt> tryAcquireRead(String key, String token, Duration lease) {
		return execute(() -> {
			requireReachable(key, "acquire");
			Grant writer = live(key);
			if (writer != null) {
				return busy(writer);
			}
			return this.readLocks.tryAcquire(key, token, lease);
		});
	}

	@Override
	public CompletionStage<Boolean> expireReadAfter(String key, String token, Duration remaining) {
		return execute(() -> {
			requireReachable(key, "release");
			Map<String, Long> reading = this.readLocks.live(key);
			if (!reading.containsKey(token)) {
				return false;
			}
			reading.put(token, System.nanoTime() + remaining.toNanos());
			return true;
		});
	}

	@Override
	public CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
		return execute(() -> {
			requireReachable(key, "release");
			Grant current = live(key);
			if (current == null || !current.token.equals(token)) {
				return false;
			}
			this.locks.put(key, new Grant(token, System.nanoTime() + remaining.toNanos()));
			return true;
		});
	}

	@Override
	public CompletionStage<Boolean> releaseRead(String key, String token) {
		return execute(() -> {
			requireReachable(key, "release");
			Boolean owned = this.readLocks.release(key, token);
			if (owned == null) {
				return false;
			}
			if (this.readLocks.live(key).isEmpty()) {
				this.notifications.add(handOff(key, FairQueueLimits.GONE_WAITERS_PER_STEP));
			}
			return owned;
		});
	}

	@Override
	public CompletionStage<Boolean> release(String key, String token) {
		return execute(() -> {
			requireReachable(key, "release");
			Grant current = live(key);
			if (current == null || !current.token.equals(token)) {
				return false;
			}
			this.locks.remove(key);
			this.notifications.add(handOff(key, FairQueueLimits.GONE_WAITERS_PER_STEP));
			return true;
		});
	}

	@Override
	public CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
		return execute(() -> {
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
		});
	}

	@Override
	public CompletionStage<List<RenewalOutcome>> renewRead(List<Renewal> renewals, Duration lease) {
		return execute(() -> {
			List<RenewalOutcome> outcomes = new ArrayList<>(renewals.size());
			for (Renewal renewal : renewals) {
				Map<String, Long> reading = this.readLocks.live(renewal.key());
				if (this.unreachable) {
					outcomes.add(RenewalOutcome.FAILED);
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
	public CompletionStage<Boolean> isOwner(String key, String token) {
		return execute(() -> {
			requireReachable(key, "check");
			Grant current = live(key);
			return current != null && current.token.equals(token);
		});
	}

	@Override
	public CompletionStage<Boolean> isReadOwner(String key, String token) {
		return execute(() -> {
			requireReachable(key, "check");
			return this.readLocks.live(key).containsKey(token);
		});
	}

	@Override
	public Subscription onRelease(String key, Runnable listener) {
		return this.listeners.subscribe(key, null, (grant) -> listener.run());
	}

	@Override
	public Subscription onRelease(String key, String waiter, Runnable listener) {
		return this.listeners.subscribe(key, waiter, (grant) -> listener.run());
	}

	@Override
	public Subscription onFairWakeUp(String key, String token, Consumer<@Nullable FairGrant> listener) {
		return this.listeners.subscribe(key, token, listener);
	}

	@Override
	public CompletionStage<KeyState> inspect(String key) {
		return execute(() -> {
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
		return this.<@Nullable String>execute(() -> {
			requireReachable(key, "force-release");
			Grant released = holder(key);
			if (released == null) {
				return null;
			}
			this.locks.remove(key);
			this.readLocks.drop(key);
			this.notifications.add(new Notification(key, null, null));
			return released.token;
		});
	}

	/**
	 * Hold the replies of the requests this store executes from now on, until
	 * {@link PausedReplies#resume()}: a deterministic way for a test to catch a caller
	 * while its request is "on the wire". The store behaves like a server that has run
	 * the request but whose reply has not arrived yet:
	 * <ul>
	 * <li>each request is <em>executed</em> when it is made, on the calling thread: its
	 * state change (a grant, a release, a renewal, a place in a queue) is visible at once
	 * to every later request, and the release notifications it causes are sent at once,
	 * as a server publishes them while it runs the request;</li>
	 * <li>only the completion of the request's stage is held; it completes, with the
	 * result or failure of that execution, when the pause is resumed, in the order the
	 * requests were executed.</li>
	 * </ul>
	 * Release listeners ({@link #onRelease(String, Runnable)}) are not requests: a
	 * subscription is active when it is made. One pause at a time.
	 * @return the pause, which completes the held stages when resumed (or closed)
	 * @throws IllegalStateException if replies are paused already
	 * @since 0.1.0
	 */
	public synchronized PausedReplies pauseReplies() {
		if (this.paused != null) {
			throw new IllegalStateException("Replies are paused already");
		}
		PausedReplies pause = new PausedReplies();
		this.paused = pause;
		return pause;
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
		this.readLocks.drop(key);
	}

	/**
	 * Give {@code key} to a foreign owner that never releases it.
	 * @param key the lock key
	 * @param owner the foreign owner token
	 */
	public synchronized void takeOver(String key, String owner) {
		this.readLocks.drop(key);
		this.locks.put(key, new Grant(owner, Long.MAX_VALUE));
	}

	private Attempt acquire(String key, String token, Duration lease) {
		requireReachable(key, "acquire");
		Grant current = live(key);
		if (current != null && current.token.equals(token)) {
			// A replay: the same grant again
			this.locks.put(key, new Grant(token, System.nanoTime() + lease.toNanos()));
			return Attempt.granted(this.fences.getOrDefault(key, 0L));
		}
		Attempt busy = busyForWriter(key, token);
		if (busy != null) {
			return busy;
		}
		return grant(key, token, lease);
	}

	/**
	 * Execute one request under the store's monitor, then send the notifications it
	 * caused and return its stage: complete, or held while replies are paused.
	 */
	private <T extends @Nullable Object> CompletionStage<T> execute(Supplier<T> request) {
		CompletableFuture<T> executed;
		CompletableFuture<T> reply;
		List<Notification> toSend;
		synchronized (this) {
			try {
				executed = CompletableFuture.completedFuture(request.get());
			}
			catch (RuntimeException | Error ex) {
				executed = CompletableFuture.failedFuture(ex);
			}
			toSend = new ArrayList<>(this.notifications);
			this.notifications.clear();
			PausedReplies pause = this.paused;
			reply = (pause != null) ? pause.hold(executed) : executed;
		}
		toSend.forEach((notification) -> this.listeners.notify(notification.key(), notification.woken(),
				notification.grant()));
		return reply;
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
		return this.readLocks.busyForWriter(key, token);
	}

	/**
	 * Return how many clients are registered as waiting for {@code key} and still within
	 * their time to live.
	 * @param key the lock key
	 * @return the number of registered waiting clients
	 */
	public synchronized int registeredWaiters(String key) {
		return this.waiters.count(key);
	}

	private Attempt grant(String key, String token, Duration lease) {
		this.locks.put(key, new Grant(token, System.nanoTime() + lease.toNanos()));
		this.readLocks.writerGranted(key, token);
		return Attempt.granted(this.fences.merge(key, 1L, Long::sum));
	}

	/**
	 * Hand a free lock off, the release-time hand-off of a distributed store (not the
	 * cohort hand-over): grant it to the first live fair waiter, dropping at most
	 * {@code budget} gone waiters from the head of the queue, else pick the registered
	 * client whose registration is oldest.
	 * @return the notification: of the fair waiter with its grant, of the waiter to wake,
	 * or of every listener when {@code woken} is {@code null}
	 */
	private Notification handOff(String key, int budget) {
		InMemoryFairQueues.Waiter next = this.fairQueues.pollLive(key, budget);
		if (next != null) {
			long grantedAt = clockMillis();
			Attempt granted = grant(key, next.token(), next.grantTimeout());
			return new Notification(key, next.token(),
					new FairGrant(granted.fencingToken(), grantedAt, next.grantTimeout()));
		}
		return new Notification(key, this.waiters.pollOldest(key), null);
	}

	/**
	 * Return this store's clock, which fair refusals and grants tell: the JVM's monotonic
	 * clock in milliseconds.
	 */
	private static long clockMillis() {
		return TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
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
		return this.readLocks.live(key)
			.entrySet()
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

	private void requireReachable(String key, String operation) {
		if (this.unreachable) {
			throw new LockBackendException(key, operation, new IllegalStateException("the in-memory store is down"));
		}
	}

	private record Notification(String key, @Nullable String woken, @Nullable FairGrant grant) {

	}

	/**
	 * The replies an {@link InMemoryLockStore} holds after {@link #pauseReplies()}: the
	 * requests have been executed, their stages are not complete yet.
	 *
	 * @since 0.1.0
	 */
	public final class PausedReplies implements AutoCloseable {

		private final Deque<Runnable> held = new ArrayDeque<>();

		private PausedReplies() {
		}

		/**
		 * Return how many replies are held now: the number of requests executed since the
		 * pause whose stage is not complete.
		 * @return the number of held replies
		 */
		public int heldCount() {
			synchronized (InMemoryLockStore.this) {
				return this.held.size();
			}
		}

		/**
		 * Complete the held stages on the calling thread, one by one in the order their
		 * requests were executed (with the callbacks the caller attached to them), then
		 * stop holding. Requests executed while this runs are held behind the earlier
		 * ones and completed too. Idempotent.
		 */
		public void resume() {
			while (true) {
				Runnable next;
				synchronized (InMemoryLockStore.this) {
					next = this.held.poll();
					if (next == null) {
						if (InMemoryLockStore.this.paused == this) {
							InMemoryLockStore.this.paused = null;
						}
						return;
					}
				}
				next.run();
			}
		}

		/**
		 * Resume: complete every held stage.
		 */
		@Override
		public void close() {
			resume();
		}

		private <T extends @Nullable Object> CompletableFuture<T> hold(CompletableFuture<T> executed) {
			CompletableFuture<T> reply = new CompletableFuture<>();
			this.held.add(() -> Stages.forward(executed, reply));
			return reply;
		}

	}

	private record Grant(String token, long expiresAtNanos) {

	}

}
