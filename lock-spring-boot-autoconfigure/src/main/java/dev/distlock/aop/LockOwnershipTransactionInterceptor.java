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

import dev.distlock.aop.HeldLocks.HeldLock;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Innermost advice of a {@code @DistributedLock} method: when a transaction is active at
 * this point (typically one that {@code @Transactional} began inside the lock), it asks
 * the lock to confirm its ownership just before that transaction commits. A lost lock
 * makes the commit fail with {@link dev.distlock.LockLostException} and the transaction
 * roll back.
 *
 * @author distlock
 */
final class LockOwnershipTransactionInterceptor implements MethodInterceptor {

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		HeldLock held = HeldLocks.heldFor(invocation);
		if (held != null && TransactionSynchronizationManager.isSynchronizationActive()) {
			TransactionSynchronizationManager.registerSynchronization(new ConfirmOwnershipBeforeCommit(held));
		}
		return invocation.proceed();
	}

	/**
	 * Confirms ownership before commit, if the lock is still held by then; a lock that
	 * was released before the commit (lock inside a longer transaction) has nothing left
	 * to confirm. Records a commit, so that a loss found when the lock is released can
	 * say whether the transaction committed.
	 */
	private record ConfirmOwnershipBeforeCommit(HeldLock held) implements TransactionSynchronization {

		@Override
		public void beforeCommit(boolean readOnly) {
			this.held.confirmOwnershipIfHeld();
		}

		@Override
		public void afterCompletion(int status) {
			if (status == STATUS_COMMITTED) {
				this.held.transactionCommitted();
			}
		}

	}

}
