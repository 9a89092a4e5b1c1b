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

package dev.distlock.autoconfigure.store;

/**
 * Thrown at startup when {@code distlock.store} selects a store that is not available, or
 * is unset while several stores are present.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class LockStoreSelectionException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	/**
	 * What the application should change.
	 */
	private final String action;

	LockStoreSelectionException(String message, String action) {
		super(message);
		this.action = action;
	}

	/**
	 * Return what the application should change.
	 * @return the action to take
	 */
	String getAction() {
		return this.action;
	}

}
