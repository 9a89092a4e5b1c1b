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

package dev.distlock.core;

import dev.distlock.LossReason;
import dev.distlock.store.BlockingCaller;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.distlock.LogSafe;
import dev.distlock.LockLostException;
import org.jspecify.annotations.Nullable;

/**
 * The thread-bound holds of one kind of lock of a client, for its {@link LockHandle}s:
 * reentrant per thread, like {@link java.util.concurrent.locks.ReentrantLock}. A hold
 * whose lease ran out or was lost is not re-entered: its thread gets a
 * {@link LockLostException}, while the key's local turn has passed to the next caller.
 * <p>
 * For read locks: a thread holding the write lock of a key that takes its read lock
 * re-enters the write lock instead; a thread holding a read lock cannot take the write
 * lock of that key.
 *
 * @author distlock
 * @since 0.1.0
 */
final class ThreadLocks {

	private final Locks locks;

	private final ThreadLocal<@Nullable Map<String, ThreadHold>> holds = new ThreadLocal<>();

	/** For write locks: the read locks whose holders are refused the write lock. */
	private @Nullable ThreadLocks readLocks;

	/** For read locks: the write locks a thread re-enters. */
	private @Nullable ThreadLocks writeLocks;

	ThreadLocks(Locks locks) {
		this.locks = locks;
	}

	void refuseUpgradesFrom(ThreadLocks readLocks) {
		this.readLocks = readLocks;
	}

	void reenter(ThreadLocks writeLocks) {
		this.writeLocks = writeLocks;
	}

	Locks locks() {
		return this.locks;
	}

	/**
	 * Take the lock for the current thread, or re-enter it.
	 * @return whether it is held; {@code false} if busy and not {@code throwIfBusy}
	 * @throws dev.distlock.LockAcquisitionException if busy and {@code throwIfBusy}
	 */
	boolean lock(String key, String name, long waitNanos, Duration waitTime, @Nullable Duration leaseTime,
			boolean throwIfBusy) throws InterruptedException {
		ThreadHold current = hold(key);
		if (current != null) {
			String loss = current.lease.lossReason();
			if (loss != null) {
				current.lease.reportLost(LossReason.TAKEN, loss);
				throw new LockLostException(key, loss);
			}
			current.count++;
			return true;
		}
		ThreadLocks write = this.writeLocks;
		if (write != null && write.holdCount(key) > 0) {
			return write.lock(key, name, waitNanos, waitTime, leaseTime, throwIfBusy);
		}
		refuseUpgrade(key);
		List<Lease> leases = this.locks.await(name, List.of(key), waitNanos, waitTime, leaseTime, throwIfBusy);
		if (leases == null) {
			return false;
		}
		Map<String, ThreadHold> map = this.holds.get();
		if (map == null) {
			map = new HashMap<>();
			this.holds.set(map);
		}
		Lease lease = leases.get(0);
		lease.holderThread = Thread.currentThread().getName();
		map.put(key, new ThreadHold(lease));
		return true;
	}

	void unlock(String key, @Nullable Duration holdAtLeast) {
		ThreadHold current = hold(key);
		ThreadLocks write = this.writeLocks;
		if (current == null && write != null) {
			write.unlock(key, holdAtLeast);
			return;
		}
		if (current == null) {
			throw new IllegalMonitorStateException(
					"Lock '" + LogSafe.escape(key) + "' is not held by the current thread");
		}
		if (--current.count > 0) {
			return;
		}
		Map<String, ThreadHold> map = this.holds.get();
		if (map != null) {
			map.remove(key);
			if (map.isEmpty()) {
				this.holds.remove();
			}
		}
		this.locks.join(BlockingCaller.run(() -> this.locks.releases.release(current.lease, holdAtLeast)));
	}

	boolean isHeldByCurrentThread(String key) {
		ThreadHold current = hold(key);
		ThreadLocks write = this.writeLocks;
		if (current == null) {
			return write != null && write.isHeldByCurrentThread(key);
		}
		return current.lease.lossReason() == null;
	}

	int holdCount(String key) {
		ThreadHold current = hold(key);
		ThreadLocks write = this.writeLocks;
		if (current == null) {
			return (write != null) ? write.holdCount(key) : 0;
		}
		return current.count;
	}

	Lease heldLease(String key) {
		ThreadHold current = hold(key);
		ThreadLocks write = this.writeLocks;
		if (current == null && write != null) {
			return write.heldLease(key);
		}
		if (current == null) {
			throw new IllegalMonitorStateException(
					"Lock '" + LogSafe.escape(key) + "' is not held by the current thread");
		}
		return current.lease;
	}

	/**
	 * Refuse the write lock of {@code key} to a thread holding its read lock through a
	 * handle: it would wait for its own read lock to end.
	 * @throws IllegalStateException if the current thread holds the read lock
	 */
	void refuseUpgrade(String key) {
		ThreadLocks read = this.readLocks;
		if (read != null && read.hold(key) != null) {
			throw new IllegalStateException("Lock '" + LogSafe.escape(key)
					+ "' is read-locked by the current thread; a read lock cannot be upgraded to the write lock"
					+ " (it would wait for itself): release the read lock first, or take the write lock from the start");
		}
	}

	private @Nullable ThreadHold hold(String key) {
		Map<String, ThreadHold> map = this.holds.get();
		return (map != null) ? map.get(key) : null;
	}

	/**
	 * A lock held by the current thread through a handle, with its re-entries.
	 */
	private static final class ThreadHold {

		final Lease lease;

		int count = 1;

		ThreadHold(Lease lease) {
			this.lease = lease;
		}

	}

}
