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

import org.jspecify.annotations.Nullable;

/**
 * Makes text from callers, such as lock keys and lock names, safe to put into a log line:
 * control characters (CR and LF included) and the Unicode line and paragraph separators
 * are written as escapes ({@code \n}, {@code \r}, {@code \t}, {@code \u001b}), so a key
 * can never end a log line and forge the next one.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class LogSafe {

	private LogSafe() {
	}

	/**
	 * Return {@code text} with its control characters escaped.
	 * @param text the text, for example a lock key
	 * @return the escaped text, {@code "null"} for {@code null}
	 */
	public static String escape(@Nullable Object text) {
		String value = String.valueOf(text);
		StringBuilder escaped = null;
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			String replacement = replacement(c);
			if (replacement != null && escaped == null) {
				escaped = new StringBuilder(value.length() + 16).append(value, 0, i);
			}
			if (escaped != null) {
				escaped.append((replacement != null) ? replacement : String.valueOf(c));
			}
		}
		return (escaped != null) ? escaped.toString() : value;
	}

	private static @Nullable String replacement(char c) {
		return switch (c) {
			case '\n' -> "\\n";
			case '\r' -> "\\r";
			case '\t' -> "\\t";
			default -> (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') ? String.format("\\u%04x", (int) c)
					: null;
		};
	}

}
