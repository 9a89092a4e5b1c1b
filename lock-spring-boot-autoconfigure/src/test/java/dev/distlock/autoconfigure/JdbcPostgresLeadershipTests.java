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

package dev.distlock.autoconfigure;

import java.time.Duration;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@link LeadershipScenarios Leadership} on the JDBC store, on the PostgreSQL that
 * answers on 127.0.0.1 (skipped, saying so, when none does): both instances lock in one
 * table of a schema of their own.
 *
 * @author distlock
 */
class JdbcPostgresLeadershipTests extends LeadershipScenarios {

	private @Nullable JdbcTestDatabase database;

	@BeforeEach
	void createSchema() {
		this.database = JdbcTestDatabase.postgres();
		Assumptions.assumeTrue(this.database != null, "PostgreSQL does not answer on 127.0.0.1:5432");
	}

	@AfterEach
	void dropSchema() throws Exception {
		if (this.database != null) {
			this.database.close();
		}
	}

	/**
	 * Longer than on the other stores: the shared PostgreSQL of a loaded build machine
	 * has been seen to answer a renewal in more than a third of a second.
	 */
	@Override
	Duration lease() {
		return Duration.ofSeconds(3);
	}

	@Override
	ApplicationContextRunner onStore(ApplicationContextRunner runner) {
		JdbcTestDatabase database = this.database;
		Assumptions.assumeTrue(database != null, "PostgreSQL does not answer on 127.0.0.1:5432");
		return runner.withBean(DataSource.class, database::dataSource)
			.withPropertyValues("distlock.store=jdbc", "distlock.jdbc.initialize-schema=always");
	}

}
