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

package dev.distlock.aop;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ReflectionUtils;

/**
 * Tells whether a value may become (part of) a lock key as text: {@code null} turns into
 * {@code "null"}, the same key for every such call; an array or an object whose class
 * does not override {@link Object#toString()} turns into its identity
 * ({@code Order@1b6d3586}), a new key on every call.
 *
 * @author distlock
 */
final class KeyValues {

	private KeyValues() {
	}

	/**
	 * Return what is wrong with turning {@code value} into key text, if anything.
	 * @param value the value
	 * @return the problem, or {@code null} if the value's text names it
	 */
	static @Nullable String problem(@Nullable Object value) {
		if (value == null) {
			return "is null, which would become the text \"null\": every such call would share one lock";
		}
		Class<?> type = value.getClass();
		if (type.isArray()) {
			return "is an array (" + type.getSimpleName() + "), whose text is its identity (" + value
					+ "): a new key on every call, so nothing would be excluded";
		}
		if (hasIdentityText(type)) {
			return "is a " + type.getName() + ", which does not override toString(): its text is its identity (" + value
					+ "), a new key on every call, so nothing would be excluded";
		}
		return null;
	}

	/**
	 * Return whether instances of {@code type} use {@link Object#toString()}.
	 * @param type the type of a value
	 * @return whether its text is its identity
	 */
	static boolean hasIdentityText(Class<?> type) {
		Method toString = ReflectionUtils.findMethod(type, "toString");
		return toString == null || toString.getDeclaringClass() == Object.class;
	}

}
