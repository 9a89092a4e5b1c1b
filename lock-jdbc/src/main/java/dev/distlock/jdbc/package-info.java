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

/**
 * The JDBC lock store: {@link dev.distlock.jdbc.JdbcLockStore} keeps locks in one table
 * of a PostgreSQL, MySQL/MariaDB or H2 database, on the database's clock, with fencing
 * tokens that keep rising and no connection held while a lock is held.
 */
@NullMarked
package dev.distlock.jdbc;

import org.jspecify.annotations.NullMarked;
