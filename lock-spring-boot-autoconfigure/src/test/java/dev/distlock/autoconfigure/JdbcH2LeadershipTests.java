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

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@link LeadershipScenarios Leadership} on the JDBC store, on H2 in memory: both
 * instances lock in one table of one database.
 *
 * @author distlock
 */
class JdbcH2LeadershipTests extends LeadershipScenarios {

	private final JdbcTestDatabase database = JdbcTestDatabase.h2();

	@AfterEach
	void dropDatabase() throws Exception {
		this.database.close();
	}

	@Override
	ApplicationContextRunner onStore(ApplicationContextRunner runner) {
		return runner.withBean(DataSource.class, this.database::dataSource)
			.withPropertyValues("distlock.store=jdbc", "distlock.jdbc.initialize-schema=always");
	}

}
