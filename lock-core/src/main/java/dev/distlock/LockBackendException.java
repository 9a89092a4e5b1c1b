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

import org.jspecify.annotations.Nullable;

/**
 * Thrown when the lock store could not reach its backend, or got no answer within its
 * command timeout, while acquiring, checking or releasing a lock. Acquisition fails
 * closed: the protected code did not run.
 *
 * @author distlock
 * @since 0.1.0
 */
public class LockBackendException extends DistributedLockException {

	/**
	 * Create a new exception.
	 * @param key the lock key
	 * @param operation what was being done, for example {@code "acquire"}
	 * @param cause the exception raised by the backend's client
	 */
	public LockBackendException(String key, String operation, Throwable cause) {
		super(key,
				"The lock store failed to " + operation + " lock '" + LogSafe.escape(key) + "': " + cause.getMessage(),
				cause);
	}

	/**
	 * Create a new exception with a message of its own, for subclasses.
	 * @param key the lock key
	 * @param cause the cause, if any
	 * @param message the detail message
	 */
	protected LockBackendException(String key, @Nullable Throwable cause, String message) {
		super(key, message, cause);
	}

}
