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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The strings the main code can produce, read from the text of every {@code .java} file
 * under a {@code src/main/java} directory: each string literal, joined with the literals
 * it is concatenated to by {@code +}, becomes a template. The literal parts must appear
 * as written; every other operand of the concatenation, and every format specifier
 * ({@code %s}, {@code %d}) in a literal, is a variable part that matches any text. A
 * template with fewer than {@value #MIN_LITERAL} literal characters other than spaces is
 * left out, since it would match almost anything. Whitespace runs count as one space.
 *
 * @author distlock
 */
final class MessageTemplates {

	static final int MIN_LITERAL = 12;

	private static final Pattern FORMAT = Pattern.compile("%(?:\\d+\\$)?[-#+ 0,(]*\\d*(?:\\.\\d+)?[sdfxXbc]");

	private static final String VARIABLE = null;

	private final List<List<String>> templates = new ArrayList<>();

	/**
	 * Read the templates of every main source file of the repository's modules.
	 * @param root the repository root
	 * @return the templates
	 */
	static MessageTemplates of(Path root) {
		MessageTemplates templates = new MessageTemplates();
		try (Stream<Path> files = Files.walk(root)) {
			files.filter((file) -> file.toString().endsWith(".java")).filter((file) -> {
				String path = root.relativize(file).toString().replace('\\', '/');
				return path.contains("/src/main/java/") && !path.contains("/target/");
			}).sorted().forEach((file) -> templates.add(read(file)));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return templates;
	}

	/**
	 * Add the templates of one source file.
	 * @param source the file's text
	 */
	void add(String source) {
		List<JavaTokens.Token> tokens = JavaTokens.of(source);
		Set<Integer> used = new HashSet<>();
		for (int i = 0; i < tokens.size(); i++) {
			if (tokens.get(i).literal() == null || used.contains(i)) {
				continue;
			}
			List<String> parts = new ArrayList<>();
			if (i > 0 && tokens.get(i - 1).isPlus()) {
				parts.add(VARIABLE);
			}
			int at = i;
			addLiteral(parts, tokens.get(at).literal());
			used.add(at);
			at++;
			while (at < tokens.size() && tokens.get(at).isPlus()) {
				at++;
				if (at < tokens.size() && tokens.get(at).literal() != null) {
					addLiteral(parts, tokens.get(at).literal());
					used.add(at);
					at++;
				}
				else {
					at = skipOperand(tokens, at);
					addVariable(parts);
				}
			}
			if (literalLength(parts) >= MIN_LITERAL) {
				this.templates.add(parts);
			}
		}
	}

	private static int skipOperand(List<JavaTokens.Token> tokens, int from) {
		int depth = 0;
		int at = from;
		while (at < tokens.size()) {
			String text = tokens.get(at).text();
			if (depth == 0 && (tokens.get(at).isPlus() || ",;?:".contains(text) && text.length() == 1)) {
				return at;
			}
			if ("([{".contains(text) && text.length() == 1) {
				depth++;
			}
			else if (")]}".contains(text) && text.length() == 1) {
				if (depth == 0) {
					return at;
				}
				depth--;
			}
			at++;
		}
		return at;
	}

	private static void addLiteral(List<String> parts, String literal) {
		Matcher format = FORMAT.matcher(literal);
		int from = 0;
		while (format.find()) {
			addText(parts, literal.substring(from, format.start()));
			addVariable(parts);
			from = format.end();
		}
		addText(parts, literal.substring(from).replace("%%", "%"));
	}

	private static void addText(List<String> parts, String text) {
		if (text.isEmpty()) {
			return;
		}
		String spaced = text.replaceAll("\\s+", " ");
		int last = parts.size() - 1;
		if (last >= 0 && parts.get(last) != VARIABLE) {
			parts.set(last, (parts.get(last) + spaced).replaceAll("\\s+", " "));
		}
		else {
			parts.add(spaced);
		}
	}

	private static void addVariable(List<String> parts) {
		if (parts.isEmpty() || parts.get(parts.size() - 1) != VARIABLE) {
			parts.add(VARIABLE);
		}
	}

	private static int literalLength(List<String> parts) {
		return parts.stream()
			.filter((part) -> part != VARIABLE)
			.mapToInt((part) -> part.replace(" ", "").length())
			.sum();
	}

	/**
	 * Return whether some template produces the text, or, when {@code truncated}, a text
	 * that starts with it.
	 * @param text the quoted text, whitespace runs as one space
	 * @param truncated whether the quote ends with an ellipsis and stands for the start
	 * of a longer text
	 * @return whether the code can produce it
	 */
	boolean produces(String text, boolean truncated) {
		for (List<String> template : this.templates) {
			if (new TemplateMatch(template, text, truncated).matches()) {
				return true;
			}
		}
		return false;
	}

	private static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * One template matched against one text: literal parts character by character,
	 * variable parts by trying every length. Failed (part, position) pairs are
	 * remembered, so a template with several variable parts is matched in polynomial
	 * time.
	 */
	private static final class TemplateMatch {

		private final List<String> parts;

		private final String text;

		private final boolean truncated;

		private final Set<Long> failed = new HashSet<>();

		TemplateMatch(List<String> parts, String text, boolean truncated) {
			this.parts = parts;
			this.text = text;
			this.truncated = truncated;
		}

		boolean matches() {
			return matchFrom(0, 0);
		}

		private boolean matchFrom(int part, int at) {
			if (at == this.text.length()) {
				return this.truncated
						|| this.parts.subList(part, this.parts.size()).stream().allMatch((p) -> p == VARIABLE);
			}
			if (part == this.parts.size()) {
				return false;
			}
			long key = ((long) part << 32) | at;
			if (this.failed.contains(key)) {
				return false;
			}
			boolean matched = (this.parts.get(part) != VARIABLE) ? matchLiteral(part, at) : matchVariable(part, at);
			if (!matched) {
				this.failed.add(key);
			}
			return matched;
		}

		private boolean matchLiteral(int part, int at) {
			String literal = this.parts.get(part);
			int rest = this.text.length() - at;
			if (rest < literal.length()) {
				return this.truncated && literal.startsWith(this.text.substring(at));
			}
			return this.text.startsWith(literal, at) && matchFrom(part + 1, at + literal.length());
		}

		private boolean matchVariable(int part, int at) {
			for (int end = at; end <= this.text.length(); end++) {
				if (matchFrom(part + 1, end)) {
					return true;
				}
			}
			return false;
		}

	}

}
