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

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when the key expression of a {@code @DistributedLock} method does not give a key
 * that names the same lock for the same input on every call: it fails, gives
 * {@code null}, a blank key or no key at all, turns a {@code null} argument into the text
 * {@code "null"} (so every such call shares one lock), turns an object without its own
 * {@code toString()} or an array into its identity text such as {@code Order@1b6d3586} (a
 * new key on every call, so nothing is excluded), gives malformed UTF-16, a key longer
 * than {@code distlock.max-key-length} or more keys than {@code distlock.max-keys}. The
 * method did not run and no lock was taken.
 *
 * @author distlock
 * @since 0.1.0
 */
public class InvalidLockKeyException extends DistributedLockException {

	/**
	 * Locked method whose key expression failed.
	 */
	private final Method method;

	/**
	 * Key expression of the method.
	 */
	private final String expression;

	/**
	 * Part of the expression, or of its value, that is wrong.
	 */
	private final String part;

	/**
	 * Create a new exception.
	 * @param method the locked method
	 * @param expression its key expression
	 * @param part the part of the expression or of its value that is wrong, for example
	 * {@code #userId}
	 * @param problem what is wrong with it, for example {@code "is null"}
	 * @param cause the cause, if any
	 */
	public InvalidLockKeyException(Method method, String expression, String part, String problem,
			@Nullable Throwable cause) {
		super(expression, "Invalid lock key of @DistributedLock(key = \"" + expression + "\") on " + method + ": "
				+ part + " " + problem + "; the method was not called", cause);
		this.method = method;
		this.expression = expression;
		this.part = part;
	}

	/**
	 * Return the key expression: no valid key exists.
	 * @return the key expression
	 */
	@Override
	public String getKey() {
		return this.expression;
	}

	/**
	 * Return the locked method.
	 * @return the method
	 */
	public Method getMethod() {
		return this.method;
	}

	/**
	 * Return the key expression of the method.
	 * @return the key expression
	 */
	public String getExpression() {
		return this.expression;
	}

	/**
	 * Return the part of the expression, or of its value, that is wrong, for example
	 * {@code #userId} or {@code the key}.
	 * @return the offending part
	 */
	public String getPart() {
		return this.part;
	}

}
