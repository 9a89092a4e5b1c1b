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
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Splits a Markdown page into the blocks the documentation checks read: paragraphs, list
 * items (a bullet with its continuation lines) and table cells, each with the line it
 * starts on. Fenced code blocks, headings and the separator rows of tables are left out.
 *
 * @author distlock
 */
final class MarkdownBlocks {

	private static final Pattern LIST_ITEM = Pattern.compile("^\\s*(?:[-*+]|\\d+\\.)\\s+(.*)$");

	private static final Pattern SEPARATOR_CELL = Pattern.compile(":?-+:?");

	private MarkdownBlocks() {
	}

	/**
	 * Return the blocks of a page.
	 * @param lines the page's lines
	 * @return its blocks, in order
	 */
	static List<Block> of(List<String> lines) {
		List<Block> blocks = new ArrayList<>();
		Kind kind = null;
		int start = 0;
		StringBuilder text = new StringBuilder();
		String fence = null;
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i);
			String stripped = line.strip();
			int number = i + 1;
			if (fence != null) {
				if (stripped.startsWith(fence)) {
					fence = null;
				}
				continue;
			}
			boolean opensFence = stripped.startsWith("```") || stripped.startsWith("~~~");
			Matcher item = LIST_ITEM.matcher(line);
			boolean ends = opensFence || stripped.isEmpty() || stripped.startsWith("#") || stripped.startsWith("|")
					|| item.matches();
			if (ends && kind != null) {
				blocks.add(new Block(kind, start, text.toString().strip()));
				kind = null;
				text.setLength(0);
			}
			if (opensFence) {
				fence = stripped.substring(0, 3);
			}
			else if (stripped.startsWith("|")) {
				addCells(blocks, number, stripped);
			}
			else if (item.matches()) {
				kind = Kind.ITEM;
				start = number;
				text.append(item.group(1));
			}
			else if (!stripped.isEmpty() && !stripped.startsWith("#")) {
				if (kind == null) {
					kind = Kind.PARAGRAPH;
					start = number;
				}
				text.append(' ').append(stripped.startsWith(">") ? stripped.substring(1).strip() : stripped);
			}
		}
		if (kind != null) {
			blocks.add(new Block(kind, start, text.toString().strip()));
		}
		return blocks;
	}

	private static void addCells(List<Block> blocks, int line, String row) {
		String inner = row.substring(1, row.endsWith("|") && row.length() > 1 ? row.length() - 1 : row.length());
		List<String> cells = Arrays.stream(inner.split("(?<!\\\\)\\|", -1)).map(String::strip).toList();
		if (cells.stream().allMatch((cell) -> cell.isEmpty() || SEPARATOR_CELL.matcher(cell).matches())) {
			return;
		}
		for (String cell : cells) {
			if (!cell.isEmpty()) {
				blocks.add(new Block(Kind.CELL, line, cell));
			}
		}
	}

	/**
	 * Return the lines of a file.
	 * @param file the file
	 * @return its lines
	 */
	static List<String> read(Path file) {
		try {
			return Files.readAllLines(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Return the README and every page of {@code docs/}.
	 * @param root the repository root
	 * @return the pages
	 */
	static List<Path> pages(Path root) {
		List<Path> pages = new ArrayList<>();
		pages.add(root.resolve("README.md"));
		try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return pages;
	}

	/**
	 * What a block is.
	 */
	enum Kind {

		/**
		 * Lines of text up to a blank line, heading, list item, table or code block.
		 */
		PARAGRAPH,

		/**
		 * A list item with its continuation lines.
		 */
		ITEM,

		/**
		 * One cell of a table row (not the header's separator row).
		 */
		CELL

	}

	/**
	 * One block of a page.
	 *
	 * @param kind what it is
	 * @param line the line it starts on (1-based)
	 * @param text its text, lines joined by a space
	 */
	record Block(Kind kind, int line, String text) {

	}

}
