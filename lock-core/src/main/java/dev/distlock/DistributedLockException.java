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
 * Base class of the unchecked exceptions thrown by distlock.
 *
 * @author distlock
 * @since 0.1.0
 */
public class DistributedLockException extends RuntimeException {

	/**
	 * Key of the lock.
	 */
	private final String key;

	/**
	 * Create a new exception for the given lock key.
	 * @param key the lock key as the application named it
	 * @param message the detail message
	 * @param cause the cause, if any
	 */
	public DistributedLockException(String key, String message, @Nullable Throwable cause) {
		super(message, cause);
		this.key = key;
	}

	/**
	 * Return the lock key as the application named it (without the key prefix).
	 * @return the lock key
	 */
	public String getKey() {
		return this.key;
	}

}
