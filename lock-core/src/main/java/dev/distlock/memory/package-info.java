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
 * The single-JVM lock store: {@link dev.distlock.memory.InMemoryLockStore} keeps its
 * locks in memory, so they are <em>not distributed</em>. It implements every
 * {@link dev.distlock.store.LockStoreExtension} and needs no backend, for tests, examples
 * and single-instance applications.
 */
@NullMarked
package dev.distlock.memory;

import org.jspecify.annotations.NullMarked;
