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
 * key encoded into one path segment, and under it:
 * <ul>
 * <li>{@value #HOLDER}: the ephemeral node whose existence is the lock, its data the
 * holder's token; its creation zxid is the fencing token;</li>
 * <li>{@code o-<token>}: the holder's ephemeral owner node, created and deleted in the
 * same transaction as {@value #HOLDER}, so that a release, a renewal and an owner check
 * find by name whether a token still holds the key;</li>
 * <li>{@code q-<waiter>-<sequence>}: the ephemeral sequential node of a waiter in line
 * ({@link WaitingLine}), ZooKeeper's ten-digit sequence number giving its place; a fair
 * caller's is {@code qf-<token>-<sequence>};</li>
 * <li>{@value #NEXT}: the fair line's reservation, its data the token of the fair caller
 * it is kept for: while it exists every take but that caller's own claim fails;</li>
 * <li>{@value #READERS}: the container of the readers' ephemeral {@code r-<token>} nodes
 * ({@link ReadGrants}): while it exists every take of a writer fails;</li>
 * <li>{@value #WRITER_WAITING}: the ephemeral mark of a writer waiting for readers, its
 * data the writer's token ({@link WriterMarks}): while it exists new readers are
 * refused.</li>
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

	/** The name of the fair queue head's node. */
	static final String NEXT = "next";

	/** The name of the container of the readers' nodes. */
	static final String READERS = "readers";

	/** The name of the mark of a writer waiting for readers. */
	static final String WRITER_WAITING = "writer-waiting";

	private static final String OWNER_PREFIX = "o-";

	private static final String READER_PREFIX = "r-";

	private static final String QUEUE_PREFIX = "q-";

	private static final String FAIR_QUEUE_PREFIX = "qf-";

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
	 * Return the node of {@code key}, the parent of its holder, owner and queue nodes.
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
	 * Return the fair queue head's node of {@code key}.
	 */
	String nextPath(String key) {
		return keyPath(key) + "/" + NEXT;
	}

	/**
	 * Return the container of the readers' nodes of {@code key}.
	 */
	String readersPath(String key) {
		return keyPath(key) + "/" + READERS;
	}

	/**
	 * Return the node of the reader {@code token} on {@code key}, which exists while the
	 * token reads the key.
	 */
	String readerPath(String key, String token) {
		return readersPath(key) + "/" + READER_PREFIX + segment(token);
	}

	/**
	 * Return the mark of a writer waiting for the readers of {@code key}.
	 */
	String writerWaitingPath(String key) {
		return keyPath(key) + "/" + WRITER_WAITING;
	}

	/**
	 * Return the path the queue node of {@code waiter} on {@code key} is created with;
	 * ZooKeeper appends the sequence number.
	 */
	String queuePrefix(String key, String waiter) {
		return keyPath(key) + "/" + QUEUE_PREFIX + segment(waiter) + "-";
	}

	/**
	 * Return the path the queue node of the fair caller {@code token} on {@code key} is
	 * created with; ZooKeeper appends the sequence number.
	 */
	String fairQueuePrefix(String key, String token) {
		return keyPath(key) + "/" + FAIR_QUEUE_PREFIX + segment(token) + "-";
	}

	/**
	 * Return the path of the child {@code name} of the node of {@code key}.
	 */
	String child(String key, String name) {
		return keyPath(key) + "/" + name;
	}

	/**
	 * Return the queue nodes among {@code children}, lowest sequence number first.
	 */
	static List<String> queue(List<String> children) {
		List<String> queue = new ArrayList<>(children.size());
		for (String child : children) {
			if ((child.startsWith(QUEUE_PREFIX) || child.startsWith(FAIR_QUEUE_PREFIX)) && sequence(child) >= 0) {
				queue.add(child);
			}
		}
		queue.sort(Comparator.comparingLong(LockPaths::sequence));
		return queue;
	}

	/**
	 * Return the token of the fair caller whose queue node is {@code name}, or
	 * {@code null} when it is not a fair caller's.
	 */
	static @Nullable String fairToken(String name) {
		if (!name.startsWith(FAIR_QUEUE_PREFIX) || sequence(name) < 0
				|| name.length() < FAIR_QUEUE_PREFIX.length() + SEQUENCE_DIGITS + 1) {
			return null;
		}
		String segment = name.substring(FAIR_QUEUE_PREFIX.length(), name.length() - SEQUENCE_DIGITS - 1);
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

	/**
	 * Return the name, the last segment, of {@code path}.
	 */
	static String name(String path) {
		return path.substring(path.lastIndexOf('/') + 1);
	}

	/**
	 * Return the sequence number ending {@code name}, or -1 when it ends otherwise.
	 */
	static long sequence(String name) {
		int dash = name.length() - SEQUENCE_DIGITS - 1;
		if (dash < 0 || name.charAt(dash) != '-') {
			return -1;
		}
		for (int i = dash + 1; i < name.length(); i++) {
			if (name.charAt(i) < '0' || name.charAt(i) > '9') {
				return -1;
			}
		}
		return Long.parseLong(name.substring(dash + 1));
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
