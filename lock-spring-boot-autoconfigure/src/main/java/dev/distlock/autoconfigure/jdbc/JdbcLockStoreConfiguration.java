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

import dev.distlock.autoconfigure.DistlockProperties;
import dev.distlock.autoconfigure.LockStoreHealth;
import dev.distlock.autoconfigure.PropertyErrors;
import dev.distlock.autoconfigure.store.ConditionalOnLockStore;
import java.util.Map;

import javax.sql.DataSource;

import dev.distlock.autoconfigure.DistlockProperties.Store;
import dev.distlock.store.LockStore;
import dev.distlock.jdbc.JdbcLockSchema;
import dev.distlock.jdbc.JdbcLockStore;
import dev.distlock.jdbc.JdbcLockStoreSettings;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportSelector;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;

/**
 * Configuration of the JDBC lock store: a {@link JdbcLockStore} on the application's
 * {@link DataSource}, the one marked {@link DistlockDataSource @DistlockDataSource} or
 * else the single (or primary) one, and the {@link JdbcLockSchemaInitializer} of its
 * table. On PostgreSQL, the listener's connection is opened outside a HikariCP pool
 * ({@link ListenerConnections}). Needs {@code lock-jdbc} and Spring Boot's JDBC support
 * (both brought by {@code lock-spring-boot-starter-jdbc}). The store is created after
 * database initialization (Flyway, Liquibase, the lock table's script), so that a
 * migration may create its table; it fails startup when the table is missing, naming the
 * script and {@code distlock.jdbc.initialize-schema}. A warning says so when the database
 * is embedded (locks within one JVM).
 *
 * @author distlock
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnLockStore(value = Store.JDBC,
		classes = { "dev.distlock.jdbc.JdbcLockStore", "org.springframework.boot.jdbc.EmbeddedDatabaseConnection" },
		connection = "javax.sql.DataSource", qualifier = "dev.distlock.autoconfigure.jdbc.DistlockDataSource",
		dependency = "lock-spring-boot-starter-jdbc")
@EnableConfigurationProperties(JdbcLockStoreProperties.class)
@Import(JdbcLockStoreConfiguration.DatabaseInitializationDependencies.class)
class JdbcLockStoreConfiguration {

	private static final Log logger = LogFactory.getLog(JdbcLockStoreConfiguration.class);

	@Bean
	JdbcLockSchemaInitializer distlockJdbcLockSchemaInitializer(
			@DistlockDataSource ObjectProvider<DataSource> distlockDataSource, ObjectProvider<DataSource> dataSource,
			JdbcLockStoreProperties properties) {
		return new JdbcLockSchemaInitializer(dataSource(distlockDataSource, dataSource), properties.getTableName(),
				properties.getInitializeSchema());
	}

	@Bean(destroyMethod = "close")
	@DependsOnDatabaseInitialization
	LockStore jdbcLockStore(@DistlockDataSource ObjectProvider<DataSource> distlockDataSource,
			ObjectProvider<DataSource> dataSource, JdbcLockStoreProperties properties,
			DistlockProperties distlockProperties) {
		DataSource locks = dataSource(distlockDataSource, dataSource);
		if (EmbeddedDatabaseConnection.isEmbedded(locks)) {
			logger.warn("The JDBC lock store runs on an embedded database: its locks hold within this JVM only, "
					+ "two instances of the application do not exclude each other. For locks between instances, "
					+ "mark a shared database's DataSource with @DistlockDataSource.");
		}
		JdbcLockSchema.check(locks, properties.getTableName(),
				"or set distlock.jdbc.initialize-schema=always to create it at startup");
		Map<String, String> names = Map.of("tableName", "distlock.jdbc.table-name", "commandTimeout",
				"distlock.jdbc.command-timeout", "pollInterval", "distlock.jdbc.poll-interval", "cleanupInterval",
				"distlock.jdbc.cleanup-interval", "cleanupBatchSize", "distlock.jdbc.cleanup-batch-size", "threads",
				"distlock.jdbc.threads");
		return PropertyErrors.named(() -> {
			Assert.isTrue(distlockProperties.getRenewalBatchSize() <= JdbcLockStore.MAX_RENEWAL_BATCH_SIZE,
					() -> "'renewalBatchSize' must be at most " + JdbcLockStore.MAX_RENEWAL_BATCH_SIZE
							+ " with the JDBC store (two bind parameters per lock in one statement), but was "
							+ distlockProperties.getRenewalBatchSize());
			JdbcLockStoreSettings settings = JdbcLockStoreSettings.builder()
				.tableName(properties.getTableName())
				.commandTimeout(properties.getCommandTimeout())
				.pollInterval(properties.getPollInterval())
				.cleanupInterval(properties.getCleanupInterval())
				.cleanupBatchSize(properties.getCleanupBatchSize())
				.threads(properties.getThreads())
				.maxKeyLength(distlockProperties.getMaxKeyLength())
				.listenerConnectionFactory(ListenerConnections.outsideThePool(locks))
				.build();
			return new JdbcLockStore(locks, settings);
		}, names);
	}

	@Bean
	LockStoreHealth distlockJdbcLockTableHealth(ObjectProvider<LockStore> lockStore,
			JdbcLockStoreProperties properties) {
		return new JdbcLockTableHealth(lockStore, properties.getCommandTimeout());
	}

	/**
	 * Return the {@code DataSource} of the locks: the one marked
	 * {@link DistlockDataSource}, else the only or primary one (the condition made sure
	 * that there is one).
	 */
	private static DataSource dataSource(ObjectProvider<DataSource> distlockDataSource,
			ObjectProvider<DataSource> dataSource) {
		return distlockDataSource.getIfAvailable(dataSource::getObject);
	}

	/**
	 * Imports Spring Boot's {@code DatabaseInitializationDependencyConfigurer}, which
	 * makes the beans that depend on database initialization (the store) wait for the
	 * initializers (Flyway, Liquibase, the lock table's script). By name, and only when
	 * present: on Spring Boot 4 it is in {@code spring-boot-sql}, which an application
	 * without JDBC does not have, and this import is read even when the store is not
	 * selected.
	 */
	static final class DatabaseInitializationDependencies implements ImportSelector {

		private static final String CONFIGURER = "org.springframework.boot.sql.init.dependency."
				+ "DatabaseInitializationDependencyConfigurer";

		@Override
		public String[] selectImports(AnnotationMetadata importingClassMetadata) {
			return ClassUtils.isPresent(CONFIGURER, getClass().getClassLoader()) ? new String[] { CONFIGURER }
					: new String[0];
		}

	}

}
