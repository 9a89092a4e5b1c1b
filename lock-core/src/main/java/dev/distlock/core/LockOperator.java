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

import java.util.List;

import dev.distlock.LockBackendException;
import dev.distlock.LockLostException;
import dev.distlock.LossReason;

/**
 * What operators see of and do to the locks of one lock client: the locks it holds as
 * seen locally, a key's state in the lock store, and a forced release. The actuator
 * endpoint reads a client through this interface; {@link DefaultLockClient} implements
 * it.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface LockOperator {

	/**
	 * Return the id that makes this client's owner tokens unique.
	 * @return the client id
	 */
	String clientId();

	/**
	 * Return the locks this client holds now, oldest first, as seen locally (no store
	 * round trip).
	 * @return a snapshot of the held locks
	 */
	List<HeldLock> heldLocks();

	/**
	 * Return the state of the lock on {@code key} in the store (held or free, time to
	 * live, holder) and whether this client holds it.
	 * @param key the lock key
	 * @return the key's state
	 * @throws LockBackendException if the store failed
	 * @throws UnsupportedOperationException if the store cannot inspect keys
	 */
	LockState inspect(String key);

	/**
	 * Delete the lock on {@code key} in the store whoever holds it, and wake its waiters.
	 * If this client is the holder, its hold is marked lost ({@link LossReason#FORCED})
	 * and its holder gets a {@link LockLostException}.
	 * @param key the lock key
	 * @return what was released
	 * @throws LockBackendException if the store failed
	 * @throws UnsupportedOperationException if the store cannot force a release
	 */
	ForcedRelease forceRelease(String key);

}
