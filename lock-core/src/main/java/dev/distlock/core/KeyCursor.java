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

package dev.distlock.core;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Where an {@link Acquisition} is among its keys: the key it asks for next (key by key)
 * or every key at once, and the owner token of each key's grant, drawn when first asked
 * for. Read and moved only by the event an acquisition is processing.
 *
 * @author distlock
 * @since 0.1.0
 */
final class KeyCursor {

	private final List<LockEntry> entries;

	private final Supplier<String> newToken;

	private final String[] tokens;

	/** The key asked for next, key by key. */
	private int index;

	/** Whether every key is asked for in one request. */
	private boolean all;

	/**
	 * Create a cursor.
	 * @param entries the local entries of the keys, in key order
	 * @param start the key to ask for first
	 * @param newToken draws a new owner token
	 */
	KeyCursor(List<LockEntry> entries, int start, Supplier<String> newToken) {
		this.entries = entries;
		this.newToken = newToken;
		this.tokens = new String[entries.size()];
		this.index = start;
	}

	/**
	 * Return the key asked for next, key by key.
	 */
	int index() {
		return this.index;
	}

	/**
	 * Ask for the key at {@code at} next, key by key.
	 */
	void moveTo(int at) {
		this.index = at;
	}

	/**
	 * Return whether every key is asked for in one request.
	 */
	boolean isAll() {
		return this.all;
	}

	/**
	 * Ask for every key in one request ({@code true}), or key by key.
	 */
	void askAll(boolean all) {
		this.all = all;
	}

	/**
	 * Return the local entry of the key at {@code at}.
	 */
	LockEntry entry(int at) {
		return this.entries.get(at);
	}

	/**
	 * Return the keys the current request asks for: every key, or the one asked for next.
	 */
	List<Integer> requestedKeys() {
		if (!this.all) {
			return List.of(this.index);
		}
		List<Integer> keys = new ArrayList<>(this.entries.size());
		for (int i = 0; i < this.entries.size(); i++) {
			keys.add(i);
		}
		return keys;
	}

	/**
	 * Return the first key the current request asks for.
	 */
	int first() {
		return this.all ? 0 : this.index;
	}

	/**
	 * Return every key, in key order.
	 */
	List<String> keys() {
		return this.entries.stream().map((entry) -> entry.key).toList();
	}

	/**
	 * Return the key asked for next (the last key once past it), for messages.
	 */
	String key() {
		return this.entries.get(Math.min(this.index, this.entries.size() - 1)).key;
	}

	/**
	 * Return the owner token of the grant of the key at {@code at}, drawn on first use.
	 */
	String token(int at) {
		String token = this.tokens[at];
		if (token == null) {
			token = this.newToken.get();
			this.tokens[at] = token;
		}
		return token;
	}

	/**
	 * Use {@code token}, drawn already, as the owner token of the key at {@code at}.
	 */
	void useToken(int at, String token) {
		this.tokens[at] = token;
	}

	/**
	 * Return the one owner token of a request for every key: the first key's, which every
	 * key's grant then carries.
	 */
	String tokenOfAll() {
		String token = token(0);
		for (int i = 1; i < this.tokens.length; i++) {
			this.tokens[i] = token;
		}
		return token;
	}

}
