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

import java.util.List;

import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;
import dev.distlock.core.SegmentHold;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.core.NamedThreadLocal;

/**
 * The locks that {@code @DistributedLock} advice holds on the current thread, innermost
 * first, each tied to the method invocation it guards. Lets advice deeper in the same
 * proxy chain, inside a transaction, find the lock of its invocation.
 *
 * @author distlock
 */
final class HeldLocks {

	private static final ThreadLocal<@Nullable HeldLock> current = new NamedThreadLocal<>("@DistributedLock holds");

	private HeldLocks() {
	}

	/**
	 * Record that {@code lock} is held for {@code invocation}.
	 * @param invocation the guarded invocation
	 * @param lock the held lock
	 * @return the record, to pass to {@link #pop(HeldLock)}
	 */
	static HeldLock push(MethodInvocation invocation, LockHandle lock) {
		HeldLock held = new HeldLock(invocation, lock, List.of(), current.get());
		current.set(held);
		return held;
	}

	/**
	 * Record that the locks of several keys are held for {@code invocation}.
	 * @param invocation the guarded invocation
	 * @param holds the held locks
	 * @return the record, to pass to {@link #pop(HeldLock)}
	 */
	static HeldLock push(MethodInvocation invocation, List<LockHold> holds) {
		HeldLock held = new HeldLock(invocation, null, holds, current.get());
		current.set(held);
		return held;
	}

	/**
	 * Forget the innermost record.
	 * @param held the record returned by {@link #push}
	 */
	static void pop(HeldLock held) {
		if (held.outer() != null) {
			current.set(held.outer());
		}
		else {
			current.remove();
		}
	}

	/**
	 * Return the lock of the innermost locked invocation running on this thread.
	 * @return the lock, or {@code null} if no locked invocation is running
	 */
	static @Nullable HeldLock innermost() {
		return current.get();
	}

	/**
	 * Return the record of {@code invocation}, if the innermost record belongs to it.
	 * @param invocation the invocation
	 * @return its record, or {@code null}
	 */
	static @Nullable HeldLock heldFor(MethodInvocation invocation) {
		HeldLock held = current.get();
		return (held != null && held.invocation() == invocation) ? held : null;
	}

	/**
	 * A lock held for one invocation, and whether a transaction that began inside it has
	 * committed.
	 */
	static final class HeldLock {

		private final MethodInvocation invocation;

		private final @Nullable LockHandle lock;

		private final List<LockHold> holds;

		private final @Nullable HeldLock outer;

		private volatile boolean transactionCommitted;

		private volatile boolean released;

		/**
		 * Create a record.
		 * @param invocation the guarded invocation
		 * @param lock the held lock of a single-key method, or {@code null}
		 * @param holds the held locks of a method with several keys, or none
		 * @param outer the record of the enclosing invocation, if any
		 */
		HeldLock(MethodInvocation invocation, @Nullable LockHandle lock, List<LockHold> holds,
				@Nullable HeldLock outer) {
			this.invocation = invocation;
			this.lock = lock;
			this.holds = holds;
			this.outer = outer;
		}

		MethodInvocation invocation() {
			return this.invocation;
		}

		/**
		 * Return the lock of a single-key method, or {@code null} for several keys.
		 */
		@Nullable LockHandle lock() {
			return this.lock;
		}

		/**
		 * Return the segment hold of a segmented method, or {@code null}.
		 */
		@Nullable SegmentHold segment() {
			return (this.holds.size() == 1 && this.holds.get(0) instanceof SegmentHold segment) ? segment : null;
		}

		/**
		 * Return the keys held.
		 */
		List<String> keys() {
			return (this.lock != null) ? List.of(this.lock.key()) : this.holds.stream().map(LockHold::key).toList();
		}

		/**
		 * Return whether every lock is still believed held.
		 */
		boolean isHeld() {
			return (this.lock != null) ? this.lock.isHeldByCurrentThread()
					: !this.released && this.holds.stream().allMatch(LockHold::isValid);
		}

		/**
		 * Ask Redis whether every lock is still owned, unless it was already released (a
		 * lock inside a longer transaction has nothing left to confirm).
		 */
		void confirmOwnershipIfHeld() {
			if (this.lock != null) {
				if (this.lock.getHoldCount() > 0) {
					this.lock.confirmOwnership();
				}
			}
			else if (!this.released) {
				this.holds.forEach(LockHold::confirmOwnership);
			}
		}

		void released() {
			this.released = true;
		}

		@Nullable HeldLock outer() {
			return this.outer;
		}

		/**
		 * Record that a transaction that began inside the lock committed.
		 */
		void transactionCommitted() {
			this.transactionCommitted = true;
		}

		/**
		 * Return whether a transaction that began inside the lock has committed.
		 * @return whether it committed
		 */
		boolean isTransactionCommitted() {
			return this.transactionCommitted;
		}

	}

}
