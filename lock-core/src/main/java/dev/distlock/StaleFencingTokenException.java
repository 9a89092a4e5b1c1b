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
 * Thrown by a guarded write when the row it updates was already written with a fencing
 * token equal to or greater than the writer's: a newer holder of the lock wrote first, so
 * this writer's lease must have run out (it paused, or its lock was taken over) and its
 * write is refused. Nothing was changed.
 *
 * @author distlock
 * @since 0.1.0
 */
public class StaleFencingTokenException extends DistributedLockException {

	/**
	 * Fencing token of the refused write.
	 */
	private final long token;

	/**
	 * Fencing token the row was last written with.
	 */
	private final long currentToken;

	/**
	 * Create a new exception.
	 * @param key the lock key whose token was refused, or an empty string when the write
	 * was given a bare token
	 * @param resource what the write meant to change, for example
	 * {@code "voucher_user with user_id = 7"}
	 * @param token the refused fencing token
	 * @param currentToken the fencing token the resource was last written with
	 */
	public StaleFencingTokenException(String key, String resource, long token, long currentToken) {
		super(key, message(key, resource, token, currentToken), null);
		this.token = token;
		this.currentToken = currentToken;
	}

	private static String message(String key, String resource, long token, long currentToken) {
		String lock = key.isEmpty() ? "" : " of lock '" + LogSafe.escape(key) + "'";
		return "Fencing token " + token + lock + " is stale: " + resource + " was already written with fencing token "
				+ currentToken + " by a newer holder; nothing was written";
	}

	/**
	 * Return the fencing token of the refused write.
	 * @return the refused token
	 */
	public long getToken() {
		return this.token;
	}

	/**
	 * Return the fencing token the resource was last written with, equal to or greater
	 * than {@link #getToken()}.
	 * @return the current token
	 */
	public long getCurrentToken() {
		return this.currentToken;
	}

}
