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
package dev.distlock.docs;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits Java source text into the tokens {@link MessageTemplates} reads: string literals
 * and text blocks (with their escapes resolved), a lone {@code +}, and every other
 * character or word. Comments and character literals are left out, and so is whitespace.
 *
 * @author distlock
 */
final class JavaTokens {

	private JavaTokens() {
	}

	/**
	 * Return the tokens of a source file.
	 * @param source the file's text
	 * @return its tokens, in order
	 */
	static List<Token> of(String source) {
		List<Token> tokens = new ArrayList<>();
		int at = 0;
		int length = source.length();
		while (at < length) {
			char c = source.charAt(at);
			if (source.startsWith("//", at)) {
				at = endOf(source, "\n", at + 2);
			}
			else if (source.startsWith("/*", at)) {
				at = endOf(source, "*/", at + 2);
			}
			else if (source.startsWith("\"\"\"", at)) {
				int end = source.indexOf("\"\"\"", at + 3);
				end = (end < 0) ? length : end;
				tokens.add(new Token("\"", unescape(source.substring(at + 3, end))));
				at = end + 3;
			}
			else if (c == '"' || c == '\'') {
				int end = closing(source, c, at + 1);
				if (c == '"') {
					tokens.add(new Token("\"", unescape(source.substring(at + 1, end))));
				}
				at = end + 1;
			}
			else if (Character.isWhitespace(c)) {
				at++;
			}
			else if (Character.isJavaIdentifierPart(c)) {
				int end = at;
				while (end < length && Character.isJavaIdentifierPart(source.charAt(end))) {
					end++;
				}
				tokens.add(new Token(source.substring(at, end), null));
				at = end;
			}
			else if (c == '+' && at + 1 < length && (source.charAt(at + 1) == '+' || source.charAt(at + 1) == '=')) {
				tokens.add(new Token(source.substring(at, at + 2), null));
				at += 2;
			}
			else {
				tokens.add(new Token(String.valueOf(c), null));
				at++;
			}
		}
		return tokens;
	}

	private static int endOf(String source, String end, int from) {
		int at = source.indexOf(end, from);
		return (at < 0) ? source.length() : at + end.length();
	}

	private static int closing(String source, char quote, int from) {
		int at = from;
		while (at < source.length() && source.charAt(at) != quote) {
			at += (source.charAt(at) == '\\') ? 2 : 1;
		}
		return Math.min(at, source.length());
	}

	private static String unescape(String text) {
		StringBuilder out = new StringBuilder(text.length());
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '\\' && i + 1 < text.length()) {
				char next = text.charAt(++i);
				out.append(switch (next) {
					case 'n', 't', 'r', 's' -> ' ';
					default -> next;
				});
			}
			else {
				out.append(c);
			}
		}
		return out.toString();
	}

	/**
	 * One token.
	 *
	 * @param text the token's text ({@code "} for a string literal)
	 * @param literal the value of a string literal or text block, else {@code null}
	 */
	record Token(String text, String literal) {

		boolean isPlus() {
			return this.literal == null && "+".equals(this.text);
		}

	}

}
