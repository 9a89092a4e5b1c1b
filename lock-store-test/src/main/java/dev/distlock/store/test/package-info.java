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
 * The contract kit: {@link dev.distlock.store.test.LockStoreContractTests}, the lock
 * semantics every {@link dev.distlock.store.LockStore} must give the lock client, as an
 * abstract JUnit Jupiter test class that a store's own tests extend.
 */
@NullMarked
package dev.distlock.store.test;

import org.jspecify.annotations.NullMarked;
