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

import dev.distlock.store.FairQueueExtension;
import dev.distlock.store.HandOverExtension;
import dev.distlock.store.InspectionExtension;
import dev.distlock.store.LockStore;
import dev.distlock.store.LockStoreExtension;
import dev.distlock.store.ReadLockExtension;
import dev.distlock.store.SessionLeaseExtension;
import dev.distlock.store.SeveralKeysExtension;
import dev.distlock.store.WakeOneExtension;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The optional behaviours of one {@link LockStore}, looked up once when the client is
 * built: {@code null} where the store does not implement an extension.
 *
 * @param store the store
 * @param readLocks its read locks
 * @param fairQueue its fair queue
 * @param wakeOne its waking of one waiting client
 * @param handOver its hand-over
 * @param severalKeys its several keys in one step
 * @param inspection its inspection and force release
 * @param sessionLeases its statement that its locks live as long as its session
 * @author distlock
 * @since 0.1.0
 */
record StoreExtensions(LockStore store, @Nullable ReadLockExtension readLocks, @Nullable FairQueueExtension fairQueue,
		@Nullable WakeOneExtension wakeOne, @Nullable HandOverExtension handOver,
		@Nullable SeveralKeysExtension severalKeys, @Nullable InspectionExtension inspection,
		@Nullable SessionLeaseExtension sessionLeases) {

	static StoreExtensions of(LockStore store) {
		return new StoreExtensions(store, store.extension(ReadLockExtension.class),
				store.extension(FairQueueExtension.class), store.extension(WakeOneExtension.class),
				store.extension(HandOverExtension.class), store.extension(SeveralKeysExtension.class),
				store.extension(InspectionExtension.class), store.extension(SessionLeaseExtension.class));
	}

	/**
	 * Return {@code extension}, or throw the {@link UnsupportedOperationException} that
	 * names the store and what it cannot do when the store does not implement it.
	 * @param extension the extension looked up, possibly {@code null}
	 * @param type the extension's interface
	 * @param what what was asked for, as in "cannot {@code what}"
	 */
	<E extends LockStoreExtension> E required(@Nullable E extension, Class<E> type, String what) {
		if (extension == null) {
			throw new UnsupportedOperationException(unsupported(type, what));
		}
		return extension;
	}

	/**
	 * Throw the {@link UnsupportedOperationException} that names the store when
	 * {@code leaseTime} is fixed and the store cannot expire a lock at a fixed time.
	 * @param locks the sorted keys, for the message
	 * @param leaseTime the fixed lease asked for, or {@code null} for none
	 */
	void requireFixedLeases(List<String> locks, @Nullable Duration leaseTime) {
		if (leaseTime != null && this.sessionLeases != null) {
			throw new UnsupportedOperationException("Lock " + locks + " cannot have a fixed lease (leaseTime = "
					+ leaseTime + "): the lock store " + this.store.getClass().getName()
					+ " cannot expire a lock at a fixed time (it implements " + SessionLeaseExtension.class.getName()
					+ ": its locks live as long as its session); leave leaseTime unset so that the watchdog keeps it");
		}
	}

	/**
	 * Return the message that says the store cannot do {@code what}.
	 */
	String unsupported(Class<? extends LockStoreExtension> type, String what) {
		return "The lock store " + this.store.getClass().getName() + " cannot " + what + " (it does not implement "
				+ type.getName() + ")";
	}

}
