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

package dev.distlock.store.support;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import dev.distlock.LogSafe;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * The rules every lock key and every set of keys must follow before any call reaches the
 * lock store: a key is not blank, is well-formed UTF-16 (no lone surrogate, which a store
 * would store as {@code ?} while this JVM keeps two different keys) and has at most
 * {@code maxKeyLength} bytes of UTF-8; one call locks at most {@code maxKeys} distinct
 * keys. The {@code @DistributedLock} advice applies the same rules to evaluated keys.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class LockKeyRules {

	/**
	 * Default maximum length of a key, in bytes of UTF-8.
	 */
	public static final int DEFAULT_MAX_KEY_LENGTH = 512;

	/**
	 * Default maximum number of keys one call may lock.
	 */
	public static final int DEFAULT_MAX_KEYS = 64;

	private LockKeyRules() {
	}

	/**
	 * Return what is wrong with {@code key}, if anything.
	 * @param key the key
	 * @param maxKeyLength the maximum length in bytes of UTF-8
	 * @return why the key is refused, or {@code null} if it is fine
	 */
	public static @Nullable String keyProblem(@Nullable String key, int maxKeyLength) {
		if (!StringUtils.hasText(key)) {
			return "is " + ((key != null) ? "blank" : "null");
		}
		int surrogate = loneSurrogate(key);
		if (surrogate >= 0) {
			return "is not well-formed UTF-16: lone surrogate U+"
					+ Integer.toHexString(key.charAt(surrogate)).toUpperCase() + " at index " + surrogate;
		}
		// UTF-8 needs at most 3 bytes per char: skip encoding keys that are surely short
		if (key.length() * 3L > maxKeyLength) {
			int bytes = key.getBytes(StandardCharsets.UTF_8).length;
			if (bytes > maxKeyLength) {
				return "is " + bytes + " bytes of UTF-8, more than the maximum of " + maxKeyLength
						+ " (distlock.max-key-length)";
			}
		}
		return null;
	}

	/**
	 * Return what is wrong with locking {@code count} distinct keys in one call, if
	 * anything.
	 * @param count the number of distinct keys
	 * @param maxKeys the maximum number of keys one call may lock
	 * @return why the keys are refused, or {@code null} if their number is fine
	 */
	public static @Nullable String countProblem(int count, int maxKeys) {
		if (count == 0) {
			return "no key at all";
		}
		if (count > maxKeys) {
			return count + " keys, more than the maximum of " + maxKeys + " (distlock.max-keys)";
		}
		return null;
	}

	/**
	 * Check one key against the rules.
	 * @param key the key
	 * @param maxKeyLength the maximum length in bytes of UTF-8
	 * @return the key
	 * @throws IllegalArgumentException if the key breaks a rule
	 */
	public static String requireKey(String key, int maxKeyLength) {
		String problem = keyProblem(key, maxKeyLength);
		if (problem != null) {
			throw new IllegalArgumentException("Lock key " + quote(key) + " " + problem);
		}
		return key;
	}

	/**
	 * Check several keys against the rules.
	 * @param keys the keys
	 * @param maxKeyLength the maximum length in bytes of UTF-8 of each key
	 * @param maxKeys the maximum number of keys
	 * @return the distinct keys in their natural order
	 * @throws IllegalArgumentException if a key breaks a rule, or there are none or too
	 * many
	 */
	public static List<String> requireKeys(Collection<String> keys, int maxKeyLength, int maxKeys) {
		Assert.notNull(keys, "'keys' must not be null");
		keys.forEach((key) -> requireKey(key, maxKeyLength));
		List<String> sorted = new ArrayList<>(new TreeSet<>(keys));
		String problem = countProblem(sorted.size(), maxKeys);
		if (problem != null) {
			throw new IllegalArgumentException("Lock keys must not be empty or too many, but were " + problem);
		}
		return sorted;
	}

	/**
	 * Check the keys of one of several keys (segments): each a valid key, their count
	 * within bounds, none twice, their order kept.
	 * @param keys the keys, in segment order
	 * @param maxKeyLength the maximum length in bytes of UTF-8 of each key
	 * @param maxKeys the maximum number of keys
	 * @return the keys, in the order given
	 * @throws IllegalArgumentException naming the problem
	 */
	public static List<String> requireDistinctKeys(List<String> keys, int maxKeyLength, int maxKeys) {
		Assert.notNull(keys, "'keys' must not be null");
		keys.forEach((key) -> requireKey(key, maxKeyLength));
		String problem = countProblem(keys.size(), maxKeys);
		if (problem != null) {
			throw new IllegalArgumentException("Segment keys must not be empty or too many, but were " + problem);
		}
		Set<String> seen = new HashSet<>();
		for (String key : keys) {
			if (!seen.add(key)) {
				throw new IllegalArgumentException(
						"Segment keys must be distinct, but " + quote(key) + " is given twice");
			}
		}
		return List.copyOf(keys);
	}

	private static int loneSurrogate(String key) {
		for (int i = 0; i < key.length(); i++) {
			char c = key.charAt(i);
			if (Character.isHighSurrogate(c) && i + 1 < key.length() && Character.isLowSurrogate(key.charAt(i + 1))) {
				i++;
			}
			else if (Character.isSurrogate(c)) {
				return i;
			}
		}
		return -1;
	}

	private static String quote(@Nullable String key) {
		if (key == null) {
			return "null";
		}
		String shown = (key.length() > 64) ? key.substring(0, 64) + "..." : key;
		return "'" + LogSafe.escape(shown) + "'";
	}

}
