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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.HeldLock;
import dev.distlock.core.LockClientListener;
import dev.distlock.core.LockClientSettings;
import dev.distlock.store.support.Stages;

import org.springframework.util.Assert;

/**
 * Distributed locks for unit tests, without Redis: the engine's {@link DefaultLockClient}
 * over a {@link TestLockStore}, so locks behave as they do on Redis (local queue,
 * reentrancy, fencing tokens, waiting, leases and the watchdog, loss reporting), plus
 * controls a test needs: <pre class="code">
 * InMemoryLocks locks = new InMemoryLocks();
 * OrderService service = new OrderService(locks.client());
 *
 * locks.makeBusy("order:42");                  // another instance holds it
 * assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -&gt; service.order(42));
 * locks.makeFree("order:42");
 *
 * LockAssertions.assertRanUnderLock(locks, "order:42", () -&gt; service.order(42));
 * </pre> Every hold the client grants is recorded ({@link #holds()}). In a Spring test,
 * {@link dev.distlock.test.autoconfigure.AutoConfigureInMemoryLocks
 * &#64;AutoConfigureInMemoryLocks} makes an instance the application's lock client.
 * <p>
 * The locks exist in this JVM only: this is not a backend for production.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class InMemoryLocks implements AutoCloseable {

	private static final String OTHER_INSTANCE = "another-instance-";

	private final TestLockStore store = new TestLockStore();

	private final HoldRecorder recorder = new HoldRecorder();

	private final DefaultLockClient client;

	private final Map<String, String> foreignOwners = new ConcurrentHashMap<>();

	private final AtomicInteger foreignOwnerCount = new AtomicInteger();

	/**
	 * Create in-memory locks with the default client settings.
	 */
	public InMemoryLocks() {
		this(LockClientSettings.defaults(), LockClientListener.NONE);
	}

	/**
	 * Create in-memory locks whose client uses {@code settings} and tells
	 * {@code listener}, for example meters, what it does.
	 * @param settings the client settings, for example a short watchdog lease
	 * @param listener the listener, or {@link LockClientListener#NONE}
	 */
	public InMemoryLocks(LockClientSettings settings, LockClientListener listener) {
		Assert.notNull(settings, "'settings' must not be null");
		Assert.notNull(listener, "'listener' must not be null");
		this.client = new DefaultLockClient(this.store, settings,
				LockClientListener.composite(List.of(this.recorder, listener)));
	}

	/**
	 * Return the lock client to give the code under test.
	 * @return the client
	 */
	public DefaultLockClient client() {
		return this.client;
	}

	/**
	 * Return the store under the client, for what the other methods do not cover, for
	 * example {@link TestLockStore#setUnreachable(boolean)} to fail every operation as a
	 * Redis outage would.
	 * @return the store
	 */
	public TestLockStore store() {
		return this.store;
	}

	/**
	 * Make {@code key} look held by another instance until {@link #makeFree(String)}: an
	 * acquisition waits for it and then fails with
	 * {@link dev.distlock.LockAcquisitionException}, which does not know how long the
	 * holder keeps it.
	 * @param key the lock key
	 * @throws IllegalStateException if someone holds the key already
	 */
	public void makeBusy(String key) {
		Assert.hasText(key, "'key' must not be empty");
		String owner = newForeignOwner(key);
		boolean free;
		synchronized (this.store) {
			free = !this.store.isLocked(key);
			if (free) {
				this.store.takeOver(key, owner);
			}
		}
		requireWasFree(key, free);
		this.foreignOwners.put(key, owner);
	}

	/**
	 * Make {@code key} look held by another instance whose lease ends after
	 * {@code duration}, unless {@link #makeFree(String)} releases it earlier: an
	 * acquisition that fails meanwhile reports the holder's remaining lease
	 * ({@link dev.distlock.LockAcquisitionException#getHolderLeaseRemaining()}).
	 * @param key the lock key
	 * @param duration how long the other instance holds the key
	 * @throws IllegalStateException if someone holds the key already
	 */
	public void makeBusy(String key, Duration duration) {
		Assert.hasText(key, "'key' must not be empty");
		Assert.isTrue(duration != null && duration.compareTo(Duration.ZERO) > 0, "'duration' must be positive");
		String owner = newForeignOwner(key);
		boolean free = Stages.join(this.store.tryAcquire(key, owner, duration)).acquired();
		requireWasFree(key, free);
		this.foreignOwners.put(key, owner);
	}

	/**
	 * Release {@code key} on behalf of the other instance that {@link #makeBusy(String)}
	 * or {@link #loseLease(String)} made hold it, waking the callers that wait for it.
	 * @param key the lock key
	 * @throws IllegalStateException if no other instance was made to hold the key
	 */
	public void makeFree(String key) {
		String owner = this.foreignOwners.remove(key);
		if (owner == null) {
			throw new IllegalStateException(
					"Lock '" + key + "' was not made busy by makeBusy or loseLease; made busy: " + busyKeys());
		}
		Stages.join(this.store.release(key, owner));
	}

	/**
	 * Make the lease of this client's current hold of {@code key} get lost, as if it ran
	 * out and another instance took the key: the holder learns it as the engine tells it
	 * on Redis, with a {@link dev.distlock.LockLostException} from
	 * {@link dev.distlock.core.LockHold#confirmOwnership()}, from the release, from the
	 * ownership check before a commit, or once the watchdog fails to renew the lease
	 * (from then on {@code CurrentLock.assertHeld()} fails too); listeners hear of the
	 * loss. The other instance keeps the key until {@link #makeFree(String)}.
	 * @param key the lock key
	 * @throws IllegalStateException if this client does not hold the key
	 */
	public void loseLease(String key) {
		Set<String> held = heldKeys();
		if (!held.contains(key)) {
			throw new IllegalStateException(
					"This client does not hold lock '" + key + "', so it has no lease to lose; it holds " + held);
		}
		String owner = newForeignOwner(key);
		this.store.takeOver(key, owner);
		this.foreignOwners.put(key, owner);
	}

	/**
	 * Return the keys this client holds now.
	 * @return the held keys
	 */
	public Set<String> heldKeys() {
		return this.client.heldLocks().stream().map(HeldLock::key).collect(Collectors.toUnmodifiableSet());
	}

	/**
	 * Return every hold this client granted, in the order they were granted, since it was
	 * created or {@link #clearHolds()} was called.
	 * @return the holds, open and ended
	 */
	public List<RecordedHold> holds() {
		return this.recorder.holds();
	}

	/**
	 * Forget the recorded holds, for example between the steps of a test.
	 */
	public void clearHolds() {
		this.recorder.clear();
	}

	/**
	 * Close the client: holds still open are released.
	 */
	@Override
	public void close() {
		this.client.close();
	}

	HoldRecorder recorder() {
		return this.recorder;
	}

	private String newForeignOwner(String key) {
		String previous = this.foreignOwners.get(key);
		if (previous != null && Stages.join(this.store.isOwner(key, previous))) {
			throw new IllegalStateException(
					"Lock '" + key + "' is already held by another instance; call makeFree first");
		}
		return OTHER_INSTANCE + this.foreignOwnerCount.incrementAndGet();
	}

	private void requireWasFree(String key, boolean free) {
		if (!free) {
			throw new IllegalStateException("Lock '" + key + "' is held already, so it cannot be made busy; held by "
					+ "this client: " + heldKeys());
		}
	}

	private Set<String> busyKeys() {
		return Set.copyOf(this.foreignOwners.keySet());
	}

}
