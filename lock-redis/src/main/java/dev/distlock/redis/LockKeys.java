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
 * Names of the Redis keys and channel behind one lock, and the one order in which every
 * script of {@link LockScripts} receives them as {@code KEYS}:
 * <ol>
 * <li>{@link #lockKey() lock}: the writer's owner token (a string) or the readers (a
 * sorted set of reader tokens scored by when their lease ends);</li>
 * <li>{@link #fenceKey() fence}: the last fencing token granted;</li>
 * <li>{@link #channel() channel}: where releases are published;</li>
 * <li>{@link #writerWaitingKey() writer waiting}: the mark of a writer waiting for
 * readers;</li>
 * <li>{@link #waitersKey() waiters}: a sorted set of waiting clients, scored by when
 * their registration expires;</li>
 * <li>{@link #queueKey() queue}: the fair queue, a sorted set of waiter tokens scored by
 * arrival;</li>
 * <li>{@link #aliveKey() alive}: a sorted set of fair waiter tokens, scored by when they
 * count as gone;</li>
 * <li>{@link #grantsKey() grants}: a hash of fair waiter token to how long a grant to it
 * lasts, in milliseconds.</li>
 * </ol>
 * A script on several locks receives, one lock after the other, the first keys of this
 * order that it needs. The application's key is wrapped in a hash tag, so every name of
 * one lock maps to one Redis Cluster hash slot. Braces and backslashes in the
 * application's key are escaped ({@code \(}, {@code \)}, {@code \\}) so they can never
 * end or empty the hash tag, and two different keys never share names.
 *
 * @param name the lock key as the application named it
 * @param lockKey the key holding the owner token or the readers
 * @param all every key of the lock, in the scripts' order
 * @author distlock
 * @since 0.1.0
 */
public record LockKeys(String name, String lockKey, List<String> all) {

	/**
	 * How many keys each lock passes to a script.
	 */
	public static final int COUNT = 8;

	/**
	 * Validate the keys.
	 * @param name the lock key as the application named it
	 * @param lockKey the key holding the owner token or the readers
	 * @param all every key of the lock, in the scripts' order
	 */
	public LockKeys {
		Assert.isTrue(all.size() == COUNT, () -> "A lock has " + COUNT + " keys, not " + all.size());
	}

	/**
	 * Return the names of the lock {@code name} under {@code prefix}.
	 * @param prefix the store's key prefix
	 * @param name the lock key as the application named it
	 * @return the lock's keys
	 */
	public static LockKeys of(String prefix, String name) {
		Assert.isTrue(StringUtils.hasText(name), () -> "Lock key must not be null or blank, but was '" + name + "'");
		String lockKey = prefix + "{" + escapeBraces(name) + "}";
		// Encoded once: the store keeps the keys of recent locks, and every script on
		// this lock sends these bytes
		return new LockKeys(name, lockKey,
				EncodedStrings
					.of(List.of(lockKey, lockKey + ":fence", lockKey + ":released", lockKey + ":writer-waiting",
							lockKey + ":waiters", lockKey + ":queue", lockKey + ":alive", lockKey + ":grants")));
	}

	/**
	 * Return the key holding the last fencing token granted ({@code KEYS[2]}).
	 * @return the fence key
	 */
	public String fenceKey() {
		return this.all.get(1);
	}

	/**
	 * Return the channel on which releases are published ({@code KEYS[3]}).
	 * @return the channel
	 */
	public String channel() {
		return this.all.get(2);
	}

	/**
	 * Return the key a writer waiting for readers sets, so that new readers back off
	 * ({@code KEYS[4]}).
	 * @return the writer-waiting key
	 */
	public String writerWaitingKey() {
		return this.all.get(3);
	}

	/**
	 * Return the key of the sorted set of clients waiting for a release
	 * ({@code KEYS[5]}).
	 * @return the waiters key
	 */
	public String waitersKey() {
		return this.all.get(4);
	}

	/**
	 * Return the key of the fair queue ({@code KEYS[6]}).
	 * @return the queue key
	 */
	public String queueKey() {
		return this.all.get(5);
	}

	/**
	 * Return the key of the sorted set of live fair waiters ({@code KEYS[7]}).
	 * @return the alive key
	 */
	public String aliveKey() {
		return this.all.get(6);
	}

	/**
	 * Return the key of the hash of fair waiters' grant times ({@code KEYS[8]}).
	 * @return the grants key
	 */
	public String grantsKey() {
		return this.all.get(7);
	}

	/**
	 * Return the key a release of {@code token} leaves for a short time, so that a replay
	 * of that release answers as the first run did (the release script's {@code KEYS[9]},
	 * after the keys of the one order).
	 * @param token the owner token released
	 * @return the released-by key
	 */
	public String releasedKey(String token) {
		return this.lockKey + ":released-by:" + token;
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
