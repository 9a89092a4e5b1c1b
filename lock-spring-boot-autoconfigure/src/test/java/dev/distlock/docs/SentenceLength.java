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

import dev.distlock.docs.MarkdownBlocks.Block;
import dev.distlock.docs.MarkdownBlocks.Kind;

/**
 * Reports sentences longer than {@value #MAX_SENTENCE_WORDS} words and list items or
 * table cells longer than {@value #MAX_BULLET_WORDS} words. Code blocks and headings are
 * not read; a code span counts as one word, a link as its text. A sentence ends at
 * {@code .}, {@code ?} or {@code !} followed by a space or the end of the block, except
 * after {@code e.g.}, {@code i.e.}, {@code etc.}, {@code vs.} and {@code cf.}. A word is
 * a run of characters between spaces that holds a letter or a digit.
 *
 * @author distlock
 */
final class SentenceLength {

	static final int MAX_SENTENCE_WORDS = 35;

	static final int MAX_BULLET_WORDS = 60;

	private static final Pattern CODE_SPAN = Pattern.compile("`[^`]*`");

	private static final Pattern LINK = Pattern.compile("!?\\[([^\\]]*)\\]\\([^)]*\\)");

	private static final Pattern TAG = Pattern.compile("<[^>]+>");

	private static final Pattern SENTENCE_END = Pattern.compile("[.?!](?=\\s|$)");

	private static final Pattern ABBREVIATION = Pattern.compile("\\b(?:e\\.g|i\\.e|etc|vs|cf)\\.$");

	private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]");

	private SentenceLength() {
	}

	/**
	 * Return the sentences and bullets over the limits in the given pages.
	 * @param root the directory the files' names in the problems are relative to
	 * @param pages the pages
	 * @return one line per problem ({@code file:line: what}), empty when none
	 */
	static List<String> problems(Path root, List<Path> pages) {
		List<String> problems = new ArrayList<>();
		for (Path page : pages) {
			String name = root.relativize(page).toString();
			for (Block block : MarkdownBlocks.of(MarkdownBlocks.read(page))) {
				problems.addAll(problems(name, block));
			}
		}
		return problems;
	}

	static List<String> problems(String page, Block block) {
		List<String> problems = new ArrayList<>();
		String text = plain(block.text());
		int words = words(text);
		if (block.kind() != Kind.PARAGRAPH && words > MAX_BULLET_WORDS) {
			problems.add(page + ":" + block.line() + ": " + block.kind().name().toLowerCase() + " of " + words
					+ " words (at most " + MAX_BULLET_WORDS + "): " + abbreviated(text));
		}
		for (String sentence : sentences(text)) {
			int count = words(sentence);
			if (count > MAX_SENTENCE_WORDS) {
				problems.add(page + ":" + block.line() + ": sentence of " + count + " words (at most "
						+ MAX_SENTENCE_WORDS + "): " + abbreviated(sentence));
			}
		}
		return problems;
	}

	static String plain(String markdown) {
		String text = CODE_SPAN.matcher(markdown).replaceAll("code");
		text = LINK.matcher(text).replaceAll("$1");
		text = TAG.matcher(text).replaceAll("");
		return text.replace("**", "").replace("[ ] ", "").strip();
	}

	static List<String> sentences(String text) {
		List<String> sentences = new ArrayList<>();
		int start = 0;
		Matcher end = SENTENCE_END.matcher(text);
		while (end.find()) {
			String sentence = text.substring(start, end.end());
			if (!ABBREVIATION.matcher(sentence).find()) {
				sentences.add(sentence.strip());
				start = end.end();
			}
		}
		if (!text.substring(start).isBlank()) {
			sentences.add(text.substring(start).strip());
		}
		return sentences;
	}

	static int words(String text) {
		int count = 0;
		for (String token : text.split("\\s+")) {
			if (WORD.matcher(token).find()) {
				count++;
			}
		}
		return count;
	}

	private static String abbreviated(String text) {
		return (text.length() <= 80) ? text : text.substring(0, 77) + "...";
	}

}
