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

package dev.distlock.memory;

/**
 * The in-memory store with the controls the tests of the engine and of the
 * auto-configuration need, through the store's protected extension points: it can be made
 * unreachable, a key given to a foreign owner or expired, and a key's state read. Users'
 * tests have {@code dev.distlock.test.TestLockStore} of {@code lock-spring-boot-test},
 * which these modules cannot depend on (it depends on them); this one is shared with the
 * auto-configuration's tests through the test jar of {@code lock-core}.
 *
 * @author distlock
 */
public class ControllableInMemoryLockStore extends InMemoryLockStore {

	private volatile boolean unreachable;

	/**
	 * Make every operation fail as if the backend could not be reached, or reachable
	 * again.
	 * @param unreachable whether the store is unreachable
	 */
	public void setUnreachable(boolean unreachable) {
		this.unreachable = unreachable;
	}

	/**
	 * Return whether someone holds {@code key}, a writer or readers.
	 * @param key the lock key
	 * @return whether the key is locked
	 */
	public boolean isLocked(String key) {
		return isHeld(key);
	}

	/**
	 * Give {@code key} to a foreign owner that never releases it, without notifying.
	 * @param key the lock key
	 * @param owner the foreign owner token
	 */
	public void takeOver(String key, String owner) {
		assignToForeignOwner(key, owner);
	}

	/**
	 * Drop the lock on {@code key} as if its lease had run out, without notifying.
	 * @param key the lock key
	 */
	public void expire(String key) {
		drop(key);
	}

	@Override
	protected boolean isReachable() {
		return !this.unreachable;
	}

}
