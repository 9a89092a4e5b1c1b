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

import java.util.function.Supplier;

import dev.distlock.DistributedLockException;
import dev.distlock.LockAcquisitionException;
import dev.distlock.LockBackendException;
import dev.distlock.LockLostAfterCompletionException;
import dev.distlock.LockLostException;
import dev.distlock.LockReleaseFailedException;
import dev.distlock.aop.HeldLocks.HeldLock;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHandle;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.util.Assert;

/**
 * Runs a {@code @DistributedLock} method under its lock: evaluates the key, acquires,
 * proceeds and releases in {@code finally} with the handle of the acquisition. A release
 * that fails after the method returned normally keeps the method's result in a
 * {@link LockLostAfterCompletionException} or {@link LockReleaseFailedException}, logs a
 * warning and publishes a {@link LockReleaseFailedEvent}, so that the caller can tell
 * work that completed from work that did not run or was rolled back.
 *
 * @author distlock
 */
final class DistributedLockInterceptor implements MethodInterceptor {

	private static final Log logger = LogFactory.getLog(DistributedLockInterceptor.class);

	private final LockOperationSource operations;

	private final LockKeyEvaluator evaluator;

	private final Supplier<LockClient> lockClient;

	private volatile @Nullable ApplicationEventPublisher eventPublisher;

	DistributedLockInterceptor(LockOperationSource operations, LockKeyEvaluator evaluator,
			Supplier<LockClient> lockClient) {
		this.operations = operations;
		this.evaluator = evaluator;
		this.lockClient = lockClient;
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
		Assert.state(target != null, "@DistributedLock needs a target instance");
		Class<?> targetClass = AopProxyUtils.ultimateTargetClass(target);
		LockOperation operation = this.operations.getOperation(invocation.getMethod(), targetClass);
		if (operation == null) {
			return invocation.proceed();
		}
		String key = this.evaluator.key(operation,
				new LockExpressionRootObject(operation.method(), target, targetClass, invocation.getArguments()));
		LockHandle lock = this.lockClient.get().obtain(operation.name(), key);
		LockAcquisitionException busy = acquire(lock, operation);
		if (busy != null) {
			if (operation.fallback() != null) {
				return operation.fallback().invoke(target, invocation.getArguments(), busy);
			}
			throw busy;
		}
		return proceedAndRelease(invocation, operation, target, lock);
	}

	/**
	 * Acquire the lock.
	 * @return {@code null} once acquired, or the exception saying the lock stayed busy
	 * @throws LockAcquisitionException if interrupted while waiting
	 */
	private static @Nullable LockAcquisitionException acquire(LockHandle lock, LockOperation operation) {
		try {
			lock.acquire(operation.waitTime(), operation.leaseTime());
			return null;
		}
		catch (LockAcquisitionException ex) {
			return ex;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException(lock.key(), operation.waitTime(), ex);
		}
	}

	private @Nullable Object proceedAndRelease(MethodInvocation invocation, LockOperation operation, Object target,
			LockHandle lock) throws Throwable {
		HeldLock held = HeldLocks.push(invocation, lock);
		Object result;
		try {
			result = invocation.proceed();
		}
		catch (Throwable ex) {
			HeldLocks.pop(held);
			releaseAfterFailure(lock, ex);
			throw ex;
		}
		HeldLocks.pop(held);
		try {
			lock.unlock();
		}
		catch (LockLostException ex) {
			throw failedAfterCompletion(operation, target,
					new LockLostAfterCompletionException(ex, result, held.isTransactionCommitted()));
		}
		catch (LockBackendException ex) {
			throw failedAfterCompletion(operation, target,
					new LockReleaseFailedException(ex, result, held.isTransactionCommitted()));
		}
		return result;
	}

	/**
	 * Report a release that failed after the method completed normally: a WARN log and a
	 * {@link LockReleaseFailedEvent}, then the exception for the caller.
	 */
	private DistributedLockException failedAfterCompletion(LockOperation operation, Object target,
			DistributedLockException failure) {
		logger.warn("@DistributedLock method " + operation.method() + " completed, but its lock could not be "
				+ "released cleanly; the caller gets " + failure.getClass().getSimpleName()
				+ " with the method's result: " + failure.getMessage());
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

	private static void releaseAfterFailure(LockHandle lock, Throwable failure) {
		try {
			lock.unlock();
		}
		catch (RuntimeException ex) {
			failure.addSuppressed(ex);
		}
	}

}
