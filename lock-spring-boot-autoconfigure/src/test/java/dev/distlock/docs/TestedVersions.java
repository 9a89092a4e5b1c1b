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
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reports the backend versions test runs recorded that docs/versions.md does not list.
 * Each module's tests record the backends they used in
 * {@code <module>/target/backend-versions.txt}, one {@code <backend> <version>} line each
 * ({@code dev.distlock.testing.BackendVersions}). For each, the page must have a table
 * row whose first cell names the backend and whose text holds its {@code major.minor}
 * ({@code 7.0} for Redis 7.0.15, {@code 15.20} for PostgreSQL 15.20).
 *
 * @author distlock
 */
final class TestedVersions {

	static final String RECORD = "target/backend-versions.txt";

	private TestedVersions() {
	}

	/**
	 * Return the recorded versions of every module of the repository.
	 * @param root the repository root
	 * @return the {@code <backend> <version>} lines, sorted, without repeats
	 */
	static List<String> recorded(Path root) {
		TreeSet<String> lines = new TreeSet<>();
		try (Stream<Path> modules = Files.list(root)) {
			modules.map((module) -> module.resolve(RECORD)).filter(Files::isRegularFile).forEach((file) -> {
				MarkdownBlocks.read(file)
					.stream()
					.map(String::strip)
					.filter((line) -> !line.isEmpty())
					.forEach(lines::add);
			});
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return List.copyOf(lines);
	}

	/**
	 * Return the recorded versions the page does not list.
	 * @param page docs/versions.md
	 * @param recorded the recorded {@code <backend> <version>} lines
	 * @return one line per problem, empty when none
	 */
	static List<String> problems(Path page, List<String> recorded) {
		List<String> rows = MarkdownBlocks.read(page)
			.stream()
			.map(String::strip)
			.filter((line) -> line.startsWith("|"))
			.toList();
		List<String> problems = new ArrayList<>();
		for (String line : recorded) {
			int space = line.lastIndexOf(' ');
			String backend = line.substring(0, space);
			String[] parts = line.substring(space + 1).split("\\.");
			String majorMinor = parts[0] + "." + ((parts.length > 1) ? parts[1] : "0");
			Pattern version = Pattern.compile("(?<![\\d.])" + Pattern.quote(majorMinor) + "(?!\\d)");
			boolean listed = rows.stream()
				.filter((row) -> firstCell(row).contains(backend))
				.anyMatch((row) -> version.matcher(row).find());
			if (!listed) {
				problems.add(page.getFileName() + ": the tests ran on " + line + ", but no row of " + backend
						+ " lists " + majorMinor);
			}
		}
		return problems;
	}

	private static String firstCell(String row) {
		int end = row.indexOf('|', 1);
		return (end < 0) ? row : row.substring(1, end);
	}

}
