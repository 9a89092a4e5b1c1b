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

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import dev.distlock.LockAcquisitionException;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHold;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/**
 * Locks a {@code @DistributedLock} method that returns a {@link CompletionStage} for as
 * long as that stage runs: acquire, call once the lock is granted, release when the stage
 * completes normally, exceptionally or is cancelled. The caller always gets a
 * {@link CompletableFuture}; a busy lock fails it (or completes it with the fallback's
 * result) rather than throwing.
 * <p>
 * The lock is taken without blocking the caller, so the method itself is called on the
 * thread that saw the grant: a thread of the lock client, or the calling thread if the
 * grant had already completed; for an {@code @Async} method, whose body already runs on
 * an executor thread, the lock is taken on that thread and the method called there.
 *
 * @author distlock
 */
final class CompletionStageLocking {

	private final ReleaseFailures releaseFailures;

	CompletionStageLocking(ReleaseFailures releaseFailures) {
		this.releaseFailures = releaseFailures;
	}

	CompletableFuture<@Nullable Object> lock(LockClient client, String key, LockOperation operation,
			MethodInvocation invocation, Object target, boolean onTheCallingThread) {
		CompletableFuture<@Nullable Object> result = new CompletableFuture<>();
		if (onTheCallingThread) {
			LockHold hold;
			try {
				hold = client.acquire(key, operation.waitTime(), operation.leaseTime());
			}
			catch (LockAcquisitionException ex) {
				busy(operation, invocation, target, ex, result);
				return result;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				result.completeExceptionally(new LockAcquisitionException(key, operation.waitTime(), ex));
				return result;
			}
			catch (RuntimeException ex) {
				result.completeExceptionally(ex);
				return result;
			}
			run(hold, operation, invocation, target, result);
			return result;
		}
		CompletableFuture<LockHold> acquisition = client.acquireAsync(key, operation.waitTime(), operation.leaseTime())
			.toCompletableFuture();
		result.whenComplete((value, failure) -> {
			if (result.isCancelled()) {
				acquisition.cancel(false);
			}
		});
		acquisition.whenComplete((hold, failure) -> {
			if (failure != null) {
				Throwable cause = unwrap(failure);
				if (cause instanceof LockAcquisitionException busy
						&& !(busy.getCause() instanceof InterruptedException)) {
					busy(operation, invocation, target, busy, result);
				}
				else {
					result.completeExceptionally(cause);
				}
			}
			else if (result.isDone()) {
				hold.releaseAsync();
			}
			else {
				run(hold, operation, invocation, target, result);
			}
		});
		return result;
	}

	private void run(LockHold hold, LockOperation operation, MethodInvocation invocation, Object target,
			CompletableFuture<@Nullable Object> result) {
		CompletionStage<?> stage;
		try {
			stage = (CompletionStage<?>) invocation.proceed();
		}
		catch (Throwable ex) {
			hold.releaseAsync().whenComplete((released, releaseFailure) -> {
				if (releaseFailure != null) {
					ex.addSuppressed(unwrap(releaseFailure));
				}
				result.completeExceptionally(ex);
			});
			return;
		}
		if (stage == null) {
			stage = CompletableFuture.completedFuture(null);
		}
		CompletableFuture<?> work = stage.toCompletableFuture();
		result.whenComplete((value, failure) -> {
			if (result.isCancelled()) {
				work.cancel(true);
			}
		});
		stage.whenComplete((value, failure) -> hold.releaseAsync().whenComplete((released, releaseFailure) -> {
			if (failure != null) {
				Throwable cause = unwrap(failure);
				if (releaseFailure != null) {
					cause.addSuppressed(unwrap(releaseFailure));
				}
				result.completeExceptionally(cause);
			}
			else if (releaseFailure != null) {
				result.completeExceptionally(
						this.releaseFailures.afterCompletion(operation, target, unwrap(releaseFailure), value, false));
			}
			else {
				result.complete(value);
			}
		}));
	}

	private static void busy(LockOperation operation, MethodInvocation invocation, Object target,
			LockAcquisitionException busy, CompletableFuture<@Nullable Object> result) {
		FallbackMethod fallback = operation.fallback();
		if (fallback == null) {
			result.completeExceptionally(busy);
			return;
		}
		try {
			CompletionStage<?> stage = (CompletionStage<?>) fallback.invoke(target, invocation.getArguments(), busy);
			if (stage == null) {
				result.complete(null);
				return;
			}
			stage.whenComplete((value, failure) -> {
				if (failure != null) {
					result.completeExceptionally(unwrap(failure));
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
