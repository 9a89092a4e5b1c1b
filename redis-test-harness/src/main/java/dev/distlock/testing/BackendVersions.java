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

package dev.distlock.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Records the version of each backend a test run used: Redis, PostgreSQL, MariaDB, H2,
 * ZooKeeper. Each version is printed once per JVM ({@code [distlock tests] backend
 * PostgreSQL 15.20}) and added to {@value #FILE} in the module's directory (the working
 * directory of its tests), one {@code <backend> <version>} line each, so that the
 * documentation check can compare them with docs/versions.md.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class BackendVersions {

	/**
	 * Where the versions are written, relative to the module's directory.
	 */
	public static final String FILE = "target/backend-versions.txt";

	private static final Pattern VERSION = Pattern.compile("\\d+\\.\\d+(?:\\.\\d+)?");

	private static final Set<String> recorded = ConcurrentHashMap.newKeySet();

	private BackendVersions() {
	}

	/**
	 * Record one backend's version.
	 * @param backend the backend ({@code Redis}, {@code PostgreSQL}, {@code MariaDB},
	 * {@code H2}, {@code ZooKeeper})
	 * @param reported the version text the backend reported, whose first
	 * {@code major.minor[.patch]} is kept ({@code 15.20 (Debian 15.20-0+deb12u1)} gives
	 * {@code 15.20})
	 */
	public static void record(String backend, @Nullable String reported) {
		String version = version(reported);
		if (version == null) {
			System.err.println("[distlock tests] backend " + backend + ": no version in '" + reported + "'");
			return;
		}
		String line = backend + " " + version;
		if (!recorded.add(line)) {
			return;
		}
		System.err.println("[distlock tests] backend " + line);
		append(Path.of(FILE), line);
	}

	/**
	 * Record the version of the database a connection is open to, as its JDBC driver
	 * reports it: PostgreSQL, MariaDB, MySQL or H2.
	 * @param connection an open connection
	 */
	public static void record(Connection connection) {
		try {
			DatabaseMetaData metadata = connection.getMetaData();
			String product = metadata.getDatabaseProductName();
			String version = metadata.getDatabaseProductVersion();
			boolean mariaDb = product.contains("MariaDB") || version.contains("MariaDB");
			record(mariaDb ? "MariaDB" : product, version);
		}
		catch (SQLException ex) {
			System.err.println("[distlock tests] could not read the database's version: " + ex);
		}
	}

	/**
	 * Return the first {@code major.minor[.patch]} of a reported version.
	 * @param reported the text a backend reported
	 * @return the version, or {@code null} when it has none
	 */
	public static @Nullable String version(@Nullable String reported) {
		if (reported == null) {
			return null;
		}
		Matcher version = VERSION.matcher(reported);
		return version.find() ? version.group() : null;
	}

	private static synchronized void append(Path file, String line) {
		try {
			Files.createDirectories(file.toAbsolutePath().getParent());
			List<String> lines = Files.exists(file) ? Files.readAllLines(file) : List.of();
			if (!lines.contains(line)) {
				Files.writeString(file, line + System.lineSeparator(), StandardCharsets.UTF_8,
						StandardOpenOption.CREATE, StandardOpenOption.APPEND);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
