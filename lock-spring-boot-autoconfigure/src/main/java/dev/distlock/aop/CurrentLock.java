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
import dev.distlock.core.LockHandle;

/**
 * The lock held by the {@link dev.distlock.annotation.DistributedLock @DistributedLock}
 * method running on the calling thread, for example to pass its fencing token to the
 * resource it protects: <pre class="code">
 * &#064;DistributedLock(key = "'stock:' + #sku")
 * public void restock(String sku, int quantity) {
 *     this.stock.addIfNewer(sku, quantity, CurrentLock.get().fencingToken());
 * }
 * </pre>
 *
 * @author distlock
 * @since 0.1.0
 */
public final class CurrentLock {

	private CurrentLock() {
	}

	/**
	 * Return the lock of the innermost {@code @DistributedLock} method running on the
	 * calling thread.
	 * @return the held lock
	 * @throws IllegalStateException if no {@code @DistributedLock} method is running on
	 * this thread
	 */
	public static LockHandle get() {
		LockHandle lock = running().lock();
		if (lock == null) {
			throw new IllegalStateException("The running @DistributedLock method locks several keys " + running().keys()
					+ "; CurrentLock.get() is for methods that lock one key");
		}
		return lock;
	}

	/**
	 * Check that the calling code runs under a distributed lock that is still believed
	 * valid, for example at the start of a job or in a test, like ShedLock's
	 * {@code LockAssert}.
	 * @throws IllegalStateException if no {@code @DistributedLock} method is running on
	 * this thread, or its lock is known to be lost
	 */
	public static void assertHeld() {
		HeldLock held = running();
		if (!held.isHeld()) {
			throw new IllegalStateException("The lock of " + held.keys() + " of the running @DistributedLock method "
					+ "is no longer held: its lease ran out or it was taken by another owner");
		}
	}

	private static HeldLock running() {
		HeldLock held = HeldLocks.innermost();
		if (held == null) {
			throw new IllegalStateException("No @DistributedLock method is running on this thread");
		}
		return held;
	}

}
