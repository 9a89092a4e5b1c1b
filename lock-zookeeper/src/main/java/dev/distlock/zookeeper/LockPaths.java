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

import org.apache.zookeeper.common.PathUtils;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The nodes of the store: under the base path one node per key, a container named by the
 * key encoded into one path segment, and under it:
 * <ul>
 * <li>{@value #HOLDER}: the ephemeral node whose existence is the lock, its data the
 * holder's token; its creation zxid is the fencing token;</li>
 * <li>{@code o-<token>}: the holder's ephemeral owner node, created and deleted in the
 * same transaction as {@value #HOLDER}, so that a release, a renewal and an owner check
 * find by name whether a token still holds the key.</li>
 * </ul>
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

	/** The name of the node whose existence is the lock. */
	static final String HOLDER = "holder";

	private static final String OWNER_PREFIX = "o-";

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
	 * Return the node of {@code key}, the parent of its holder and owner nodes.
	 */
	String keyPath(String key) {
		return this.basePath + "/" + segment(key);
	}

	/**
	 * Return the node whose existence is the lock on {@code key}.
	 */
	String holderPath(String key) {
		return keyPath(key) + "/" + HOLDER;
	}

	/**
	 * Return the owner node of {@code token} on {@code key}, which exists while the token
	 * holds the key.
	 */
	String ownerPath(String key, String token) {
		return keyPath(key) + "/" + OWNER_PREFIX + segment(token);
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

	private static boolean kept(byte b) {
		return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_' || b == '-'
				|| b == ':' || b == '@';
	}

}
