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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reports the quoted log lines and exception messages of the documentation that no string
 * of the main code produces. A quote is a paragraph of a fenced code block without a
 * language (a fence of three backticks alone on its line): lines separated by a blank
 * line are separate quotes, and the lines of one quote are joined by one space (a long
 * message is wrapped at a space). A quote may start with the qualified name of the
 * exception ({@code dev.distlock.LockAcquisitionException: }), which must be a type of
 * the source tree or the class path, and may end with {@code ...} to stand for the start
 * of a longer message. The rest must be produced by one of the {@link MessageTemplates}.
 * Commands, configuration and code carry a language ({@code bash}, {@code yaml},
 * {@code java}, {@code sql}, {@code text}) and are not read.
 *
 * @author distlock
 */
final class QuotedMessages {

	private static final Pattern EXCEPTION = Pattern.compile("^((?:[a-z]\\w*\\.)+)([A-Z]\\w*): ");

	private static final String ELLIPSIS = "...";

	private final MessageTemplates templates;

	private final SourceIndex index;

	QuotedMessages(MessageTemplates templates, SourceIndex index) {
		this.templates = templates;
		this.index = index;
	}

	/**
	 * Return the quotes no string of the code produces.
	 * @param root the directory the files' names in the problems are relative to
	 * @param pages the pages
	 * @return one line per problem ({@code file:line: quote: reason}), empty when none
	 */
	List<String> problems(Path root, List<Path> pages) {
		List<String> problems = new ArrayList<>();
		for (Path page : pages) {
			String name = root.relativize(page).toString();
			for (Quote quote : quotes(MarkdownBlocks.read(page))) {
				String problem = check(quote.text());
				if (problem != null) {
					problems.add(name + ":" + quote.line() + ": " + quote.text() + ": " + problem);
				}
			}
		}
		return problems;
	}

	/**
	 * Return the quotes of a page.
	 * @param lines the page's lines
	 * @return its quotes, in order
	 */
	static List<Quote> quotes(List<String> lines) {
		List<Quote> quotes = new ArrayList<>();
		boolean inQuote = false;
		String fence = null;
		int start = 0;
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < lines.size(); i++) {
			String stripped = lines.get(i).strip();
			if (fence == null) {
				if (stripped.startsWith("```") || stripped.startsWith("~~~")) {
					fence = stripped.substring(0, 3);
					inQuote = stripped.substring(3).isBlank();
				}
				continue;
			}
			boolean closes = stripped.startsWith(fence);
			if (inQuote && (closes || stripped.isEmpty()) && !text.isEmpty()) {
				quotes.add(new Quote(start, text.toString().strip()));
				text.setLength(0);
			}
			if (closes) {
				fence = null;
			}
			else if (inQuote && !stripped.isEmpty()) {
				if (text.isEmpty()) {
					start = i + 1;
				}
				text.append(' ').append(stripped);
			}
		}
		return quotes;
	}

	private String check(String quote) {
		String message = quote.replaceAll("\\s+", " ");
		Matcher exception = EXCEPTION.matcher(quote);
		if (exception.find()) {
			String qualifier = exception.group(1).substring(0, exception.group(1).length() - 1);
			if (!this.index.hasType(qualifier, exception.group(2)) && !loads(qualifier + "." + exception.group(2))) {
				return "no type " + qualifier + "." + exception.group(2);
			}
			message = quote.substring(exception.end());
		}
		boolean truncated = message.endsWith(ELLIPSIS);
		if (truncated) {
			message = message.substring(0, message.length() - ELLIPSIS.length());
		}
		return this.templates.produces(message, truncated) ? null : "no string of the code produces it";
	}

	private static boolean loads(String className) {
		try {
			Class.forName(className, false, QuotedMessages.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

	/**
	 * One quote of a page.
	 *
	 * @param line the line it starts on (1-based)
	 * @param text its lines joined by one space
	 */
	record Quote(int line, String text) {

	}

}
