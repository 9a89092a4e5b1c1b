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

package dev.distlock.benchmarks.contender;

import java.time.Duration;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.benchmarks.JdbcTarget;

/**
 * The database locks a JDBC run compares, in table order. Each gets a HikariCP pool of
 * its own ({@link #POOL_SIZE} connections) per process.
 *
 * @author distlock
 * @since 0.1.0
 */
public enum JdbcContender {

	/**
	 * This project's {@code DefaultLockClient} on a {@code JdbcLockStore}, in watchdog
	 * mode.
	 */
	DISTLOCK("distlock JDBC"),

	/**
	 * ShedLock 7.2.0 {@code JdbcTemplateLockProvider} with the database's time, waiting
	 * by polling every {@link ShedLockContender#POLL}: ShedLock itself never waits.
	 */
	SHEDLOCK("ShedLock 7.2.0 JdbcTemplateLockProvider"),

	/**
	 * Spring Integration 7.1.0 {@code JdbcLockRegistry} on a
	 * {@code DefaultLockRepository}, with its default wait between tries (100 ms).
	 */
	SPRING_INTEGRATION("Spring Integration 7.1.0 JdbcLockRegistry");

	/** Connections of each contender's pool in each process. */
	public static final int POOL_SIZE = 10;

	private final String label;

	JdbcContender(String label) {
		this.label = label;
	}

	/**
	 * Return the name shown in the results.
	 * @return the label
	 */
	public String label() {
		return this.label;
	}

	/**
	 * Connect the library to a database.
	 * @param target the database
	 * @param lease the lease: renewed by distlock's watchdog, the fixed lease of the
	 * others
	 * @return the connected contender, with its own pool
	 */
	public JdbcLockContender connect(JdbcTarget target, Duration lease) {
		HikariDataSource pool = target.dataSource(name().toLowerCase() + "-pool", POOL_SIZE);
		try {
			return switch (this) {
				case DISTLOCK -> new DistlockJdbcContender(pool, lease);
				case SHEDLOCK -> new ShedLockContender(pool, lease);
				case SPRING_INTEGRATION -> new JdbcLockRegistryContender(pool, lease);
			};
		}
		catch (RuntimeException ex) {
			pool.close();
			throw ex;
		}
	}

}
