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

import dev.distlock.autoconfigure.DistlockProperties.Store;
import dev.distlock.store.LockStore;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.mockito.Mockito.mock;

/**
 * A second store configuration, declared as a real one is (one class with
 * {@link ConditionalOnLockStore}), standing in for the planned JDBC store: present with
 * spring-jdbc and a single {@code DataSource} bean. Its store is a mock, as only the
 * selection is under test.
 *
 * @author distlock
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnLockStore(value = Store.JDBC, classes = "org.springframework.jdbc.core.JdbcTemplate",
		connection = "javax.sql.DataSource", dependency = "the JDBC store's starter")
class JdbcStandInLockStoreConfiguration {

	static final LockStore STORE = mock(LockStore.class);

	@Bean(destroyMethod = "")
	LockStore jdbcLockStore() {
		return STORE;
	}

}
