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
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import dev.distlock.DistributedLockException;
import dev.distlock.LockAcquisitionException;
import dev.distlock.LockBackendException;
import dev.distlock.LockLostAfterCompletionException;
import dev.distlock.LockLostException;
import dev.distlock.LockReleaseFailedException;
import dev.distlock.LogSafe;
import dev.distlock.annotation.LockLossPolicy;
import dev.distlock.annotation.LockMode;
import dev.distlock.aop.HeldLocks.HeldLock;
import dev.distlock.core.LockCaller;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;
import dev.distlock.annotation.SegmentKeys;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.util.function.SingletonSupplier;

/**
 * Runs a {@code @DistributedLock} method under its lock: evaluates the key, acquires,
 * proceeds and releases in {@code finally} with the handle of the acquisition. A release
 * that fails after the method returned normally keeps the method's result in a
 * {@link LockLostAfterCompletionException} or {@link LockReleaseFailedException}, logs a
 * warning and publishes a {@link LockReleaseFailedEvent}, so that the caller can tell
 * work that completed from work that did not run or was rolled back. Under
 * {@code onLoss = INTERRUPT} a lock lost while the method runs interrupts its thread
 * ({@link LossInterrupt}), and the call ends with the {@link LockLostException}.
 *
 * @author distlock
 */
final class DistributedLockInterceptor implements MethodInterceptor {

	private static final Log logger = LogFactory.getLog(DistributedLockInterceptor.class);

	private final LockOperationSource operations;

	private final LockKeyEvaluator evaluator;

	private final Supplier<LockClient> lockClient;

	private final LockFailurePolicy failurePolicy;

	private final CompletionStageLocking completionStages;

	private volatile @Nullable ReactiveLocking reactiveLocking;

	private volatile @Nullable ApplicationEventPublisher eventPublisher;

	private volatile Supplier<Executor> asyncExecutor = AsyncBodies::fallbackExecutor;

	private volatile Duration holdAfterCancel = AsyncBodies.DEFAULT_HOLD_AFTER_CANCEL;

	DistributedLockInterceptor(LockOperationSource operations, LockKeyEvaluator evaluator,
			Supplier<LockClient> lockClient, Supplier<@Nullable LockFailureHandler> failureHandler) {
		this.operations = operations;
		this.evaluator = evaluator;
		this.lockClient = lockClient;
		this.failurePolicy = new LockFailurePolicy(failureHandler);
		this.completionStages = new CompletionStageLocking(this::afterCompletion, this.failurePolicy,
				() -> this.asyncExecutor.get());
	}

	/**
	 * Set the executor that asynchronous locked methods are called on.
	 * @param asyncExecutor supplies the executor, at the first call that needs it
	 */
	void setAsyncExecutor(Supplier<Executor> asyncExecutor) {
		this.asyncExecutor = SingletonSupplier.of(asyncExecutor);
	}

	/**
	 * Set how long a cancelled subscription of a reactive locked method keeps its lock.
	 * @param holdAfterCancel the time, zero to release at the cancel
	 */
	void setHoldAfterCancel(Duration holdAfterCancel) {
		this.holdAfterCancel = holdAfterCancel;
	}

	/**
	 * Set the publisher of {@link LockReleaseFailedEvent}s.
	 * @param eventPublisher the publisher
	 */
	void setEventPublisher(ApplicationEventPublisher eventPublisher) {
		this.eventPublisher = eventPublisher;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		if (target == null) {
			throw new IllegalStateException("@DistributedLock needs a target instance");
		}
		Class<?> targetClass = AopProxyUtils.ultimateTargetClass(target);
		LockOperation operation = this.operations.getOperation(invocation.getMethod(), targetClass);
		if (operation == null) {
			return invocation.proceed();
		}
		LockExpressionRootObject root = new LockExpressionRootObject(operation.method(), target, targetClass,
				invocation.getArguments());
		List<String> keys;
		if (operation.segmented()) {
			keys = SegmentKeys.of(this.evaluator.segmentedKey(operation, root), operation.segments());
			operation = operation.forCall(this.evaluator.segmentFilter(operation, root));
		}
		else {
			keys = this.evaluator.keys(operation, root);
		}
		LockClient client = this.lockClient.get();
		if (operation.mode() == LockMode.READ) {
			client = client.readLocks();
		}
		else if (operation.fair()) {
			client = client.fair();
		}
		return switch (operation.lockedReturn()) {
			case COMPLETION_STAGE, ASYNC_COMPLETION_STAGE -> this.completionStages.lock(client, keys, operation,
					invocation, target, operation.lockedReturn() == LockedReturn.ASYNC_COMPLETION_STAGE);
			case REACTIVE -> reactive().lock(client, keys, operation, invocation, target);
			case SYNCHRONOUS -> (keys.size() == 1 && !operation.segmented())
					? lockOne(client, keys.get(0), operation, invocation, target)
					: lockAll(client, keys, operation, invocation, target);
		};
	}

	/**
	 * Lock one key with a thread-bound handle: reentrant for nested calls on the thread,
	 * and available to the method as {@link CurrentLock}.
	 */
	private @Nullable Object lockOne(LockClient client, String key, LockOperation operation,
			MethodInvocation invocation, Object target) throws Throwable {
		LockHandle lock = client.obtain(operation.name(), key);
		try {
			LockCaller.call(operation.caller(), () -> {
				lock.acquire(operation.waitTime(), operation.leaseTime());
				return lock;
			});
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException(key, operation.waitTime(), ex);
		}
		catch (LockAcquisitionException | LockBackendException ex) {
			return this.failurePolicy.answer(operation, invocation, target, List.of(key), ex);
		}
		HeldLock held = HeldLocks.push(invocation, lock);
		LossInterrupt interrupt = interruptOnLoss(operation, () -> LockLoss.of(lock));
		Object result;
		try {
			result = invocation.proceed();
		}
		catch (Throwable ex) {
			HeldLocks.pop(held);
			Throwable failure = LossInterrupt.failure(interrupt, ex);
			releaseAfterFailure(lock::unlock, failure);
			throw failure;
		}
		HeldLocks.pop(held);
		LockLostException loss = (interrupt != null) ? interrupt.finish() : null;
		try {
			Duration holdAtLeast = operation.holdAtLeast();
			if (holdAtLeast != null) {
				lock.unlock(holdAtLeast);
			}
			else {
				lock.unlock();
			}
		}
		catch (LockLostException | LockBackendException ex) {
			throw afterCompletion(operation, target, lossOr(loss, ex), result, held.isTransactionCommitted());
		}
		if (loss != null) {
			throw afterCompletion(operation, target, loss, result, held.isTransactionCommitted());
		}
		return result;
	}

	/**
	 * Lock several keys, all or nothing, or one of a segmented call's keys, with
	 * call-owned holds.
	 */
	private @Nullable Object lockAll(LockClient client, List<String> keys, LockOperation operation,
			MethodInvocation invocation, Object target) throws Throwable {
		List<LockHold> holds;
		try {
			holds = CallLocks.acquire(client, keys, operation);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException(keys.get(0), operation.waitTime(), ex);
		}
		catch (LockAcquisitionException | LockBackendException ex) {
			return this.failurePolicy.answer(operation, invocation, target, keys, ex);
		}
		HeldLock held = HeldLocks.push(invocation, holds);
		LossInterrupt interrupt = interruptOnLoss(operation, () -> LockLoss.ofAny(holds));
		Object result;
		try {
			result = invocation.proceed();
		}
		catch (Throwable ex) {
			HeldLocks.pop(held);
			held.released();
			Throwable failure = LossInterrupt.failure(interrupt, ex);
			releaseAfterFailure(() -> CallLocks.release(holds, null), failure);
			throw failure;
		}
		HeldLocks.pop(held);
		LockLostException loss = (interrupt != null) ? interrupt.finish() : null;
		try {
			CallLocks.release(holds, operation.holdAtLeast());
		}
		catch (LockLostException | LockBackendException ex) {
			throw afterCompletion(operation, target, lossOr(loss, ex), result, held.isTransactionCommitted());
		}
		finally {
			held.released();
		}
		if (loss != null) {
			throw afterCompletion(operation, target, loss, result, held.isTransactionCommitted());
		}
		return result;
	}

	/**
	 * Start interrupting the current thread when the call's locks are lost, under the
	 * {@code INTERRUPT} loss policy.
	 * @return the watch, or {@code null} under another policy
	 */
	private static @Nullable LossInterrupt interruptOnLoss(LockOperation operation,
			Supplier<CompletableFuture<LockLostException>> loss) {
		return (operation.onLoss() == LockLossPolicy.INTERRUPT) ? LossInterrupt.watch(loss.get()) : null;
	}

	/**
	 * Return the loss an interrupted call ends with, the release's failure suppressed
	 * into it, or the release's failure if the lock was not lost while the method ran.
	 */
	private static Throwable lossOr(@Nullable LockLostException loss, Throwable releaseFailure) {
		if (loss == null) {
			return releaseFailure;
		}
		loss.addSuppressed(releaseFailure);
		return loss;
	}

	/**
	 * Report a release that failed after the method completed normally: a WARN log and a
	 * {@link LockReleaseFailedEvent}, then the exception for the caller, which carries
	 * the method's result.
	 */
	private Throwable afterCompletion(LockOperation operation, Object target, Throwable releaseFailure,
			@Nullable Object result, boolean transactionCommitted) {
		if (releaseFailure instanceof LockLostException lost) {
			return failedAfterCompletion(operation, target,
					new LockLostAfterCompletionException(lost, result, transactionCommitted));
		}
		if (releaseFailure instanceof LockBackendException backend) {
			return failedAfterCompletion(operation, target,
					new LockReleaseFailedException(backend, result, transactionCommitted));
		}
		return releaseFailure;
	}

	private ReactiveLocking reactive() {
		ReactiveLocking reactive = this.reactiveLocking;
		if (reactive == null) {
			reactive = new ReactiveLocking(this::afterCompletion, this.failurePolicy, this.asyncExecutor.get(),
					this.holdAfterCancel);
			this.reactiveLocking = reactive;
		}
		return reactive;
	}

	/**
	 * Report a release that failed after the method completed normally: a WARN log and a
	 * {@link LockReleaseFailedEvent}, then the exception for the caller.
	 */
	private DistributedLockException failedAfterCompletion(LockOperation operation, Object target,
			DistributedLockException failure) {
		logger.warn("@DistributedLock method " + operation.method() + " completed, but its lock could not be "
				+ "released cleanly; the caller gets " + failure.getClass().getSimpleName()
				+ " with the method's result: " + LogSafe.escape(failure.getMessage()));
		ApplicationEventPublisher publisher = this.eventPublisher;
		if (publisher != null) {
			try {
				publisher.publishEvent(new LockReleaseFailedEvent(target, operation.method(), failure));
			}
			catch (RuntimeException ex) {
				failure.addSuppressed(ex);
			}
		}
		return failure;
	}

	private static void releaseAfterFailure(Runnable release, Throwable failure) {
		try {
			release.run();
		}
		catch (RuntimeException ex) {
			failure.addSuppressed(ex);
		}
	}

}
