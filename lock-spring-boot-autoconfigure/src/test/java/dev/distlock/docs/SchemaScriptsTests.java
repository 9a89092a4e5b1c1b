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
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the lock-table scripts name one schema version, ship a migration per
 * database for every version after the first, and that the sample's Flyway copies have
 * the scripts' statements (see CONTRIBUTING.md, "Documentation checks").
 *
 * @author distlock
 */
class SchemaScriptsTests {

	@Test
	void scriptsShareOneVersionAndTheSamplesFlywayCopiesHaveTheirStatements() {
		assertThat(SchemaScripts.problems(RepositoryRoot.find())).isEmpty();
	}

	@Test
	void anIndexALaterCopyDropsCountsAsNeverCreated() {
		List<String> script = SchemaScripts.tables(SchemaScripts.statements("CREATE TABLE t (a INT, b INT);"));
		assertThat(SchemaScripts.tables(
				SchemaScripts.statements("CREATE TABLE t (a INT, INDEX t_idx (b));\nALTER TABLE t ADD COLUMN b INT;\n"
						+ "ALTER TABLE t DROP INDEX t_idx;")))
			.isEqualTo(script);
		assertThat(SchemaScripts.tables(SchemaScripts
			.statements("CREATE TABLE t (a INT, b INT);\nCREATE INDEX t_idx ON t (b);\nDROP INDEX t_idx;")))
			.isEqualTo(script);
		assertThat(SchemaScripts
			.tables(SchemaScripts.statements("CREATE TABLE t (a INT, b INT);\nCREATE INDEX t_idx ON t (b);")))
			.isNotEqualTo(script);
		assertThat(SchemaScripts.tables(SchemaScripts.statements("CREATE TABLE t (a INT, b INT);\nDROP INDEX u_idx;")))
			.isNotEqualTo(script);
	}

	@Test
	void reportsACopyThatDriftedAVersionWithoutMigrationsAndAScriptWithoutVersion(@TempDir Path root)
			throws IOException {
		Path scripts = Files.createDirectories(root.resolve(SchemaScripts.SCRIPTS));
		for (String database : SchemaScripts.DATABASES) {
			Path copies = Files.createDirectories(root.resolve(SchemaScripts.SAMPLE_COPIES).resolve(database));
			Files.writeString(scripts.resolve("schema-" + database + ".sql"), """
					-- distlock schema version 2. A comment.
					CREATE TABLE IF NOT EXISTS distlock_lock (lock_key VARCHAR(1024) NOT NULL PRIMARY KEY);
					CREATE SEQUENCE IF NOT EXISTS distlock_lock_fence_seq;
					""");
			Files.writeString(copies.resolve("V4__distlock_lock.sql"), """
					-- The sample's copy
					CREATE TABLE distlock_lock (
						lock_key VARCHAR(1024) NOT NULL PRIMARY KEY
					);
					CREATE SEQUENCE distlock_lock_fence_seq;
					""");
		}
		Files.createDirectories(scripts.resolve("migration/2"));
		Files.writeString(scripts.resolve("migration/2/migration-postgresql.sql"), "ALTER TABLE distlock_lock;\n");
		Files.writeString(scripts.resolve("migration/2/migration-mysql.sql"), "ALTER TABLE distlock_lock;\n");
		assertThat(SchemaScripts.problems(root))
			.containsExactly("schema version 2 has no " + SchemaScripts.SCRIPTS + "/migration/2/migration-h2.sql");
		Files.writeString(root.resolve(SchemaScripts.SAMPLE_COPIES).resolve("mysql/V4__distlock_lock.sql"),
				"CREATE TABLE distlock_lock (lock_key VARCHAR(255) NOT NULL PRIMARY KEY);\n");
		Files.writeString(scripts.resolve("schema-h2.sql"), "CREATE TABLE IF NOT EXISTS distlock_lock (x INT);\n");
		assertThat(SchemaScripts.problems(root)).containsExactly(
				SchemaScripts.SAMPLE_COPIES + "/mysql/V4__distlock_lock.sql: its statements differ from "
						+ SchemaScripts.SCRIPTS + "/schema-mysql.sql",
				SchemaScripts.SCRIPTS + "/schema-h2.sql: no first line '-- distlock schema version <n>.'",
				"schema version 2 has no " + SchemaScripts.SCRIPTS + "/migration/2/migration-h2.sql");
	}

}
