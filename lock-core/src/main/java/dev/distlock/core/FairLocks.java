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

import java.time.Duration;
import java.util.Collection;
import java.util.List;

import dev.distlock.LogSafe;
import dev.distlock.store.FairQueueExtension;
import org.jspecify.annotations.Nullable;

/**
 * The fair locks of a {@link DefaultLockClient} ({@link DefaultLockClient#fair()}): the
 * same {@link LockClient} methods, whose locks are taken in the order their callers
 * started waiting, across every client of the store. A view, not a second client: its
 * locks are the client's own (one engine, one watchdog, one listener, one set of held
 * locks), and closing it closes the client.
 * <ul>
 * <li>Fair callers do not queue locally: each has its own place in the store's queue
 * ({@link FairQueueExtension}).</li>
 * <li>Its thread-bound handles are reentrant; a thread holding the read lock of a key
 * through a handle cannot take its fair lock.</li>
 * <li>It has no segments: a caller that takes whichever key is free is not served in
 * order.</li>
 * </ul>
 *
 * @author distlock
 * @since 0.1.0
 */
final class FairLocks extends LockView {

	FairLocks(Locks locks, DefaultLockClient client) {
		super(locks, client);
	}

	@Override
	List<String> validate(String name, Collection<String> keys, Duration waitTime, @Nullable Duration leaseTime) {
		List<String> sorted = validateCommon(name, keys, waitTime, leaseTime);
		if (this.locks.engine.extensions.fairQueue() == null) {
			throw new UnsupportedOperationException("Lock " + sorted + " cannot be taken fairly (fair = true): "
					+ this.locks.engine.extensions.unsupported(FairQueueExtension.class, "take a lock fairly"));
		}
		return sorted;
	}

	/**
	 * Fair locks have no segments: a caller that takes whichever key is free is not
	 * served in order.
	 */
	@Override
	Locks segmentLocks(List<String> keys) {
		throw new UnsupportedOperationException(
				"Lock " + LogSafe.escape(keys) + " cannot be segmented and fair (fair = true) at once");
	}

	/**
	 * A thread holding the read lock of a key through a handle is refused its fair lock.
	 */
	@Override
	void beforeBlocking(List<String> keys) {
		keys.forEach(this.threadLocks::refuseUpgrade);
	}

	/**
	 * Return this view: its locks are already the fair locks.
	 * @return this
	 */
	@Override
	public LockClient fair() {
		return this;
	}

	/**
	 * Return the client's read locks.
	 * @return the read-lock view of the client
	 */
	@Override
	public LockClient readLocks() {
		return this.client.readLocks();
	}

}
