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

/**
 * The root of the project's repository, found from the module a test runs in.
 *
 * @author distlock
 */
final class RepositoryRoot {

	private RepositoryRoot() {
	}

	/**
	 * Return the repository root: the nearest directory, from the working directory (the
	 * module's directory in a Maven build) upwards, that has both a {@code README.md} and
	 * a {@code docs} directory.
	 * @return the root
	 */
	static Path find() {
		Path dir = Path.of("").toAbsolutePath();
		while (dir != null) {
			if (Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("docs"))) {
				return dir;
			}
			dir = dir.getParent();
		}
		throw new IllegalStateException(
				"No repository root (README.md and docs/) above " + Path.of("").toAbsolutePath());
	}

}
