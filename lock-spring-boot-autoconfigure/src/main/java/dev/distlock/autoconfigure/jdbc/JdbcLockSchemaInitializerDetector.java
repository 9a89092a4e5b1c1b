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

package dev.distlock.autoconfigure.jdbc;

import java.util.Set;

import org.springframework.boot.sql.init.dependency.AbstractBeansOfTypeDatabaseInitializerDetector;
import org.springframework.boot.sql.init.dependency.DatabaseInitializerDetector;
import org.springframework.core.Ordered;

/**
 * The {@link DatabaseInitializerDetector} of the {@link JdbcLockSchemaInitializer}:
 * Spring Boot makes the beans that depend on database initialization (the lock store,
 * JPA's entity manager factory) wait for it. Ordered after the detectors of Flyway and
 * Liquibase, so that the lock table's script runs after their migrations (and finds the
 * table when a migration created it).
 *
 * @author distlock
 */
final class JdbcLockSchemaInitializerDetector extends AbstractBeansOfTypeDatabaseInitializerDetector {

	private static final int ORDER = Ordered.LOWEST_PRECEDENCE - 100;

	@Override
	protected Set<Class<?>> getDatabaseInitializerBeanTypes() {
		return Set.of(JdbcLockSchemaInitializer.class);
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

}
