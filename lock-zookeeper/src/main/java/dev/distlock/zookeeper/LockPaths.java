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

package dev.distlock.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.apache.zookeeper.common.PathUtils;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The nodes of the store: under the base path one node per key, a container named by the
 * key encoded into one path segment, and under it one ephemeral sequential node per
 * grant, named by the owner token encoded the same way, a dash and ZooKeeper's ten-digit
 * sequence number. The lowest sequence number among the ephemeral children named so holds
 * the lock; any other child holds nothing.
 * <p>
 * A segment keeps ASCII letters, digits, {@code '_'}, {@code '-'}, {@code ':'} and
 * {@code '@'}; every other character, the dot and the slash included, is written as
 * {@code %XX} for each byte of its UTF-8 form, so any key is one segment and no key
 * becomes {@code "."}, {@code ".."} or a character ZooKeeper refuses.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LockPaths {

	private static final int SEQUENCE_DIGITS = 10;

	private static final char[] HEX = "0123456789ABCDEF".toCharArray();

	private final String basePath;

	/**
	 * Create the paths under {@code basePath}.
	 * @param basePath an absolute ZooKeeper path, not the root
	 */
	LockPaths(String basePath) {
		Assert.hasText(basePath, "'basePath' must not be empty");
		Assert.isTrue(basePath.startsWith("/") && basePath.length() > 1 && !basePath.endsWith("/"),
				() -> "'basePath' must be an absolute ZooKeeper path other than the root, without a trailing '/', but was '"
						+ basePath + "'");
		try {
			PathUtils.validatePath(basePath);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("'basePath' is not a valid ZooKeeper path: " + ex.getMessage(), ex);
		}
		this.basePath = basePath;
	}

	String basePath() {
		return this.basePath;
	}

	/**
	 * Return the node of {@code key}, the parent of its grants.
	 */
	String keyPath(String key) {
		return this.basePath + "/" + segment(key);
	}

	/**
	 * Return the path a grant of {@code token} on {@code key} is created with; ZooKeeper
	 * appends the sequence number.
	 */
	String grantPrefix(String key, String token) {
		return keyPath(key) + "/" + segment(token) + "-";
	}

	/**
	 * Return the path of the child {@code name} of the node of {@code key}.
	 */
	String child(String key, String name) {
		return keyPath(key) + "/" + name;
	}

	/**
	 * Return the grants of {@code token} among {@code children}, lowest sequence number
	 * first: one, unless a create was sent again after its reply was lost.
	 */
	static List<String> grantsOf(List<String> children, String token) {
		String prefix = segment(token) + "-";
		List<String> grants = new ArrayList<>(1);
		for (String child : children) {
			if (child.startsWith(prefix) && child.length() == prefix.length() + SEQUENCE_DIGITS && isGrant(child)) {
				grants.add(child);
			}
		}
		grants.sort(Comparator.comparingLong(LockPaths::sequence));
		return grants;
	}

	/**
	 * Return the children that may hold the lock, lowest sequence number first: those
	 * named as the store names its grants (an encoded token, a dash and ten digits).
	 * Whether one holds also needs it to be ephemeral, which its name does not tell.
	 */
	static List<String> candidates(List<String> children) {
		List<String> candidates = new ArrayList<>(children.size());
		for (String child : children) {
			if (isGrant(child)) {
				candidates.add(child);
			}
		}
		candidates.sort(Comparator.comparingLong(LockPaths::sequence));
		return candidates;
	}

	/**
	 * Return whether {@code name} is named as the store names its grants: at least one
	 * character of an encoded token, a dash and ten digits.
	 */
	static boolean isGrant(String name) {
		int dash = name.length() - SEQUENCE_DIGITS - 1;
		if (dash < 1 || name.charAt(dash) != '-') {
			return false;
		}
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			boolean valid = (i > dash) ? (c >= '0' && c <= '9') : (c < 128 && (kept((byte) c) || c == '%'));
			if (!valid) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Return the owner token of the grant named {@code name}.
	 */
	static String token(String name) {
		return decode(name.substring(0, Math.max(0, name.length() - SEQUENCE_DIGITS - 1)));
	}

	/**
	 * Return the name, the last segment, of {@code path}.
	 */
	static String name(String path) {
		return path.substring(path.lastIndexOf('/') + 1);
	}

	static long sequence(String name) {
		if (name.length() < SEQUENCE_DIGITS) {
			return Long.MAX_VALUE;
		}
		try {
			return Long.parseLong(name.substring(name.length() - SEQUENCE_DIGITS));
		}
		catch (NumberFormatException ex) {
			return Long.MAX_VALUE;
		}
	}

	/**
	 * Encode {@code text} into one path segment.
	 */
	static String segment(String text) {
		StringBuilder segment = new StringBuilder(text.length());
		for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
			if (kept(b)) {
				segment.append((char) b);
			}
			else {
				segment.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
			}
		}
		return segment.toString();
	}

	static String decode(String segment) {
		byte[] bytes = new byte[segment.length()];
		int length = 0;
		for (int i = 0; i < segment.length(); i++) {
			char c = segment.charAt(i);
			if (c == '%' && i + 2 < segment.length()) {
				bytes[length++] = (byte) Integer.parseInt(segment.substring(i + 1, i + 3), 16);
				i += 2;
			}
			else {
				bytes[length++] = (byte) c;
			}
		}
		return new String(bytes, 0, length, StandardCharsets.UTF_8);
	}

	private static boolean kept(byte b) {
		return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_' || b == '-'
				|| b == ':' || b == '@';
	}

}
