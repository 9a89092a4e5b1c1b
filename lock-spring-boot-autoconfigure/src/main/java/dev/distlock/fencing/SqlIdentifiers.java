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

package dev.distlock.fencing;

import java.util.regex.Pattern;

import dev.distlock.LogSafe;

/**
 * Checks the table and column names a guarded update writes into its SQL: plain
 * identifiers only (letters, digits and underscores, not starting with a digit, at most
 * 128 characters), a table optionally qualified by its schema, so that no name can carry
 * SQL of its own. Values are always bound as parameters.
 *
 * @author distlock
 */
final class SqlIdentifiers {

	private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

	private SqlIdentifiers() {
	}

	/**
	 * Return {@code name} if it is a plain column name.
	 * @param what what the name is, for the error
	 * @param name the name
	 * @return the name
	 * @throws IllegalArgumentException if it is not a plain identifier
	 */
	static String column(String what, String name) {
		if (name == null || !IDENTIFIER.matcher(name).matches()) {
			throw new IllegalArgumentException(what + " '" + LogSafe.escape(name) + "' is not a plain SQL identifier "
					+ "(letters, digits and underscores, not starting with a digit, at most 128 characters)");
		}
		return name;
	}

	/**
	 * Return {@code name} if it is a plain table name, optionally {@code schema.table}.
	 * @param name the name
	 * @return the name
	 * @throws IllegalArgumentException if it is not
	 */
	static String table(String name) {
		if (name == null) {
			throw new IllegalArgumentException("Table name must not be null");
		}
		int dot = name.indexOf('.');
		if (dot < 0 || name.indexOf('.', dot + 1) >= 0) {
			return column("Table name", name);
		}
		try {
			column("Schema", name.substring(0, dot));
			column("Table", name.substring(dot + 1));
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Table name '" + LogSafe.escape(name)
					+ "' is not a plain SQL identifier " + "or schema.table: " + ex.getMessage(), ex);
		}
		return name;
	}

}
