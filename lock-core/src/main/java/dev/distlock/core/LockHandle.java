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

import dev.distlock.LossReason;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

import dev.distlock.LockAcquisitionException;
import dev.distlock.LockBackendException;
import dev.distlock.LockLostException;
import org.jspecify.annotations.Nullable;

/**
 * A distributed lock on one key, with {@link java.util.concurrent.locks.ReentrantLock}
 * semantics per thread: the thread that locks must unlock, and may lock again while
 * holding it without another store round trip.
 * <p>
 * Handles are cheap views; every handle a {@link LockClient} returns for the same key
 * shares one ownership state, so nested code may obtain its own handle and re-enter.
 * Methods of {@link Lock} without a lease argument use the watchdog lease of the client,
 * renewed while held. {@link #newCondition()} is not supported.
 * <p>
 * Store failures surface as {@link LockBackendException}: acquisition fails closed.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface LockHandle extends Lock {

	/**
	 * Return the key this handle locks, as the application named it.
	 * @return the lock key
	 */
	String key();

	/**
	 * Acquire the lock under the watchdog lease, waiting at most {@code waitTime}.
	 * @param waitTime how long to wait; {@link Duration#ZERO} for a single attempt
	 * @return whether the lock was acquired
	 * @throws InterruptedException if interrupted while waiting
	 * @throws LockLostException if the calling thread re-enters a lock it has lost
	 */
	boolean tryLock(Duration waitTime) throws InterruptedException;

	/**
	 * Acquire the lock with a fixed lease that is never renewed, waiting at most
	 * {@code waitTime}. The store releases the lock when the lease ends even if the
	 * holder has not unlocked. A re-entry keeps the lease of the first acquisition.
	 * @param waitTime how long to wait; {@link Duration#ZERO} for a single attempt
	 * @param leaseTime how long the lock lives in the store unless unlocked earlier
	 * @return whether the lock was acquired
	 * @throws InterruptedException if interrupted while waiting
	 * @throws LockLostException if the calling thread re-enters a lock it has lost
	 */
	boolean tryLock(Duration waitTime, Duration leaseTime) throws InterruptedException;

	/**
	 * Acquire the lock, waiting at most {@code waitTime}, or fail with an exception that
	 * says how long the current holder's lease had left.
	 * @param waitTime how long to wait; {@link Duration#ZERO} for a single attempt
	 * @param leaseTime a fixed lease, or {@code null} for the renewed watchdog lease
	 * @throws LockAcquisitionException if the lock stayed busy for the whole wait time
	 * @throws InterruptedException if interrupted while waiting
	 * @throws LockLostException if the calling thread re-enters a lock it has lost
	 */
	default void acquire(Duration waitTime, @Nullable Duration leaseTime) throws InterruptedException {
		boolean acquired = (leaseTime != null) ? tryLock(waitTime, leaseTime) : tryLock(waitTime);
		if (!acquired) {
			throw LockAcquisitionException.busy(key(), waitTime, null);
		}
	}

	/**
	 * Release one hold; the lock is released in the store when the hold count reaches
	 * zero.
	 * @throws IllegalMonitorStateException if the calling thread does not hold the lock
	 * @throws LockLostException if the lease had been lost before this final release; the
	 * key of any new owner is left untouched
	 * @throws LockBackendException if the store could not be reached; the lease then
	 * expires by itself since it is no longer renewed
	 */
	@Override
	void unlock();

	/**
	 * Release one hold, keeping the lock in the store until at least {@code holdAtLeast}
	 * after it was acquired: when this is the last hold and that time is not over, the
	 * lease is shortened to what is left (owner-checked) instead of the key being
	 * deleted, so nobody else gets the lock before then.
	 * @param holdAtLeast the minimum time the lock stays taken
	 * @throws IllegalMonitorStateException if the calling thread does not hold the lock
	 * @throws LockLostException if the lease had been lost before this release
	 * @throws LockBackendException if the store could not be reached
	 */
	void unlock(Duration holdAtLeast);

	/**
	 * Return whether the calling thread holds this lock and, as far as this client knows,
	 * its lease is still valid.
	 * @return whether the lock is held by the calling thread
	 */
	boolean isHeldByCurrentThread();

	/**
	 * Return how many times the calling thread holds this lock.
	 * @return the hold count, {@code 0} if not held
	 */
	int getHoldCount();

	/**
	 * Return the fencing token of the current hold: a number strictly greater than every
	 * earlier grant of this key in the same store. Pass it to the resource you protect so
	 * that it can reject writes from a holder whose lease ran out.
	 * @return the fencing token
	 * @throws IllegalMonitorStateException if the calling thread does not hold the lock
	 */
	long fencingToken();

	/**
	 * Ask the store whether the calling thread still owns this lock, for example just
	 * before a transaction commits.
	 * @throws IllegalMonitorStateException if the calling thread does not hold the lock
	 * @throws LockLostException if the store no longer records this holder as the owner
	 * @throws LockBackendException if the store could not be reached
	 */
	void confirmOwnership();

	/**
	 * Return a stage that completes with why the calling thread's hold of this lock was
	 * lost, as {@link LockHold#whenLost()} does for a call-owned hold: never by a normal
	 * release, completed on a thread of the client, never on the store's I/O threads or
	 * the client's timer. For example, to stop a long loop on another thread:
	 * <pre class="code">
	 * lock.whenLost().thenAccept((reason) -> stop.set(true));
	 * </pre>
	 * @return the loss signal of the current hold
	 * @throws IllegalMonitorStateException if the calling thread does not hold the lock
	 * @since 0.1.0
	 */
	CompletionStage<LossReason> whenLost();

	/**
	 * Not supported.
	 * @throws UnsupportedOperationException always
	 */
	@Override
	default Condition newCondition() {
		throw new UnsupportedOperationException("Conditions are not supported by distributed locks");
	}

}
