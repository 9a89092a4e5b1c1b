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

import java.io.Serializable;

import org.jspecify.annotations.Nullable;

/**
 * What the locked method of a {@link LockLostAfterCompletionException} or a
 * {@link LockReleaseFailedException} did before its release went wrong: its result, and
 * whether a transaction that began inside the lock committed.
 *
 * @author distlock
 */
final class MethodCompletion implements Serializable {

	private static final long serialVersionUID = 1L;

	/**
	 * Result of the method, not serialized.
	 */
	private final transient @Nullable Object result;

	/**
	 * Whether a transaction that began inside the lock had committed.
	 */
	private final boolean transactionCommitted;

	MethodCompletion(@Nullable Object result, boolean transactionCommitted) {
		this.result = result;
		this.transactionCommitted = transactionCommitted;
	}

	@Nullable Object result() {
		return this.result;
	}

	boolean transactionCommitted() {
		return this.transactionCommitted;
	}

	/**
	 * Describe the completed method of {@code key}, and what happened then.
	 * @param key the lock key
	 * @param then what went wrong at the release
	 * @return the message
	 */
	String describe(String key, String then) {
		return "The method locked by '" + LogSafe.escape(key) + "' "
				+ (this.transactionCommitted ? "returned normally and its transaction committed"
						: "returned normally (no transaction that began inside the lock committed)")
				+ ", but then: " + then;
	}

}
