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
package dev.distlock.store;

/**
 * Hand-over inside one client without a request: a holder passes the lock it holds under
 * its owner token to its own client's next waiting caller, and the store keeps seeing the
 * same owner token, never free in between. The next caller's fencing token is the
 * holder's plus one, so the store leaves room for these local counts between its grants.
 * <p>
 * The duty on every operation that grants a lock ({@link LockStore#tryAcquire},
 * {@link HandOverExtension#handOver}, {@link SeveralKeysExtension#tryAcquireAll}, the
 * grants of {@link FairQueueExtension} and of {@link ReadLockExtension}): every fencing
 * token it grants is a non-negative multiple of {@link #fenceRoom()}, strictly greater
 * than every earlier one of the key, across deletions of the key and restarts. So two
 * store grants {@code s1 < s2} of a key differ by at least the room, and the local
 * fencing tokens {@code s1 + 1} to {@code s1 + room - 1} lie strictly between them. A
 * store whose fencing tokens cannot be spaced without overflowing a {@code long} (say
 * microseconds of a clock) does not implement this extension.
 * <p>
 * The client uses it together with {@link HandOverExtension}: every few hand-overs go
 * through the store, which tells whether another client waits, and the first hand-over
 * after a store grant does too. A store with this extension alone never hands over
 * locally.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface LocalHandOverExtension extends LockStoreExtension {

	/**
	 * The room of {@link #fenceRoom()} unless a store says otherwise: 2<sup>16</sup>.
	 */
	long DEFAULT_FENCE_ROOM = 1L << 16;

	/**
	 * Return the spacing of the fencing tokens this store grants: each is a multiple of
	 * it, so that up to {@code fenceRoom() - 1} hand-overs without a request fit after
	 * each of its grants, each with the fencing token plus one.
	 * @return the room, at least 2
	 */
	default long fenceRoom() {
		return DEFAULT_FENCE_ROOM;
	}

}
