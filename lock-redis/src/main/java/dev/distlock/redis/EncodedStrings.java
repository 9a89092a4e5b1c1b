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

import java.nio.charset.StandardCharsets;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;

/**
 * An immutable list of strings that carries their UTF-8 encodings, made once, so that a
 * script's KEYS are not encoded anew per request: {@link LockKeys#of} builds the keys of
 * a lock as one (the store keeps recent locks' keys), and the executor sends its bytes.
 * The store's constant arguments (the lease figures of whole seconds, the protocol's
 * literals and publish commands, the figures from Java) are encoded once too
 * ({@link #encode(String)}).
 *
 * @author distlock
 * @since 0.1.0
 */
final class EncodedStrings extends AbstractList<String> implements RandomAccess {

	/**
	 * The encodings of the constant arguments, by identity: the very strings the commands
	 * pass.
	 */
	private static final Map<String, byte[]> CONSTANTS = constants();

	private final String[] values;

	private final byte[][] bytes;

	private EncodedStrings(String[] values, byte[][] bytes) {
		this.values = values;
		this.bytes = bytes;
	}

	/**
	 * Return a list of {@code values} with their encodings.
	 * @param values the strings
	 * @return the list
	 */
	static EncodedStrings of(List<String> values) {
		String[] strings = values.toArray(String[]::new);
		byte[][] encoded = new byte[strings.length][];
		for (int i = 0; i < strings.length; i++) {
			encoded[i] = encode(strings[i]);
		}
		return new EncodedStrings(strings, encoded);
	}

	/**
	 * Return this list with {@code value} added at its end, encoding only that one.
	 * @param value the string to add
	 * @return a new list
	 */
	EncodedStrings with(String value) {
		String[] strings = Arrays.copyOf(this.values, this.values.length + 1);
		byte[][] encoded = Arrays.copyOf(this.bytes, this.bytes.length + 1);
		strings[strings.length - 1] = value;
		encoded[encoded.length - 1] = encode(value);
		return new EncodedStrings(strings, encoded);
	}

	/**
	 * Return {@code values} with {@code value} added at their end, encoding
	 * {@code values} only if they are not a list of this type.
	 * @param values the strings
	 * @param value the string to add
	 * @return a new list
	 */
	static EncodedStrings with(List<String> values, String value) {
		return ((values instanceof EncodedStrings encoded) ? encoded : of(values)).with(value);
	}

	/**
	 * Return the encodings, one per element; shared, so never to be changed.
	 * @return the UTF-8 bytes of each element
	 */
	byte[][] bytes() {
		return this.bytes;
	}

	@Override
	public String get(int index) {
		return this.values[index];
	}

	@Override
	public int size() {
		return this.values.length;
	}

	/**
	 * Return the UTF-8 encoding of {@code value}: the one made once for a constant
	 * argument, else a new one. The bytes of a constant are shared, so never to be
	 * changed.
	 * @param value the string
	 * @return its bytes
	 */
	static byte[] encode(String value) {
		byte[] constant = CONSTANTS.get(value);
		return (constant != null) ? constant : value.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Return the encodings of {@code values}, those of a list of this type as made.
	 * @param values the strings
	 * @return the UTF-8 bytes of each
	 */
	static byte[][] bytes(List<String> values) {
		if (values instanceof EncodedStrings encoded) {
			return encoded.bytes;
		}
		byte[][] bytes = new byte[values.size()][];
		for (int i = 0; i < bytes.length; i++) {
			bytes[i] = encode(values.get(i));
		}
		return bytes;
	}

	private static Map<String, byte[]> constants() {
		Map<String, byte[]> constants = new IdentityHashMap<>();
		for (String constant : RedisLockCommands.constantArguments()) {
			constants.put(constant, constant.getBytes(StandardCharsets.UTF_8));
		}
		return constants;
	}

}
