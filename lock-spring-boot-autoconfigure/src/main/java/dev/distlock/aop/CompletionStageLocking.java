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

package dev.distlock.aop;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import dev.distlock.DistributedLockException;
import dev.distlock.LockAcquisitionException;
import dev.distlock.LockLostException;
import dev.distlock.annotation.LockLossPolicy;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHold;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/**
 * Locks a {@code @DistributedLock} method that returns a {@link CompletionStage} for as
 * long as that stage runs: acquire, call once the lock is granted, release when the stage
 * completes, normally or exceptionally. The caller always gets a
 * {@link CompletableFuture} of its own; a lock that cannot be had fails it (or completes
 * it with what the {@link LockFailurePolicy} answers) rather than throwing.
 * <p>
 * <b>The lock follows the work.</b> Completing the caller's future before the grant (a
 * cancel, an {@code orTimeout}) stops the acquisition, and the method is not called.
 * After the grant it only ends the caller's wait: nothing is forwarded to the method's
 * stage, which keeps the lock until it completes by itself. Cancelling a
 * {@code CompletableFuture} completes it at once while the work behind it runs on, so a
 * forwarded cancel would leave nothing that tells when the work really ended.
 * <p>
 * <b>Loss.</b> Under the {@code CANCEL} loss policy a lock lost while the method's stage
 * runs fails the caller's future with {@link LockLostException} and cancels that stage,
 * which then releases the lock as it ends; the lock is never taken again for the call.
 * <p>
 * <b>No user code on the client's threads.</b> The lock is taken without blocking the
 * caller, and the method is then called on the application's executor
 * ({@code distlock.async.executor}), never on the thread that delivered the grant; the
 * fallback and the failure handler run there too, and so does the completion of the
 * caller's future after the release. For an {@code @Async} method, whose body already
 * runs on an executor thread, the lock is taken on that thread and the method called
 * there.
 *
 * @author distlock
 */
final class CompletionStageLocking {

	private final ReleaseFailures releaseFailures;

	private final LockFailurePolicy failurePolicy;

	private final Supplier<Executor> executor;

	CompletionStageLocking(ReleaseFailures releaseFailures, LockFailurePolicy failurePolicy,
			Supplier<Executor> executor) {
		this.releaseFailures = releaseFailures;
		this.failurePolicy = failurePolicy;
		this.executor = executor;
	}

	CompletableFuture<@Nullable Object> lock(LockClient client, List<String> keys, LockOperation operation,
			MethodInvocation invocation, Object target, boolean onTheCallingThread) {
		CompletableFuture<@Nullable Object> result = new CompletableFuture<>();
		if (onTheCallingThread) {
			List<LockHold> holds;
			try {
				holds = CallLocks.acquire(client, keys, operation);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				result.completeExceptionally(new LockAcquisitionException(keys.get(0), operation.waitTime(), ex));
				return result;
			}
			catch (DistributedLockException ex) {
				notAcquired(operation, invocation, target, keys, ex, result);
				return result;
			}
			run(holds, operation, invocation, target, result);
			return result;
		}
		CompletableFuture<List<LockHold>> acquisition = new CompletableFuture<>();
		// Completed by anyone else before the grant (cancel, orTimeout): stop acquiring.
		// After the grant the acquisition is done and this does nothing.
		result.whenComplete((value, failure) -> acquisition.cancel(false));
		acquisition.whenComplete((holds, failure) -> {
			if (failure != null) {
				Throwable cause = unwrap(failure);
				if (cause instanceof DistributedLockException notAcquired) {
					notAcquired(operation, invocation, target, keys, notAcquired, result);
				}
				else {
					result.completeExceptionally(cause);
				}
			}
			else if (result.isDone()) {
				CallLocks.releaseAsync(holds, null);
			}
			else {
				run(holds, operation, invocation, target, result);
			}
		});
		CallLocks.acquireAsync(client, keys, operation, this::onExecutor, acquisition);
		return result;
	}

	private void run(List<LockHold> holds, LockOperation operation, MethodInvocation invocation, Object target,
			CompletableFuture<@Nullable Object> result) {
		CompletionStage<?> stage;
		try {
			stage = (CompletionStage<?>) invocation.proceed();
		}
		catch (Throwable ex) {
			CallLocks.releaseAsync(holds, null).whenComplete((released, releaseFailure) -> {
				if (releaseFailure != null) {
					ex.addSuppressed(unwrap(releaseFailure));
				}
				completeOnExecutor(result, () -> result.completeExceptionally(ex));
			});
			return;
		}
		if (stage == null) {
			stage = CompletableFuture.completedFuture(null);
		}
		AtomicBoolean ended = new AtomicBoolean();
		if (operation.onLoss() == LockLossPolicy.CANCEL) {
			cancelOnLoss(holds, stage, result, ended);
		}
		// Nothing of the caller's future is forwarded to the work: the lock is released
		// when the method's own stage completes, whatever the caller did meanwhile.
		stage.whenComplete((value, failure) -> ended.set(true));
		stage.whenComplete(
				(value, failure) -> CallLocks.releaseAsync(holds, (failure != null) ? null : operation.holdAtLeast())
					.whenComplete((released, releaseFailure) -> {
						if (failure != null) {
							Throwable cause = unwrap(failure);
							if (releaseFailure != null) {
								cause.addSuppressed(unwrap(releaseFailure));
							}
							completeOnExecutor(result, () -> result.completeExceptionally(cause));
						}
						else if (releaseFailure != null) {
							// reported (a WARN and an application event) even if the
							// caller gave up, and never on the client's thread
							completeOnExecutor(null, () -> result.completeExceptionally(this.releaseFailures
								.afterCompletion(operation, target, unwrap(releaseFailure), value, false)));
						}
						else {
							completeOnExecutor(result, () -> result.complete(value));
						}
					}));
	}

	/**
	 * Under the {@code CANCEL} loss policy: when a lock of the call is lost before the
	 * method's stage ended, fail the caller's future with the {@link LockLostException}
	 * and cancel the method's stage, on the executor (the stage's own dependents run
	 * there). The stage's completion then releases the holds as usual; the caller's
	 * future keeps the loss.
	 */
	private void cancelOnLoss(List<LockHold> holds, CompletionStage<?> work, CompletableFuture<@Nullable Object> result,
			AtomicBoolean ended) {
		LockLoss.ofAny(holds).thenAccept((loss) -> completeOnExecutor(null, () -> {
			if (ended.compareAndSet(false, true)) {
				result.completeExceptionally(loss);
				cancel(work);
			}
		}));
	}

	private static void cancel(CompletionStage<?> work) {
		if (work instanceof Future<?> future) {
			future.cancel(true);
			return;
		}
		try {
			work.toCompletableFuture().cancel(true);
		}
		catch (UnsupportedOperationException ex) {
			// A stage that cannot be cancelled: its work runs on, the caller has the loss
		}
	}

	/**
	 * Complete the caller's future on the executor, so that its continuations never run
	 * on the client's thread that finished the release; on the calling thread if the
	 * executor refuses the task. Nothing to do if {@code result} is given and done.
	 */
	private void completeOnExecutor(@Nullable CompletableFuture<@Nullable Object> result, Runnable completion) {
		if (result != null && result.isDone()) {
			return;
		}
		try {
			onExecutor(completion);
		}
		catch (RejectedExecutionException ex) {
			completion.run();
		}
	}

	private void onExecutor(Runnable task) {
		this.executor.get().execute(task);
	}

	private void notAcquired(LockOperation operation, MethodInvocation invocation, Object target, List<String> keys,
			DistributedLockException failure, CompletableFuture<@Nullable Object> result) {
		try {
			Object answer = this.failurePolicy.answer(operation, invocation, target, keys, failure);
			if (!(answer instanceof CompletionStage<?> stage)) {
				result.complete(answer);
				return;
			}
			stage.whenComplete((value, answerFailure) -> {
				if (answerFailure != null) {
					result.completeExceptionally(unwrap(answerFailure));
				}
				else {
					result.complete(value);
				}
			});
		}
		catch (Throwable ex) {
			result.completeExceptionally(ex);
		}
	}

	static Throwable unwrap(Throwable failure) {
		return (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause() : failure;
	}

}
