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

import java.lang.reflect.Method;

import dev.distlock.DistributedLockException;
import dev.distlock.LockLostAfterCompletionException;
import dev.distlock.LockReleaseFailedException;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEvent;
import org.springframework.util.Assert;

/**
 * Published when the lock of a {@code @DistributedLock} method that returned normally
 * could not be released cleanly: it was found lost
 * ({@link LockLostAfterCompletionException}) or Redis failed
 * ({@link LockReleaseFailedException}). The method ran to completion; the same exception
 * is thrown to the caller right after the event.
 * <p>
 * Listen to it to count, alert or reconcile in one place, whatever the callers do with
 * the exception. With Spring's default event multicaster, listeners run on the caller's
 * thread before the exception is thrown, and an exception of a listener is added to it as
 * suppressed. <pre class="code">
 * &#064;EventListener
 * void onLockReleaseFailed(LockReleaseFailedEvent event) {
 *     this.alerts.lockTrouble(event.getKey(), event.isLockLost(), event.getResult());
 * }
 * </pre>
 *
 * @author distlock
 * @since 0.1.0
 */
public class LockReleaseFailedEvent extends ApplicationEvent {

	/**
	 * Locked method whose lock could not be released.
	 */
	private final Method method;

	/**
	 * Failure of the release.
	 */
	private final DistributedLockException exception;

	/**
	 * Create a new event.
	 * @param target the bean whose method was locked
	 * @param method the locked method
	 * @param exception a {@link LockLostAfterCompletionException} or a
	 * {@link LockReleaseFailedException}
	 */
	public LockReleaseFailedEvent(Object target, Method method, DistributedLockException exception) {
		super(target);
		Assert.notNull(method, "'method' must not be null");
		Assert.isTrue(
				exception instanceof LockLostAfterCompletionException
						|| exception instanceof LockReleaseFailedException,
				"'exception' must be a LockLostAfterCompletionException or a LockReleaseFailedException");
		this.method = method;
		this.exception = exception;
	}

	/**
	 * Return the locked method.
	 * @return the method
	 */
	public Method getMethod() {
		return this.method;
	}

	/**
	 * Return the lock key.
	 * @return the key
	 */
	public String getKey() {
		return this.exception.getKey();
	}

	/**
	 * Return the exception thrown to the caller.
	 * @return a {@link LockLostAfterCompletionException} or a
	 * {@link LockReleaseFailedException}
	 */
	public DistributedLockException getException() {
		return this.exception;
	}

	/**
	 * Return whether the release found the lock lost, rather than failing to reach Redis.
	 * @return whether the lock was found lost
	 */
	public boolean isLockLost() {
		return this.exception instanceof LockLostAfterCompletionException;
	}

	/**
	 * Return what the locked method returned.
	 * @return the result of the method
	 */
	public @Nullable Object getResult() {
		return (this.exception instanceof LockLostAfterCompletionException lost) ? lost.getResult()
				: ((LockReleaseFailedException) this.exception).getResult();
	}

	/**
	 * Return whether a transaction that began inside the lock committed before the
	 * release.
	 * @return whether the method's transaction committed
	 */
	public boolean isTransactionCommitted() {
		return (this.exception instanceof LockLostAfterCompletionException lost) ? lost.isTransactionCommitted()
				: ((LockReleaseFailedException) this.exception).isTransactionCommitted();
	}

}
