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

package dev.distlock.jdbc;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JDBC store's own failure messages reach logs as the cause of a
 * {@code LockBackendException}: a key in them is escaped, so that it cannot forge a log
 * line.
 *
 * @author distlock
 */
class LockStatementsMessagesTests {

	@Test
	void aVanishedRowNamesItsKeyEscaped() {
		String message = LockStatements.vanished("order:1\nWARN forged line", "taken").getMessage();
		assertThat(message).doesNotContain("\n").contains("order:1\\nWARN forged line").endsWith("while it was taken");
	}

}
