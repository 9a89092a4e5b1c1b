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

import dev.distlock.LogSafe;
import dev.distlock.aop.HeldLocks.HeldLock;
import dev.distlock.core.LockHandle;
import dev.distlock.core.SegmentHold;

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
	 * calling thread. A segmented method ({@code segments} greater than 1) holds one
	 * segment key with a call-owned hold, not a handle: there this method throws, and
	 * {@link #segment()} and {@link #segmentHold()} tell the segment, its key and its
	 * fencing token.
	 * @return the held lock
	 * @throws IllegalStateException if no {@code @DistributedLock} method is running on
	 * this thread, or it locks several keys or one segment
	 */
	public static LockHandle get() {
		HeldLock held = running();
		SegmentHold segment = held.segment();
		if (segment != null) {
			throw new IllegalStateException("The running @DistributedLock method holds segment " + segment.segment()
					+ " ('" + LogSafe.escape(segment.key()) + "'); CurrentLock.get() is for methods that lock one key: "
					+ "use CurrentLock.segment() or CurrentLock.segmentHold()");
		}
		LockHandle lock = held.lock();
		if (lock == null) {
			throw new IllegalStateException("The running @DistributedLock method locks several keys " + running().keys()
					+ "; CurrentLock.get() is for methods that lock one key");
		}
		return lock;
	}

	/**
	 * Return the segment that the innermost {@code @DistributedLock} method running on
	 * the calling thread holds, for example to update that segment's stock row:
	 * <pre class="code">
	 * &#064;DistributedLock(key = "'stock:' + #voucherId", segments = 8)
	 * public void order(long voucherId) {
	 *     this.stock.decrement(voucherId, CurrentLock.segment());
	 * }
	 * </pre>
	 * @return the segment's index, from 0 to {@code segments - 1}
	 * @throws IllegalStateException if no segmented {@code @DistributedLock} method is
	 * running on this thread
	 */
	public static int segment() {
		return segmentHold().segment();
	}

	/**
	 * Return the hold of the segment that the innermost segmented
	 * {@code @DistributedLock} method running on the calling thread holds: its key and
	 * its fencing token. The advice releases it when the method ends.
	 * @return the segment hold
	 * @throws IllegalStateException if no segmented {@code @DistributedLock} method is
	 * running on this thread
	 */
	public static SegmentHold segmentHold() {
		HeldLock held = running();
		SegmentHold segment = held.segment();
		if (segment == null) {
			throw new IllegalStateException("The running @DistributedLock method on " + held.keys()
					+ " is not segmented; CurrentLock.segment() is for methods with segments greater than 1");
		}
		return segment;
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
