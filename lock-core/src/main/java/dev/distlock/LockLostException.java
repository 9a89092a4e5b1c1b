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

package dev.distlock;

/**
 * Thrown when a holder finds that it no longer owns a lock it acquired: the lease
 * expired, or another owner took the key. Code that ran under the lock may have
 * overlapped with another holder from that point on.
 *
 * @author distlock
 * @since 0.1.0
 */
public class LockLostException extends DistributedLockException {

	/**
	 * Create a new exception.
	 * @param key the lock key
	 * @param reason how the loss was detected
	 */
	public LockLostException(String key, String reason) {
		super(key, "Lock '" + LogSafe.escape(key) + "' was lost: " + reason, null);
	}

}
