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

import dev.distlock.store.ReadLockExtension;
import java.time.Duration;
import java.util.Collection;
import java.util.List;

import dev.distlock.LogSafe;
import org.jspecify.annotations.Nullable;

/**
 * The read locks of a {@link DefaultLockClient} ({@link DefaultLockClient#readLocks()}):
 * the same {@link LockClient} methods, whose locks are shared read locks on the key,
 * while the client's own locks are the write locks.
 * <ul>
 * <li>Readers do not queue locally: each asks the store
 * ({@link ReadLockExtension#tryAcquireRead}), so readers of one client overlap as readers
 * of different clients do. A refused reader waits for release notifications through the
 * same pipeline as a writer.</li>
 * <li>Read leases are renewed by the client's one watchdog, reported to its listener,
 * released at close, and found lost like write leases. Read grants carry fencing token
 * {@code 0}.</li>
 * <li>Thread-bound read handles are reentrant; a thread holding the write lock of a key
 * that takes its read lock re-enters the write lock instead (it stays exclusive until
 * both are released); a thread holding a read handle cannot take the write lock of that
 * key.</li>
 * </ul>
 *
 * @author distlock
 * @since 0.1.0
 */
final class ReadLocks extends LockView {

	ReadLocks(Locks locks, DefaultLockClient client) {
		super(locks, client);
	}

	@Override
	List<String> validate(String name, Collection<String> keys, Duration waitTime, @Nullable Duration leaseTime) {
		List<String> sorted = validateCommon(name, keys, waitTime, leaseTime);
		if (this.locks.engine.extensions.readLocks() == null) {
			throw new UnsupportedOperationException("Lock " + sorted + " cannot be read-locked (mode = READ): "
					+ this.locks.engine.extensions.unsupported(ReadLockExtension.class, "read-lock"));
		}
		return sorted;
	}

	/**
	 * Read locks have no segments: a reader does not need one of several keys.
	 */
	@Override
	Locks segmentLocks(List<String> keys) {
		throw new UnsupportedOperationException(
				"Lock " + LogSafe.escape(keys) + " cannot be segmented and read-locked (mode = READ) at once");
	}

	/**
	 * Return this view: its locks are already the read locks.
	 * @return this
	 */
	@Override
	public LockClient readLocks() {
		return this;
	}

}
