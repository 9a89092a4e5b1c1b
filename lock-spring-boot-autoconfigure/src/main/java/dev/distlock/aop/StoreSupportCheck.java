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

import java.util.Collection;

import dev.distlock.annotation.LockMode;
import dev.distlock.store.FairQueueExtension;
import dev.distlock.store.LockStore;
import dev.distlock.store.LockStoreExtension;
import dev.distlock.store.ReadLockExtension;
import dev.distlock.store.SessionLeaseExtension;

/**
 * Refuses, at startup, a locked method that asks for what the lock store cannot do: a
 * fair lock from a store without a {@link FairQueueExtension}, a read lock from one
 * without a {@link ReadLockExtension}, a fixed {@code leaseTime} from one whose locks
 * live as long as its session ({@link SessionLeaseExtension}). The message names the
 * method, the attribute and the store, as a {@code LockClient} call for the same names
 * them in its {@link UnsupportedOperationException}.
 *
 * @author distlock
 * @since 0.1.0
 */
final class StoreSupportCheck {

	private StoreSupportCheck() {
	}

	/**
	 * Check every operation against {@code store}.
	 * @param operations the locked methods resolved so far
	 * @param store the lock store the application locks in
	 * @throws IllegalStateException naming the first method the store cannot honour
	 */
	static void check(Collection<LockOperation> operations, LockStore store) {
		for (LockOperation operation : operations) {
			if (operation.fair()) {
				require(store, FairQueueExtension.class, operation, "fair = true", "fair locks");
			}
			if (operation.mode() == LockMode.READ) {
				require(store, ReadLockExtension.class, operation, "mode = READ", "read locks");
			}
			if (operation.leaseTime() != null && store.extension(SessionLeaseExtension.class) != null) {
				throw new IllegalStateException("@DistributedLock(leaseTime = " + operation.leaseTime() + ") on "
						+ operation.method() + " needs a fixed lease, which the lock store "
						+ store.getClass().getName() + " cannot keep: its locks live as long as its session (it "
						+ "implements " + SessionLeaseExtension.class.getName()
						+ "); remove leaseTime so that the watchdog keeps the lock, or use a store with leases");
			}
		}
	}

	private static void require(LockStore store, Class<? extends LockStoreExtension> extension, LockOperation operation,
			String attribute, String what) {
		if (store.extension(extension) == null) {
			throw new IllegalStateException("@DistributedLock(" + attribute + ") on " + operation.method() + " needs "
					+ what + ", which the lock store " + store.getClass().getName()
					+ " does not have (it does not implement " + extension.getName() + "); remove " + attribute
					+ " or use a store with " + what);
		}
	}

}
