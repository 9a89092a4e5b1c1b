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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reports where the JDBC store's lock-table scripts and their copies disagree. The
 * scripts {@code lock-jdbc/src/main/resources/dev/distlock/jdbc/schema-<database>.sql}
 * each start with {@code -- distlock schema version <n>}, the same {@code n} in all;
 * every version above 1 has {@code migration/<n>/migration-<database>.sql} for each
 * database. The sample's Flyway copies,
 * {@code sample-app/src/main/resources/db/migration/<database>/V4__distlock_lock.sql},
 * are the scripts' statements without {@code IF NOT EXISTS} (Flyway runs a migration
 * once): comments and whitespace aside, they must be equal.
 *
 * @author distlock
 */
final class SchemaScripts {

	static final List<String> DATABASES = List.of("postgresql", "mysql", "h2");

	static final String SCRIPTS = "lock-jdbc/src/main/resources/dev/distlock/jdbc";

	static final String SAMPLE_COPIES = "sample-app/src/main/resources/db/migration";

	private static final Pattern VERSION = Pattern.compile("\\A-- distlock schema version (\\d+)\\.");

	private SchemaScripts() {
	}

	/**
	 * Return the problems of the scripts and copies under a root.
	 * @param root the repository root
	 * @return one line per problem, empty when none
	 */
	static List<String> problems(Path root) {
		List<String> problems = new ArrayList<>();
		List<Integer> versions = new ArrayList<>();
		for (String database : DATABASES) {
			Path script = root.resolve(SCRIPTS).resolve("schema-" + database + ".sql");
			String text = String.join("\n", MarkdownBlocks.read(script));
			Matcher version = VERSION.matcher(text);
			if (!version.find()) {
				problems.add(root.relativize(script) + ": no first line '-- distlock schema version <n>.'");
				continue;
			}
			versions.add(Integer.parseInt(version.group(1)));
			Path copy = root.resolve(SAMPLE_COPIES).resolve(database).resolve("V4__distlock_lock.sql");
			if (!statements(text).equals(statements(String.join("\n", MarkdownBlocks.read(copy))))) {
				problems.add(root.relativize(copy) + ": its statements differ from " + root.relativize(script));
			}
		}
		if (versions.stream().distinct().count() > 1) {
			problems.add("the scripts name different schema versions: " + versions);
		}
		int latest = versions.stream().mapToInt(Integer::intValue).max().orElse(1);
		for (int version = 2; version <= latest; version++) {
			for (String database : DATABASES) {
				Path migration = root.resolve(SCRIPTS)
					.resolve("migration/" + version + "/migration-" + database + ".sql");
				if (!Files.isRegularFile(migration)) {
					problems.add("schema version " + version + " has no " + root.relativize(migration));
				}
			}
		}
		return problems;
	}

	/**
	 * Return a script's statements: comments left out, {@code IF NOT EXISTS} too,
	 * whitespace runs as one space and none inside parentheses.
	 * @param script the script's text
	 * @return its statements, in order
	 */
	static List<String> statements(String script) {
		String code = script.lines()
			.filter((line) -> !line.strip().startsWith("--"))
			.collect(Collectors.joining("\n"))
			.replace("IF NOT EXISTS ", "")
			.replaceAll("\\s+", " ")
			.replaceAll("\\( ", "(")
			.replaceAll(" \\)", ")");
		return Pattern.compile(";").splitAsStream(code).map(String::strip).filter((s) -> !s.isEmpty()).toList();
	}

}
