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
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds relative links in Markdown files that point to a file or an anchor that does not
 * exist. Anchors are computed from headings the way GitHub renders them, plus explicit
 * {@code <a id="...">} anchors.
 *
 * @author distlock
 */
final class MarkdownLinks {

	private static final Pattern INLINE_LINK = Pattern
		.compile("!?\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");

	private static final Pattern REFERENCE_DEFINITION = Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*<?([^\\s>]+)>?");

	private static final Pattern HEADING = Pattern.compile("^\\s{0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");

	private static final Pattern EXPLICIT_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");

	private static final Pattern INLINE_CODE = Pattern.compile("`[^`]*`");

	private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

	private final Map<Path, Set<String>> anchors = new HashMap<>();

	/**
	 * Return the broken relative links of the given Markdown files.
	 * @param root the directory the files' names in the problems are relative to
	 * @param files the Markdown files to check
	 * @return one line per broken link ({@code file:line: target: reason}), empty when
	 * every link resolves
	 */
	List<String> brokenLinks(Path root, List<Path> files) {
		List<String> problems = new ArrayList<>();
		for (Path file : files) {
			List<String> lines = outsideCode(read(file));
			for (int i = 0; i < lines.size(); i++) {
				for (String target : targets(lines.get(i))) {
					String problem = check(file, target);
					if (problem != null) {
						problems.add(root.relativize(file) + ":" + (i + 1) + ": " + target + ": " + problem);
					}
				}
			}
		}
		return problems;
	}

	private String check(Path file, String target) {
		if (SCHEME.matcher(target).find() || target.startsWith("//")) {
			return null;
		}
		int hash = target.indexOf('#');
		String path = (hash >= 0) ? target.substring(0, hash) : target;
		String anchor = (hash >= 0) ? target.substring(hash + 1) : null;
		Path resolved = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
		if (!Files.exists(resolved)) {
			return "no such file";
		}
		if (anchor == null || anchor.isEmpty()) {
			return null;
		}
		if (!resolved.getFileName().toString().endsWith(".md")) {
			return "anchor on a file that is not Markdown";
		}
		return anchorsOf(resolved).contains(anchor) ? null : "no such anchor";
	}

	/**
	 * Return the anchors a Markdown file defines.
	 * @param file the file
	 * @return its anchors
	 */
	Set<String> anchorsOf(Path file) {
		return this.anchors.computeIfAbsent(file.toAbsolutePath().normalize(), (key) -> anchors(read(key)));
	}

	static Set<String> anchors(List<String> fileLines) {
		Set<String> result = new LinkedHashSet<>();
		Map<String, Integer> seen = new HashMap<>();
		for (String line : outsideCode(fileLines)) {
			Matcher heading = HEADING.matcher(line);
			if (heading.matches()) {
				String slug = slug(heading.group(2));
				int count = seen.merge(slug, 1, Integer::sum);
				result.add((count == 1) ? slug : slug + "-" + (count - 1));
			}
			Matcher explicit = EXPLICIT_ANCHOR.matcher(line);
			while (explicit.find()) {
				result.add(explicit.group(1));
			}
		}
		return result;
	}

	/**
	 * Return the anchor GitHub gives a heading: the text in lower case, without Markdown
	 * link targets and without punctuation other than {@code -} and {@code _}, spaces
	 * replaced by {@code -}.
	 * @param heading the heading's text
	 * @return the anchor
	 */
	static String slug(String heading) {
		String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replaceAll("<[^>]+>", "");
		StringBuilder slug = new StringBuilder();
		text.toLowerCase(Locale.ROOT).codePoints().forEach((c) -> {
			if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
				slug.appendCodePoint(c);
			}
			else if (c == ' ') {
				slug.append('-');
			}
		});
		return slug.toString();
	}

	private static List<String> targets(String line) {
		List<String> targets = new ArrayList<>();
		String text = INLINE_CODE.matcher(line).replaceAll("");
		Matcher inline = INLINE_LINK.matcher(text);
		while (inline.find()) {
			targets.add(inline.group(1));
		}
		Matcher definition = REFERENCE_DEFINITION.matcher(text);
		if (definition.find()) {
			targets.add(definition.group(1));
		}
		return targets;
	}

	/**
	 * Return the lines with those of fenced code blocks blanked, so that line numbers are
	 * kept.
	 */
	private static List<String> outsideCode(List<String> lines) {
		List<String> result = new ArrayList<>(lines.size());
		String fence = null;
		for (String line : lines) {
			String stripped = line.strip();
			if (fence == null && (stripped.startsWith("```") || stripped.startsWith("~~~"))) {
				fence = stripped.substring(0, 3);
				result.add("");
			}
			else if (fence != null) {
				if (stripped.startsWith(fence)) {
					fence = null;
				}
				result.add("");
			}
			else {
				result.add(line);
			}
		}
		return result;
	}

	private static List<String> read(Path file) {
		try {
			return Files.readAllLines(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
