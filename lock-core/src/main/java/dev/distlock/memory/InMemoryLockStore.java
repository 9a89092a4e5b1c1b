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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.distlock.LockBackendException;
import dev.distlock.store.FairGrantWakeUpExtension;
import dev.distlock.store.FairGrantWakeUpExtension.ClockedAttempt;
import dev.distlock.store.FairGrantWakeUpExtension.FairGrant;
import dev.distlock.store.FairQueueLimits;
import dev.distlock.store.HandOverExtension;
import dev.distlock.store.HeldLockOperations;
import dev.distlock.store.InspectionExtension;
import dev.distlock.store.LockStore;
import dev.distlock.store.LockStoreExtension;
import dev.distlock.store.ReadLockExtension;
import dev.distlock.store.LocalHandOverExtension;
import dev.distlock.store.SessionLeaseExtension;
import dev.distlock.store.SeveralKeysExtension;
import dev.distlock.store.WakeOneExtension;
import dev.distlock.memory.InMemoryGrants.Grant;
import dev.distlock.store.support.RecentReleases;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LockStore} in memory, in one JVM: its locks are <em>not distributed</em>, two
 * application instances each with their own store do not exclude each other. It is for
 * tests, examples and applications that run as a single instance, as Spring's
 * {@code ConcurrentMapCache} is for caching; it is no backend for several instances.
 * <p>
 * It behaves like a distributed store: leases expire on time, operations are
 * owner-checked, fencing tokens increase (spaced by the default room of
 * {@link LocalHandOverExtension}), releases notify listeners, read locks are shared with
 * a writer-waiting mark, and a released lock is then handed off (to the first live fair
 * waiter directly, else by waking one registered waiting client). It implements every
 * {@link LockStoreExtension} but {@link SessionLeaseExtension}: its locks have leases of
 * their own.
 * <p>
 * Every request runs on the calling thread, under the monitor of this store object, and
 * its stage is complete when the method returns. Subclasses, such as
 * {@code dev.distlock.test.TestLockStore} of {@code lock-store-test}, can make the store
 * unreachable ({@link #isReachable()}), hold the replies
 * ({@link #reply(CompletableFuture)}), and read or change a key's state as another owner
 * or the end of a lease would ({@link #isHeld(String)},
 * {@link #assignToForeignOwner(String, String)}, {@link #drop(String)},
 * {@link #registeredWaiterCount(String)}).
 *
 * @author distlock
 * @since 0.1.0
 */
public class InMemoryLockStore implements LockStore, ReadLockExtension, FairGrantWakeUpExtension, WakeOneExtension,
		HandOverExtension, LocalHandOverExtension, SeveralKeysExtension, InspectionExtension {

	private final InMemoryGrants grants = new InMemoryGrants();

	private final InMemoryReadLocks readLocks = new InMemoryReadLocks();

	private final HeldLockOperations readGrants = new ReadGrants();

	private final InMemoryReleaseListeners listeners = new InMemoryReleaseListeners();

	private final InMemoryRegisteredWaiters waiters = new InMemoryRegisteredWaiters();

	private final InMemoryFairQueues fairQueues = new InMemoryFairQueues();

	private final RecentReleases releases = new RecentReleases(1024);

	/**
	 * Notifications of the request being executed, sent once it left the monitor.
	 */
	private final List<Notification> notifications = new ArrayList<>();

	@Override
	public final CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
		return execute(() -> acquire(key, token, lease));
	}

	@Override
	public final CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease, String waiter,
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
	public final CompletionStage<ClockedAttempt> tryAcquireFairClocked(String key, String token, Duration lease,
			@Nullable Duration grantTimeout) {
		return execute(() -> {
			requireReachable(key, "acquire");
			if (this.grants.isHeldBy(key, token)) {
				this.grants.extend(key, token, lease);
				return new ClockedAttempt(Attempt.granted(this.grants.lastFence(key)), clockMillis());
			}
			Attempt refused = busyForWriter(key, token);
			if (refused == null) {
				InMemoryFairQueues.Admission admission = this.fairQueues.admit(key, token,
						FairQueueLimits.GONE_WAITERS_PER_STEP);
				if (admission.admitted()) {
					return new ClockedAttempt(grant(key, token, lease), clockMillis());
				}
				Notification handedOff = handOff(key, admission.budgetLeft());
				if (handedOff.woken() != null) {
					this.notifications.add(handedOff);
				}
			}
			if (grantTimeout != null) {
				this.fairQueues.join(key, token, grantTimeout);
			}
			Attempt busy = (refused != null) ? refused : busy(key);
			return new ClockedAttempt(Attempt.busy(busy.holderLeaseRemaining()), clockMillis());
		});
	}

	@Override
	public final CompletionStage<@Nullable Attempt> handOver(String key, String token, String nextToken,
			Duration lease) {
		return this.<@Nullable Attempt>execute(() -> {
			requireReachable(key, "hand over");
			if (this.grants.isHeldBy(key, nextToken)) {
				// A replay: the same grant again
				return Attempt.granted(this.grants.lastFence(key));
			}
			if (!this.grants.isHeldBy(key, token)) {
				return Attempt.busy(null);
			}
			if (!this.fairQueues.isEmpty(key)) {
				return null;
			}
			return grant(key, nextToken, lease);
		});
	}

	@Override
	public final CompletionStage<Void> leave(String key, String waiter) {
		return execute(() -> {
			requireReachable(key, "leave");
			this.waiters.forget(key, waiter);
			return null;
		});
	}

	@Override
	public final CompletionStage<Void> leaveFairQueue(String key, String token) {
		return execute(() -> {
			requireReachable(key, "leave");
			this.fairQueues.leave(key, token);
			if (this.grants.isHeldBy(key, token)) {
				this.grants.remove(key);
				this.notifications.add(handOff(key, FairQueueLimits.GONE_WAITERS_PER_STEP));
			}
			return null;
		});
	}

	@Override
	public final CompletionStage<@Nullable List<Attempt>> tryAcquireAll(List<String> keys, String token,
			Duration lease) {
		return this.<@Nullable List<Attempt>>execute(() -> {
			requireReachable(keys.get(0), "acquire");
			List<Attempt> busy = new ArrayList<>(keys.size());
			for (String key : keys) {
				// A key the token holds already is a replay: acquire answers it
				busy.add(this.grants.isHeldBy(key, token) ? null : busyForWriter(key, token));
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
	public final HeldLockOperations readGrants() {
		return this.readGrants;
	}

	@Override
	public final CompletionStage<Attempt> tryAcquireRead(String key, String token, Duration lease) {
		return execute(() -> {
			requireReachable(key, "acquire");
			Grant writer = this.grants.live(key);
			if (writer != null) {
				return writer.refusal();
			}
			return this.readLocks.tryAcquire(key, token, lease);
		});
	}

	@Override
	public final CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
		return execute(() -> {
			requireReachable(key, "release");
			if (!this.grants.isHeldBy(key, token)) {
				return false;
			}
			this.grants.extend(key, token, remaining);
			return true;
		});
	}

	@Override
	public final CompletionStage<Boolean> release(String key, String token) {
		return execute(() -> {
			requireReachable(key, "release");
			if (!this.grants.isHeldBy(key, token)) {
				// A replay answers as the first release did
				return this.releases.wasReleased(key, token);
			}
			this.grants.remove(key);
			this.releases.released(key, token);
			this.notifications.add(handOff(key, FairQueueLimits.GONE_WAITERS_PER_STEP));
			return true;
		});
	}

	@Override
	public final CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
		return execute(() -> {
			List<RenewalOutcome> outcomes = new ArrayList<>(renewals.size());
			boolean reachable = isReachable();
			for (Renewal renewal : renewals) {
				boolean owned = this.grants.isHeldBy(renewal.key(), renewal.token());
				if (!reachable) {
					outcomes.add(RenewalOutcome.FAILED);
				}
				else if (owned) {
					this.grants.extend(renewal.key(), renewal.token(), lease);
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
	public final CompletionStage<Boolean> isOwner(String key, String token) {
		return execute(() -> {
			requireReachable(key, "check");
			return this.grants.isHeldBy(key, token);
		});
	}

	@Override
	public final Subscription onRelease(String key, Runnable listener) {
		return this.listeners.subscribe(key, null, (grant) -> listener.run());
	}

	@Override
	public final Subscription onRelease(String key, String waiter, Runnable listener) {
		return this.listeners.subscribe(key, waiter, (grant) -> listener.run());
	}

	@Override
	public final Subscription onFairGrant(String key, String token, Consumer<@Nullable FairGrant> listener) {
		return this.listeners.subscribe(key, token, listener);
	}

	@Override
	public final CompletionStage<KeyState> inspect(String key) {
		return execute(() -> {
			requireReachable(key, "inspect");
			Grant current = holder(key);
			long fence = this.grants.lastFence(key);
			return (current != null) ? new KeyState(current.token(), current.remaining(), fence)
					: new KeyState(null, null, fence);
		});
	}

	@Override
	public final CompletionStage<@Nullable String> forceRelease(String key) {
		return this.<@Nullable String>execute(() -> {
			requireReachable(key, "force-release");
			Grant released = holder(key);
			if (released == null) {
				return null;
			}
			this.grants.remove(key);
			this.readLocks.drop(key);
			this.notifications.add(new Notification(key, null, null));
			return released.token();
		});
	}

	/**
	 * Return whether the store answers now. When it does not, every request fails with a
	 * {@link LockBackendException} and every renewal answers
	 * {@link RenewalOutcome#FAILED}, as a store whose backend cannot be reached; its
	 * state is kept. Called under the store's monitor at the start of each request. This
	 * implementation answers {@code true}.
	 * @return whether the store answers
	 */
	protected boolean isReachable() {
		return true;
	}

	/**
	 * Return the stage a request's caller gets, given the stage of its execution, which
	 * is complete (with the result or the failure of the request). Called under the
	 * store's monitor once the request has been executed, in the order the requests are
	 * executed; the release notifications the request causes are sent after this returns.
	 * This implementation returns {@code executed}; a subclass may return a stage it
	 * completes later, to hold the reply as a network would.
	 * @param <T> the type of the request's result
	 * @param executed the complete stage of the executed request
	 * @return the stage to return to the caller
	 */
	protected <T extends @Nullable Object> CompletionStage<T> reply(CompletableFuture<T> executed) {
		return executed;
	}

	/**
	 * Return whether someone holds {@code key}, a writer or readers, reading the state
	 * without a request (reachable or not, replies held or not).
	 * @param key the lock key
	 * @return whether the key is locked
	 */
	protected final synchronized boolean isHeld(String key) {
		return holder(key) != null;
	}

	/**
	 * Give {@code key} to {@code owner}, an owner this store does not serve, without
	 * expiry, and drop its readers, without notifying: the current holder finds it lost.
	 * @param key the lock key
	 * @param owner the foreign owner token
	 */
	protected final synchronized void assignToForeignOwner(String key, String owner) {
		this.readLocks.drop(key);
		this.grants.grantForever(key, owner);
	}

	/**
	 * Drop the lock on {@code key} (the writer and every reader) as if its lease had run
	 * out, without notifying.
	 * @param key the lock key
	 */
	protected final synchronized void drop(String key) {
		this.grants.remove(key);
		this.readLocks.drop(key);
	}

	/**
	 * Return how many clients are registered as waiting for {@code key} and still within
	 * their time to live.
	 * @param key the lock key
	 * @return the number of registered waiting clients
	 */
	protected final synchronized int registeredWaiterCount(String key) {
		return this.waiters.count(key);
	}

	private Attempt acquire(String key, String token, Duration lease) {
		requireReachable(key, "acquire");
		if (this.grants.isHeldBy(key, token)) {
			// A replay: the same grant again
			this.grants.extend(key, token, lease);
			return Attempt.granted(this.grants.lastFence(key));
		}
		Attempt busy = busyForWriter(key, token);
		if (busy != null) {
			return busy;
		}
		return grant(key, token, lease);
	}

	/**
	 * Execute one request under the store's monitor, then send the notifications it
	 * caused and return the stage {@link #reply(CompletableFuture)} gives for it.
	 */
	private <T extends @Nullable Object> CompletionStage<T> execute(Supplier<T> request) {
		CompletionStage<T> reply;
		List<Notification> toSend;
		synchronized (this) {
			CompletableFuture<T> executed;
			try {
				executed = CompletableFuture.completedFuture(request.get());
			}
			catch (RuntimeException | Error ex) {
				executed = CompletableFuture.failedFuture(ex);
			}
			toSend = new ArrayList<>(this.notifications);
			this.notifications.clear();
			reply = reply(executed);
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
		Grant current = this.grants.live(key);
		if (current != null) {
			return current.refusal();
		}
		return this.readLocks.busyForWriter(key, token);
	}

	private Attempt busy(String key) {
		Grant current = this.grants.live(key);
		return (current != null) ? current.refusal() : Attempt.busy(null);
	}

	private Attempt grant(String key, String token, Duration lease) {
		long fence = this.grants.grant(key, token, lease);
		this.readLocks.writerGranted(key, token);
		return Attempt.granted(fence);
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

	/**
	 * The operations on read grants: each runs as the store's own operations do.
	 */
	private final class ReadGrants implements HeldLockOperations {

		@Override
		public CompletionStage<Boolean> release(String key, String token) {
			return execute(() -> {
				requireReachable(key, "release");
				Boolean owned = InMemoryLockStore.this.readLocks.release(key, token);
				if (owned == null) {
					// A replay answers as the first release did
					return InMemoryLockStore.this.releases.wasReleased(key, token);
				}
				if (owned) {
					InMemoryLockStore.this.releases.released(key, token);
				}
				if (InMemoryLockStore.this.readLocks.live(key).isEmpty()) {
					InMemoryLockStore.this.notifications.add(handOff(key, FairQueueLimits.GONE_WAITERS_PER_STEP));
				}
				return owned;
			});
		}

		@Override
		public CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
			return execute(() -> {
				requireReachable(key, "release");
				Map<String, Long> reading = InMemoryLockStore.this.readLocks.live(key);
				if (!reading.containsKey(token)) {
					return false;
				}
				reading.put(token, System.nanoTime() + remaining.toNanos());
				return true;
			});
		}

		@Override
		public CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
			return execute(() -> {
				List<RenewalOutcome> outcomes = new ArrayList<>(renewals.size());
				boolean reachable = isReachable();
				for (Renewal renewal : renewals) {
					Map<String, Long> reading = InMemoryLockStore.this.readLocks.live(renewal.key());
					if (!reachable) {
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
				return InMemoryLockStore.this.readLocks.live(key).containsKey(token);
			});
		}

	}

	/**
	 * Return the writer, or the reader whose lease ends last, of {@code key}.
	 */
	private @Nullable Grant holder(String key) {
		Grant writer = this.grants.live(key);
		if (writer != null) {
			return writer;
		}
		return this.readLocks.live(key)
			.entrySet()
			.stream()
			.max(Map.Entry.comparingByValue())
			.map((reader) -> new Grant(reader.getKey(), reader.getValue(), 0))
			.orElse(null);
	}

	private void requireReachable(String key, String operation) {
		if (!isReachable()) {
			throw new LockBackendException(key, operation, new IllegalStateException("the in-memory store is down"));
		}
	}

	private record Notification(String key, @Nullable String woken, @Nullable FairGrant grant) {

	}

}
