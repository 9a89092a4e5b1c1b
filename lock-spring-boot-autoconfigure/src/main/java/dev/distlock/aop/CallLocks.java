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

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import dev.distlock.core.LockCaller;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHold;
import org.jspecify.annotations.Nullable;

/**
 * Acquires and releases the call-owned holds of one {@code @DistributedLock} call: one
 * key, or several taken all or nothing.
 *
 * @author distlock
 */
final class CallLocks {

	private CallLocks() {
	}

	/**
	 * Take the locks of one call on the calling thread: one key, several keys all or
	 * nothing, or one of a segmented call's keys (its filter running on this thread).
	 */
	static List<LockHold> acquire(LockClient client, List<String> keys, LockOperation operation)
			throws InterruptedException {
		return LockCaller.call(operation.caller(), () -> {
			if (operation.segmented()) {
				return List.of(client.acquireAny(operation.name(), keys, operation.segmentFilterOfCall(),
						operation.waitTime(), operation.leaseTime()));
			}
			return (keys.size() == 1)
					? List
						.of(client.acquire(operation.name(), keys.get(0), operation.waitTime(), operation.leaseTime()))
					: client.acquireAll(operation.name(), keys, operation.waitTime(), operation.leaseTime());
		});
	}

	/**
	 * Start acquiring the locks of one call; a segmented call's filter runs on
	 * {@code filterExecutor}. Cancelling the returned future cancels the acquisition
	 * itself (not a stage derived from it), and a hold that arrives after the
	 * cancellation is released.
	 */
	static CompletableFuture<List<LockHold>> acquireAsync(LockClient client, List<String> keys, LockOperation operation,
			Executor filterExecutor) {
		return LockCaller.call(operation.caller(), () -> startAcquiring(client, keys, operation, filterExecutor));
	}

	/**
	 * Start acquiring the locks of one call, and complete {@code delivered} on
	 * {@code executor}, so that what follows the grant (the method, the fallback, the
	 * failure handler) never runs on a thread of the lock client. The caller registers
	 * what follows on {@code delivered} before calling this: registered after, it would
	 * run on the registering thread whenever the grant came first. Cancelling
	 * {@code delivered} cancels the acquisition; holds that arrive after the
	 * cancellation, or that the executor refuses, are released.
	 */
	static void acquireAsync(LockClient client, List<String> keys, LockOperation operation, Executor executor,
			CompletableFuture<List<LockHold>> delivered) {
		CompletableFuture<List<LockHold>> acquisition = acquireAsync(client, keys, operation, executor);
		delivered.whenComplete((holds, failure) -> acquisition.cancel(false));
		acquisition.whenComplete((holds, failure) -> {
			try {
				executor.execute(() -> {
					if (failure != null) {
						delivered.completeExceptionally(CompletionStageLocking.unwrap(failure));
					}
					else if (!delivered.complete(holds)) {
						releaseAsync(holds, null);
					}
				});
			}
			catch (RejectedExecutionException ex) {
				if (holds != null) {
					releaseAsync(holds, null);
				}
				delivered.completeExceptionally(ex);
			}
		});
	}

	private static CompletableFuture<List<LockHold>> startAcquiring(LockClient client, List<String> keys,
			LockOperation operation, Executor filterExecutor) {
		if (operation.segmented()) {
			return asList(client
				.acquireAnyAsync(operation.name(), keys, operation.segmentFilterOfCall(), filterExecutor,
						operation.waitTime(), operation.leaseTime())
				.toCompletableFuture());
		}
		if (keys.size() > 1) {
			return client.acquireAllAsync(operation.name(), keys, operation.waitTime(), operation.leaseTime())
				.toCompletableFuture();
		}
		return asList(client.acquireAsync(operation.name(), keys.get(0), operation.waitTime(), operation.leaseTime())
			.toCompletableFuture());
	}

	/**
	 * Return the one hold of {@code acquisition} as a list, passing a cancellation on to
	 * the acquisition and releasing a hold that arrives after it.
	 */
	private static CompletableFuture<List<LockHold>> asList(CompletableFuture<? extends LockHold> acquisition) {
		CompletableFuture<List<LockHold>> holds = new CompletableFuture<>();
		holds.whenComplete((taken, failure) -> {
			if (holds.isCancelled()) {
				acquisition.cancel(false);
			}
		});
		acquisition.whenComplete((hold, failure) -> {
			if (failure != null) {
				holds.completeExceptionally(CompletionStageLocking.unwrap(failure));
			}
			else if (!holds.complete(List.of(hold))) {
				releaseAsync(List.of(hold), null);
			}
		});
		return holds;
	}

	/**
	 * Release every hold without blocking, each kept for {@code holdAtLeast} if given;
	 * the stage fails with the first failure, the others suppressed.
	 */
	static CompletableFuture<Void> releaseAsync(List<LockHold> holds, @Nullable Duration holdAtLeast) {
		List<CompletableFuture<Void>> releases = holds.stream()
			.map((hold) -> ((holdAtLeast != null) ? hold.releaseAsync(holdAtLeast) : hold.releaseAsync())
				.toCompletableFuture())
			.toList();
		return CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new)).handle((done, ignored) -> {
			RuntimeException first = null;
			for (CompletableFuture<Void> release : releases) {
				Throwable failure = release.handle((value, ex) -> ex).join();
				if (failure != null) {
					RuntimeException cause = (RuntimeException) CompletionStageLocking.unwrap(failure);
					if (first == null) {
						first = cause;
					}
					else {
						first.addSuppressed(cause);
					}
				}
			}
			if (first != null) {
				throw first;
			}
			return null;
		});
	}

	/**
	 * Release every hold, each kept for {@code holdAtLeast} if given.
	 * @throws RuntimeException the first failure, the others suppressed
	 */
	static void release(List<LockHold> holds, @Nullable Duration holdAtLeast) {
		RuntimeException first = null;
		for (LockHold hold : holds) {
			try {
				if (holdAtLeast != null) {
					hold.release(holdAtLeast);
				}
				else {
					hold.release();
				}
			}
			catch (RuntimeException ex) {
				if (first == null) {
					first = ex;
				}
				else {
					first.addSuppressed(ex);
				}
			}
		}
		if (first != null) {
			throw first;
		}
	}

}
