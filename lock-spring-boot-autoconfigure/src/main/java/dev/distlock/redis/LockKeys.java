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

package dev.distlock.redis;

import java.util.List;

import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * Names of the Redis keys and channel behind one lock. The application's key is wrapped
 * in a hash tag, so the lock key, the fence key and the channel map to one Redis Cluster
 * hash slot, as does the writer-waiting key ({@link #writerWaitingKey()}). Braces and
 * backslashes in the application's key are escaped ({@code \(}, {@code \)}, {@code \\})
 * so they can never end or empty the hash tag, and two different keys never share names.
 *
 * @param name the lock key as the application named it
 * @param lockKey the key holding the owner token
 * @param fenceKey the key holding the last fencing token granted
 * @param channel the channel on which releases are published
 * @author distlock
 * @since 0.1.0
 */
public record LockKeys(String name, String lockKey, String fenceKey, String channel) {

	public static LockKeys of(String prefix, String name) {
		Assert.isTrue(StringUtils.hasText(name), () -> "Lock key must not be null or blank, but was '" + name + "'");
		String lockKey = prefix + "{" + escapeBraces(name) + "}";
		return new LockKeys(name, lockKey, lockKey + ":fence", lockKey + ":released");
	}

	/**
	 * Return the key a writer waiting for readers sets, so that new readers back off.
	 * @return the writer-waiting key
	 */
	public String writerWaitingKey() {
		return this.lockKey + ":writer-waiting";
	}

	/**
	 * Return the key of the sorted set of clients waiting for a release, scored by when
	 * their registration expires.
	 * @return the waiters key
	 * @since 0.2.0
	 */
	String waitersKey() {
		return this.lockKey + ":waiters";
	}

	/**
	 * Return the keys the release, fair-acquire, hand-over and leave scripts work on, in
	 * their order: lock, fence, channel, waiters, fair queue (a list), fair waiters alive
	 * (a sorted set), writer waiting.
	 * @return the keys
	 * @since 0.2.0
	 */
	List<String> handOverKeys() {
		return List.of(this.lockKey, this.fenceKey, this.channel, waitersKey(), this.lockKey + ":queue",
				this.lockKey + ":alive", writerWaitingKey());
	}

	private static String escapeBraces(String name) {
		StringBuilder escaped = new StringBuilder(name.length() + 8);
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			switch (c) {
				case '\\' -> escaped.append("\\\\");
				case '{' -> escaped.append("\\(");
				case '}' -> escaped.append("\\)");
				default -> escaped.append(c);
			}
		}
		return escaped.toString();
	}

}
