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
 * Tests that docs/versions.md lists the {@code major.minor} of every backend version the
 * test runs recorded (see CONTRIBUTING.md, "Documentation checks").
 *
 * @author distlock
 */
class TestedVersionsTests {

	@Test
	void versionsPageListsEveryBackendVersionTheTestsRanOn() {
		Path root = RepositoryRoot.find();
		assertThat(TestedVersions.problems(root.resolve("docs/versions.md"), TestedVersions.recorded(root))).isEmpty();
	}

	@Test
	void reportsARecordedVersionThePageDoesNotList(@TempDir Path root) throws IOException {
		Files.createDirectories(root.resolve("lock-jdbc/target"));
		Files.createDirectories(root.resolve("lock-redis/target"));
		Files.writeString(root.resolve("lock-jdbc/target/backend-versions.txt"),
				"PostgreSQL 16.4\nMariaDB 10.11.19\nH2 2.3.232\n");
		Files.writeString(root.resolve("lock-redis/target/backend-versions.txt"), "Redis 7.2.4\nRedis 7.0.15\n");
		Path page = Files.writeString(root.resolve("versions.md"), """
				| Component | Tested on |
				|---|---|
				| Redis server | 7.0.15 |
				| PostgreSQL | 15.20 |
				| MariaDB | 10.11 |
				| H2 | 2.30 |
				""");
		assertThat(TestedVersions.recorded(root)).containsExactly("H2 2.3.232", "MariaDB 10.11.19", "PostgreSQL 16.4",
				"Redis 7.0.15", "Redis 7.2.4");
		assertThat(TestedVersions.problems(page, TestedVersions.recorded(root))).containsExactly(
				"versions.md: the tests ran on H2 2.3.232, but no row of H2 lists 2.3",
				"versions.md: the tests ran on PostgreSQL 16.4, but no row of PostgreSQL lists 16.4",
				"versions.md: the tests ran on Redis 7.2.4, but no row of Redis lists 7.2");
	}

}
