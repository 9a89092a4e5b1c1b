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

import dev.distlock.LockBackendException;
import dev.distlock.LockLostException;

/**
 * One acquisition of a lock, owned by the call that acquired it rather than by a thread:
 * work may continue on other threads (a {@code CompletableFuture}, a reactive pipeline)
 * and {@link #release()} may be called from any of them, once. <pre class="code">
 * try (LockHold hold = lockClient.acquire("order:" + userId, Duration.ofSeconds(2), null)) {
 *     orders.place(userId, hold.fencingToken());
 * }
 * </pre> A hold is not reentrant: a second acquisition of the same key by another call of
 * the same client queues behind it until it is released or its lease ends (its fixed
 * lease ran out, or the lock was found lost): the local turn then passes on, as the store
 * passes the key on to other clients. Leases acquired without a fixed lease are renewed
 * by the client's watchdog until released.
 *
 * @author distlock
 * @since 0.1.0
 * @see LockClient#acquire
 * @see LockClient#acquireAsync
 */
public interface LockHold extends AutoCloseable {

	/**
	 * Return the lock key as the application named it.
	 * @return the key
	 */
	String key();

	/**
	 * Return the fencing token of this hold: a number strictly greater than every earlier
	 * grant of this key on the same backend. Pass it to the resource you protect so that
	 * it can reject writes from a holder whose lease ran out.
	 * @return the fencing token
	 */
	long fencingToken();

	/**
	 * Return whether this hold is still believed valid: not released, not reported lost,
	 * and its lease (less a clock-drift margin) not yet run out. Does not talk to the
	 * backend; see {@link #confirmOwnership()}.
	 * @return whether the hold is valid
	 */
	boolean isValid();

	/**
	 * Ask the backend whether this hold still owns the lock, for example just before a
	 * transaction commits.
	 * @throws IllegalStateException if the hold was already released
	 * @throws LockLostException if the backend no longer records this hold as the owner
	 * @throws LockBackendException if the backend could not be reached
	 */
	void confirmOwnership();

	/**
	 * Release the lock. May be called from any thread, once; the interrupt flag of the
	 * calling thread does not prevent the release and is left as it was.
	 * @throws IllegalStateException if the hold was already released
	 * @throws LockLostException if the lock had been lost before this release; the key of
	 * any new owner is left untouched
	 * @throws LockBackendException if the backend could not be reached; the lease then
	 * expires by itself since it is no longer renewed
	 */
	void release();

	/**
	 * Release the lock, keeping it in the store until at least {@code holdAtLeast} after
	 * it was acquired: while that time is not over, the lease is shortened to what is
	 * left (owner-checked) instead of the key being deleted. May be called from any
	 * thread, once.
	 * @param holdAtLeast the minimum time the lock stays taken
	 * @throws IllegalStateException if the hold was already released
	 * @throws LockLostException if the lock had been lost before this release
	 * @throws LockBackendException if the backend could not be reached
	 */
	void release(Duration holdAtLeast);

	/**
	 * Release the lock without blocking the calling thread: the release runs on a thread
	 * of the client, and the stage completes there, normally or with the exception
	 * {@link #release()} would have thrown.
	 * @return the pending release
	 */
	CompletionStage<Void> releaseAsync();

	/**
	 * {@link #release(Duration) Release} the lock keeping it at least {@code holdAtLeast}
	 * after it was acquired, without blocking the calling thread, as
	 * {@link #releaseAsync()} does.
	 * @param holdAtLeast the minimum time the lock stays taken
	 * @return the pending release
	 */
	CompletionStage<Void> releaseAsync(Duration holdAtLeast);

	/**
	 * Return a stage that completes with why the lock was lost, as soon as this client
	 * knows: the watchdog found it {@link LossReason#TAKEN taken} or its
	 * {@link LossReason#SESSION_EXPIRED session expired}, an operator
	 * {@link LossReason#FORCED forced} it, it was held past the
	 * {@link LossReason#MAX_HOLD maximum hold}, the client was {@link LossReason#CLOSED
	 * closed}, its fixed lease ran out ({@link LossReason#EXPIRED}, when it runs out), or
	 * its lease ran out while renewals failed ({@link LossReason#BACKEND}, when the
	 * holder's view of the lease runs out). A release, an ownership check or a re-entry
	 * that finds the lock lost completes it too. <pre class="code">
	 * hold.whenLost().thenAccept((reason) -> work.cancel(true));
	 * </pre> A normal release never completes it: after one it stays incomplete, and the
	 * client keeps no reference to it. It completes on a thread of the client that
	 * completes callers' futures (as {@link LockClient#acquireAsync} does), never on the
	 * store's I/O threads or the client's timer: a dependent that blocks or runs long
	 * belongs on an executor of the application, through the {@code ...Async} variants of
	 * {@link CompletionStage}. Each call returns a stage of its own, so completing or
	 * cancelling it changes no other.
	 * @return the loss signal
	 * @since 0.1.0
	 */
	CompletionStage<LossReason> whenLost();

	/**
	 * Release the lock unless it was already released.
	 * @throws LockLostException if the lock had been lost before this release
	 * @throws LockBackendException if the backend could not be reached
	 */
	@Override
	void close();

}
