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
 * The store SPI: {@link dev.distlock.store.LockStore}, the required operations every
 * backend implements, the {@link dev.distlock.store.LockStoreExtension extensions} a
 * backend may add, and the two adapters a store author starts from
 * ({@link dev.distlock.store.BlockingLockStore} for a blocking client,
 * {@link dev.distlock.store.ForwardingLockStore} for a decorator). Helpers for store
 * authors are in {@code dev.distlock.store.support}; the contract kit that checks a store
 * is the {@code lock-store-test} artifact.
 */
@NullMarked
package dev.distlock.store;

import org.jspecify.annotations.NullMarked;
