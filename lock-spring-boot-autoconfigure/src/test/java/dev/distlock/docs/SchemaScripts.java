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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reports where the JDBC store's lock-table scripts and their copies disagree. The
 * scripts {@code lock-jdbc/src/main/resources/dev/distlock/jdbc/schema-<database>.sql}
 * each start with {@code -- distlock schema version <n>}, the same {@code n} in all;
 * every version above 1 has {@code migration/<n>/migration-<database>.sql} for each
 * database. The sample's Flyway copies,
 * {@code sample-app/src/main/resources/db/migration/<database>/V4__distlock_lock.sql}
 * and, for each later version, a migration {@code V<m>__distlock_lock_version_<n>.sql}
 * (an applied Flyway migration never changes), applied in order, are the scripts'
 * statements without {@code IF NOT EXISTS}: comments and whitespace aside, a column a
 * later copy adds with {@code ALTER TABLE ... ADD COLUMN} counting as one of its table's,
 * an index a later copy drops ({@code DROP INDEX i}, or {@code ALTER TABLE ... DROP INDEX
 * i} of an index declared in the table) counting as never created, and a table's columns
 * and constraints in any order, they must be equal.
 *
 * @author distlock
 */
final class SchemaScripts {

	static final List<String> DATABASES = List.of("postgresql", "mysql", "h2");

	static final String SCRIPTS = "lock-jdbc/src/main/resources/dev/distlock/jdbc";

	static final String SAMPLE_COPIES = "sample-app/src/main/resources/db/migration";

	private static final Pattern MIGRATION_COPY = Pattern.compile("V(\\d+)__distlock_lock_version_\\d+\\.sql");

	private static final Pattern CREATE_TABLE = Pattern.compile("CREATE TABLE (\\S+) ?\\((.*)\\)(.*)", Pattern.DOTALL);

	private static final Pattern ADD_COLUMN = Pattern.compile("ALTER TABLE (\\S+) ADD COLUMN (.*)", Pattern.DOTALL);

	private static final Pattern DROP_INDEX = Pattern.compile("(?:ALTER TABLE \\S+ )?DROP INDEX (\\S+)");

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
			List<Path> copies = copies(root.resolve(SAMPLE_COPIES).resolve(database));
			String copied = copies.stream()
				.map((copy) -> String.join("\n", MarkdownBlocks.read(copy)))
				.collect(Collectors.joining(";\n"));
			if (!tables(statements(text)).equals(tables(statements(copied)))) {
				problems.add(copies.stream()
					.map((copy) -> root.relativize(copy).toString())
					.collect(Collectors.joining(" + ")) + ": its statements differ from " + root.relativize(script));
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
	 * Return the sample's copies for one database: {@code V4__distlock_lock.sql}, then
	 * the later versions' migrations, in Flyway's order.
	 */
	private static List<Path> copies(Path directory) {
		List<Path> copies = new ArrayList<>(List.of(directory.resolve("V4__distlock_lock.sql")));
		try (Stream<Path> files = Files.list(directory)) {
			files.filter((file) -> MIGRATION_COPY.matcher(file.getFileName().toString()).matches())
				.sorted(Comparator.comparingInt(SchemaScripts::flywayVersion))
				.forEach(copies::add);
		}
		catch (IOException ex) {
			// No directory: the V4 copy alone, reported as missing when read
		}
		return copies;
	}

	private static int flywayVersion(Path copy) {
		Matcher matcher = MIGRATION_COPY.matcher(copy.getFileName().toString());
		return matcher.matches() ? Integer.parseInt(matcher.group(1)) : 0;
	}

	/**
	 * Fold each {@code ALTER TABLE t ADD COLUMN c} into the {@code CREATE TABLE t} before
	 * it, take each index a {@code DROP INDEX} drops out of the statements before it, and
	 * give every {@code CREATE TABLE} its columns and constraints sorted: what the
	 * statements build, not the order they name it in.
	 */
	static List<String> tables(List<String> statements) {
		List<String> folded = new ArrayList<>();
		Map<String, Integer> createdAt = new HashMap<>();
		Map<Integer, List<String>> elements = new HashMap<>();
		Map<Integer, String> suffixes = new HashMap<>();
		for (String statement : statements) {
			Matcher create = CREATE_TABLE.matcher(statement);
			Matcher alter = ADD_COLUMN.matcher(statement);
			Matcher drop = DROP_INDEX.matcher(statement);
			if (create.matches()) {
				createdAt.put(create.group(1), folded.size());
				elements.put(folded.size(), new ArrayList<>(topLevelElements(create.group(2))));
				suffixes.put(folded.size(), create.group(3));
				folded.add("CREATE TABLE " + create.group(1));
			}
			else if (alter.matches() && createdAt.containsKey(alter.group(1))) {
				elements.get(createdAt.get(alter.group(1))).add(alter.group(2).strip());
			}
			else if (!drop.matches() || !dropped(drop.group(1), folded, elements)) {
				folded.add(statement);
			}
		}
		elements.forEach((at, columns) -> folded.set(at, folded.get(at) + " ("
				+ columns.stream().sorted().collect(Collectors.joining(", ")) + ")" + suffixes.get(at)));
		folded.removeIf(String::isEmpty);
		return folded;
	}

	/**
	 * Take the index {@code name} out of the statements folded so far, a
	 * {@code CREATE INDEX} or an index element of a {@code CREATE TABLE}, and return
	 * whether it was there. A {@code CREATE INDEX} taken out leaves an empty statement in
	 * its place, so that the positions of the tables stay.
	 */
	private static boolean dropped(String name, List<String> folded, Map<Integer, List<String>> elements) {
		for (int at = 0; at < folded.size(); at++) {
			if (folded.get(at).startsWith("CREATE INDEX " + name + " ")) {
				folded.set(at, "");
				return true;
			}
		}
		for (List<String> columns : elements.values()) {
			if (columns.removeIf((element) -> element.startsWith("INDEX " + name + " "))) {
				return true;
			}
		}
		return false;
	}

	private static List<String> topLevelElements(String body) {
		List<String> elements = new ArrayList<>();
		int depth = 0;
		int start = 0;
		for (int i = 0; i < body.length(); i++) {
			char c = body.charAt(i);
			depth += (c == '(') ? 1 : (c == ')') ? -1 : 0;
			if (c == ',' && depth == 0) {
				elements.add(body.substring(start, i).strip());
				start = i + 1;
			}
		}
		elements.add(body.substring(start).strip());
		return elements;
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
