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

package dev.distlock;

import org.jspecify.annotations.Nullable;

/**
 * Thrown by the {@code @DistributedLock} advice when the locked method returned normally
 * but the lock store failed (was unreachable or timed out) while its lock was released.
 * The method ran to completion: its {@link #getResult() result} is kept here and, if a
 * transaction began inside the lock, that transaction has already
 * {@link #isTransactionCommitted() committed} (after the lock's ownership was confirmed
 * just before the commit). The lock is no longer renewed and expires with its lease.
 * <p>
 * Compare a plain {@link LockBackendException} from a locked method: the store failed
 * before the method ran, or before its transaction committed, which then rolled back.
 *
 * @author distlock
 * @since 0.1.0
 */
public class LockReleaseFailedException extends LockBackendException {

	/**
	 * What the method did before the release.
	 */
	private final MethodCompletion completion;

	/**
	 * Detail message.
	 */
	private final String message;

	/**
	 * Create a new exception.
	 * @param failure the failure reported by the release
	 * @param result what the locked method returned
	 * @param transactionCommitted whether a transaction that began inside the lock
	 * committed before the release
	 */
	public LockReleaseFailedException(LockBackendException failure, @Nullable Object result,
			boolean transactionCommitted) {
		super(failure.getKey(), "release", failure);
		this.completion = new MethodCompletion(result, transactionCommitted);
		this.message = this.completion.describe(failure.getKey(),
				failure.getMessage() + "; the lock expires with its lease");
	}

	/**
	 * Return what the locked method returned.
	 * @return the result of the method, {@code null} if it returned {@code null} or is
	 * {@code void}
	 */
	public @Nullable Object getResult() {
		return this.completion.result();
	}

	/**
	 * Return whether a transaction that began inside the lock (typically by
	 * {@code @Transactional} on the locked method) committed before the lock was
	 * released. {@code false} if no transaction began inside the lock, or if it rolled
	 * back although the method returned normally.
	 * @return whether the method's transaction committed
	 */
	public boolean isTransactionCommitted() {
		return this.completion.transactionCommitted();
	}

	@Override
	public String getMessage() {
		return this.message;
	}

}
