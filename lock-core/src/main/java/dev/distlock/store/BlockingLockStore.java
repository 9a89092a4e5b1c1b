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
package dev.distlock.store;

import dev.distlock.store.support.BoundedExecutor;
import dev.distlock.store.support.StageTimeouts;
import dev.distlock.store.support.Stages;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import dev.distlock.LockBackendException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.util.Assert;

/**
 * The base of a {@link LockStore} whose backend client blocks (JDBC, say): the subclass
 * writes each required operation as a plain blocking method ({@link #doTryAcquire},
 * {@link #doRelease}, {@link #doExpireAfter}, {@link #doRenew}, {@link #doIsOwner}), and
 * this class turns it into the non-blocking SPI. Extensions it implements run their
 * blocking work through {@link #call} the same way. A subclass that needs more on
 * {@link #tryAcquire} or {@link #isOwner} (a check of the arguments before any work, a
 * path of its own in some cases) overrides it and calls this class's for the rest, so
 * that it stays one store.
 * <p>
 * Every operation runs on a bounded executor of the store's own (a fixed number of
 * threads and a bounded queue), except one that a caller marked as blocking for it starts
 * ({@link BlockingCaller}, as the engine marks a synchronous acquisition's first request
 * and a synchronous release) while fewer operations of the store run than it has threads:
 * that one runs on the calling thread, with no hop to the executor and back, and fails as
 * below when it took longer than the command timeout (the backend's own bound, a query
 * timeout say, must stop it near there). Operations on callers' threads and on the
 * executor share one permit per thread, so that a burst of callers never runs more
 * operations at once than the store has threads (never more than the connections of a
 * pool sized as the store, say); a caller runs on its own thread only when no operation
 * waits, so under load it queues, in turn, as an asynchronous call does. Either way:
 * <ul>
 * <li>its stage fails with {@link LockBackendException} when the operation throws, when
 * it gets no answer within the {@link #commandTimeout() command timeout} (queueing
 * included), and at once when every thread is busy and the queue is full, rather than
 * blocking the caller;</li>
 * <li>an operation whose stage already failed (timed out while queued) is never sent to
 * the backend late: a release sent to compensate for it can never be overtaken by
 * it;</li>
 * <li>an operation that already runs can ask {@link #callerGaveUp()} whether its stage is
 * done, and then stops rather than retrying;</li>
 * <li>an acquisition that was granted after its stage failed is released at once, on the
 * same thread, after the grant: the client's own compensating release may have run before
 * the grant, and found nothing to release.</li>
 * </ul>
 * An operation that timed out after it was sent may still complete in the backend; the
 * client then releases its token, as the SPI says. {@link #onRelease} stays the
 * subclass's: it must not block (a store that can only poll subscribes a poller of its
 * own, and one that cannot notify at all returns a subscription that never calls).
 *
 * @author distlock
 * @since 0.1.0
 */
public abstract class BlockingLockStore implements LockStore {

	/**
	 * The threads of a store's executor unless the subclass says otherwise.
	 */
	public static final int DEFAULT_THREADS = 4;

	/**
	 * The queue of a store's executor unless the subclass says otherwise.
	 */
	public static final int DEFAULT_QUEUE_CAPACITY = 16_384;

	private static final Log logger = LogFactory.getLog(BlockingLockStore.class);

	private static final AtomicInteger stores = new AtomicInteger();

	private static final ThreadLocal<CompletableFuture<?>> current = new ThreadLocal<>();

	private final Duration commandTimeout;

	private final BoundedExecutor executor;

	/**
	 * One permit per thread of the executor: an operation runs only with one, on the
	 * executor or on a marked caller's thread, so that no more operations run at once
	 * than the store has threads. Fair: the executor's operations get them in turn, and a
	 * caller takes one only when no operation waits.
	 */
	private final Semaphore permits;

	private volatile boolean closed;

	/**
	 * Create a store whose operations run on {@value #DEFAULT_THREADS} threads with a
	 * queue of {@value #DEFAULT_QUEUE_CAPACITY}.
	 * @param name a short name of the backend, for the threads' names and messages
	 * @param commandTimeout the longest an operation may take, queueing included
	 */
	protected BlockingLockStore(String name, Duration commandTimeout) {
		this(name, commandTimeout, DEFAULT_THREADS, DEFAULT_QUEUE_CAPACITY);
	}

	/**
	 * Create a store whose operations run on {@code threads} threads with a queue of
	 * {@code queueCapacity}.
	 * @param name a short name of the backend, for the threads' names and messages
	 * @param commandTimeout the longest an operation may take, queueing included
	 * @param threads how many operations may run at once
	 * @param queueCapacity how many operations may wait for a thread
	 */
	protected BlockingLockStore(String name, Duration commandTimeout, int threads, int queueCapacity) {
		Assert.hasText(name, "'name' must not be empty");
		Assert.notNull(commandTimeout, "'commandTimeout' must not be null");
		Assert.isTrue(!commandTimeout.isNegative() && !commandTimeout.isZero(), "'commandTimeout' must be positive");
		this.commandTimeout = commandTimeout;
		this.permits = new Semaphore(threads, true);
		this.executor = new BoundedExecutor("distlock-" + name + "-" + stores.incrementAndGet() + "-", threads,
				queueCapacity);
	}

	/**
	 * Return the longest an operation may take, queueing included.
	 * @return the command timeout
	 */
	public Duration commandTimeout() {
		return this.commandTimeout;
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
		return call(key, "acquire", () -> doTryAcquire(key, token, lease), (attempt) -> {
			if (attempt.acquired()) {
				releaseLateGrant(key, token);
			}
		});
	}

	/**
	 * Release, on the calling worker thread, a lock granted after its caller's stage had
	 * failed; a failure is logged, and the lease ends the lock.
	 * @param key the lock key
	 * @param token the token the late grant went to
	 */
	protected final void releaseLateGrant(String key, String token) {
		try {
			doRelease(key, token);
		}
		catch (Exception ex) {
			logger.debug("Could not release a lock granted after its caller gave up; its lease ends it", ex);
		}
	}

	@Override
	public final CompletionStage<Boolean> release(String key, String token) {
		return call(key, "release", () -> doRelease(key, token));
	}

	@Override
	public final CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
		return call(key, "shorten", () -> doExpireAfter(key, token, remaining));
	}

	@Override
	public final CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
		String key = renewals.isEmpty() ? "" : renewals.get(0).key();
		return call(key, "renew", () -> doRenew(renewals, lease));
	}

	@Override
	public CompletionStage<Boolean> isOwner(String key, String token) {
		return call(key, "check", () -> doIsOwner(key, token));
	}

	/**
	 * Take the lock, as {@link LockStore#tryAcquire} says, blocking.
	 * @param key the lock key
	 * @param token the owner token
	 * @param lease the lease
	 * @return the grant or the refusal
	 * @throws Exception if the backend failed
	 */
	protected abstract Attempt doTryAcquire(String key, String token, Duration lease) throws Exception;

	/**
	 * Release the lock, as {@link LockStore#release} says, blocking.
	 * @param key the lock key
	 * @param token the owner token
	 * @return whether {@code token} owned the lock
	 * @throws Exception if the backend failed
	 */
	protected abstract boolean doRelease(String key, String token) throws Exception;

	/**
	 * Shorten the lease, as {@link LockStore#expireAfter} says, blocking.
	 * @param key the lock key
	 * @param token the owner token
	 * @param remaining how much longer the lock lives
	 * @return whether {@code token} owned the lock
	 * @throws Exception if the backend failed
	 */
	protected abstract boolean doExpireAfter(String key, String token, Duration remaining) throws Exception;

	/**
	 * Renew a batch, as {@link LockStore#renew} says, blocking.
	 * @param renewals the locks to renew
	 * @param lease the new lease
	 * @return one outcome per renewal, in order
	 * @throws Exception if the backend failed for the whole batch
	 */
	protected abstract List<RenewalOutcome> doRenew(List<Renewal> renewals, Duration lease) throws Exception;

	/**
	 * Check an owner, as {@link LockStore#isOwner} says, blocking.
	 * @param key the lock key
	 * @param token the owner token
	 * @return whether {@code token} owns the lock
	 * @throws Exception if the backend failed
	 */
	protected abstract boolean doIsOwner(String key, String token) throws Exception;

	/**
	 * Run one blocking operation on the store's executor, bounded by the command timeout:
	 * the stage fails with {@link LockBackendException} naming {@code key} and
	 * {@code operation} when the command throws, times out or finds the executor full; a
	 * command whose stage failed before it started is never run.
	 * @param <T> the result type
	 * @param key the lock key, for the failure
	 * @param operation what the command does, as in "failed to {@code operation}"
	 * @param command the blocking work
	 * @return the stage of its result
	 */
	protected final <T> CompletableFuture<T> call(String key, String operation, Callable<T> command) {
		return call(key, operation, command, (late) -> {
		});
	}

	/**
	 * Run one blocking operation as {@link #call(String, String, Callable)} does, and
	 * hand its result to {@code late}, on the same thread, when the operation completed
	 * after its stage had already failed (a grant to undo, say).
	 * @param <T> the result type
	 * @param key the lock key, for the failure
	 * @param operation what the command does, as in "failed to {@code operation}"
	 * @param command the blocking work
	 * @param late what to do with a result that came too late
	 * @return the stage of its result
	 */
	protected final <T> CompletableFuture<T> call(String key, String operation, Callable<T> command,
			Consumer<? super T> late) {
		if (!this.closed && BlockingCaller.take() && mayRunHere()) {
			try {
				return callHere(key, operation, command, late);
			}
			finally {
				this.permits.release();
			}
		}
		CompletableFuture<T> reply = new CompletableFuture<>();
		try {
			this.executor.execute(() -> {
				if (reply.isDone()) {
					return;
				}
				T result;
				// A marked caller may run an operation on its own thread with the permit
				// of this one: wait for it, as for a connection of a full pool
				this.permits.acquireUninterruptibly();
				if (reply.isDone()) {
					this.permits.release();
					return;
				}
				current.set(reply);
				try {
					result = command.call();
				}
				catch (Throwable ex) {
					reply.completeExceptionally(ex);
					return;
				}
				finally {
					current.remove();
					this.permits.release();
				}
				if (!reply.complete(result)) {
					late.accept(result);
				}
			});
		}
		catch (RejectedExecutionException ex) {
			return CompletableFuture.failedFuture(new LockBackendException(key, operation, ex));
		}
		return StageTimeouts.within(reply, this.commandTimeout, "a request to " + operation)
			.handle((value, failure) -> (failure != null)
					? CompletableFuture.<T>failedFuture(backendFailure(key, operation, Stages.unwrap(failure)))
					: CompletableFuture.completedFuture(value))
			.thenCompose((stage) -> stage);
	}

	/**
	 * Take a permit for an operation on the calling thread, if one is free and no
	 * operation waits for one or for a thread: a caller never goes before operations
	 * queued earlier.
	 */
	private boolean mayRunHere() {
		if (this.executor.hasQueuedTasks()) {
			return false;
		}
		try {
			// Unlike tryAcquire(), honours the fairness: no permit while others wait
			return this.permits.tryAcquire(0, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * Run one blocking operation on the calling thread, which blocks for it anyway: it
	 * fails as on the executor when the command throws, and when it took longer than the
	 * command timeout, whose result then goes to {@code late}.
	 */
	private <T> CompletableFuture<T> callHere(String key, String operation, Callable<T> command,
			Consumer<? super T> late) {
		CompletableFuture<T> reply = new CompletableFuture<>();
		long started = System.nanoTime();
		T result;
		current.set(reply);
		try {
			result = command.call();
		}
		catch (Throwable ex) {
			return CompletableFuture.failedFuture(backendFailure(key, operation, Stages.unwrap(ex)));
		}
		finally {
			current.remove();
		}
		if (System.nanoTime() - started > this.commandTimeout.toNanos()) {
			late.accept(result);
			return CompletableFuture.failedFuture(new LockBackendException(key, operation, new TimeoutException(
					"a request to " + operation + " took longer than " + this.commandTimeout.toMillis() + " ms")));
		}
		reply.complete(result);
		return reply;
	}

	/**
	 * Return whether the stage of the operation running on the calling thread is already
	 * done (it timed out, say): its work should then stop rather than retry.
	 * @return whether the caller gave up, {@code false} outside an operation
	 */
	protected static boolean callerGaveUp() {
		CompletableFuture<?> reply = current.get();
		return reply != null && reply.isDone();
	}

	private static Throwable backendFailure(String key, String operation, Throwable failure) {
		return (failure instanceof LockBackendException) ? failure : new LockBackendException(key, operation, failure);
	}

	/**
	 * Stop the executor: operations still queued run, and those whose stage already
	 * failed are skipped. A subclass that overrides this calls it too.
	 */
	@Override
	public void close() {
		this.closed = true;
		this.executor.shutdown();
	}

}
